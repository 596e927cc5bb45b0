# SCHEDSIM_XEN_SOURCE: --with-xen-source=DIR builds the modules xen-null,
# xen-credit and xen-credit2 from Xen's own scheduler files in the Xen
# tree DIR (xen/common/sched/{null,credit,credit2}.c, compiled in place,
# never copied).  Without it nothing changes.  The shim targets Xen 4.17;
# configure reads the tree's version and says so when it differs.
AC_DEFUN([SCHEDSIM_XEN_SOURCE], [
  AC_ARG_WITH([xen-source],
    [AS_HELP_STRING([--with-xen-source=[[NAME=]]DIR],
      [also build xen-null@NAME, xen-credit@NAME and xen-credit2@NAME from Xen's scheduler files in the Xen source tree DIR (the shim targets Xen 4.17; NAME defaults to DIR's folder name)])],
    [], [with_xen_source=no])
  XEN_SOURCE=
  AS_IF([test "x$with_xen_source" != xno], [
    AS_IF([test "x$with_xen_source" = xyes || test -z "$with_xen_source"],
      [AC_MSG_ERROR([--with-xen-source needs the Xen tree: --with-xen-source=DIR])])
    # NAME=DIR or DIR: the tree's schedulers are named xen-credit2@NAME,
    # NAME defaulting to DIR's folder name.
    xs_name=; xs_path=$with_xen_source
    case $with_xen_source in
      */*=*) ;;
      *=*) xs_name=${with_xen_source%%=*}; xs_path=${with_xen_source#*=} ;;
    esac
    xs_dir=`cd "$xs_path" 2>/dev/null && pwd` ||
      AC_MSG_ERROR([--with-xen-source=$with_xen_source: no such directory $xs_path])
    test -n "$xs_name" || xs_name=`basename "$xs_dir"`
    AS_CASE(["$xs_name"],
      [*[[!A-Za-z0-9._-]]*], [AC_MSG_ERROR([--with-xen-source: tree name '$xs_name' may hold only letters, digits, '.', '_' and '-' (give NAME=DIR)])])
    test `printf %s "$xs_name" | wc -c` -le 40 ||
      AC_MSG_ERROR([--with-xen-source: tree name '$xs_name' is longer than 40 characters (give NAME=DIR)])
    for xs_f in xen/Makefile xen/common/sched/private.h xen/common/sched/null.c \
        xen/common/sched/credit.c xen/common/sched/credit2.c \
        xen/include/xen/list.h xen/include/xen/cpumask.h xen/include/xen/bitmap.h \
        xen/include/xen/bitops.h xen/include/xen/kernel.h xen/include/xen/err.h \
        xen/include/xen/nodemask.h; do
      test -f "$xs_dir/$xs_f" ||
        AC_MSG_ERROR([--with-xen-source=$xs_dir: $xs_f not found (not a Xen source tree, or a layout older than Xen 4.14)])
    done
    AC_MSG_CHECKING([the version of the Xen tree in $xs_dir])
    xs_major=`sed -n 's/^export XEN_VERSION *= *\([[0-9]]*\).*/\1/p' "$xs_dir/xen/Makefile"`
    xs_minor=`sed -n 's/^export XEN_SUBVERSION *= *\([[0-9]]*\).*/\1/p' "$xs_dir/xen/Makefile"`
    xs_extra=`sed -n 's/^export XEN_EXTRAVERSION *?*= *\([[^$ ]]*\).*/\1/p' "$xs_dir/xen/Makefile"`
    XEN_SOURCE_VERSION="$xs_major.$xs_minor$xs_extra"
    AC_MSG_RESULT([$XEN_SOURCE_VERSION])
    AS_CASE(["$xs_major.$xs_minor"],
      [4.17], [AC_MSG_NOTICE([Xen $XEN_SOURCE_VERSION: the version the shim targets (4.17); building xen-null, xen-credit, xen-credit2])],
      [AC_MSG_WARN([Xen $XEN_SOURCE_VERSION: the shim targets Xen 4.17 only; other versions may fail to build or run, differential tests against the 4.17 models are meaningless])])
    XEN_SOURCE=$xs_dir
    AC_DEFINE([HAVE_XEN_SOURCE], [1], [Define to 1 to build the xen-* scheduler modules from a Xen tree.])
    AC_DEFINE_UNQUOTED([XEN_SOURCE_VERSION], ["$XEN_SOURCE_VERSION"], [Version of the Xen tree the xen-* modules come from.])
    AC_DEFINE_UNQUOTED([XEN_SOURCE_NAME], ["$xs_name"], [Name of the Xen tree: its modules are xen-credit2@NAME.])
    AC_MSG_NOTICE([Xen tree '$xs_name': schedulers xen-null@$xs_name, xen-credit@$xs_name, xen-credit2@$xs_name])
  ])
  AC_SUBST([XEN_SOURCE])
  AC_SUBST([XEN_SOURCE_VERSION])
  AM_CONDITIONAL([XEN_SOURCE], [test -n "$XEN_SOURCE"])
])
