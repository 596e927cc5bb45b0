# SCHEDSIM_XEN_SOURCE: Xen's own schedulers from one or more Xen trees.
#
#   --with-xen-source=[NAME=]DIR[,[NAME=]DIR...]   (may be repeated)
#   --with-xen-trees[=DIR]   every tree under DIR (default $SCHEDSIM_XEN_TREES,
#                            else ../shared/xen-src beside the source tree)
#
# Each tree's null.c (where it has one), credit.c, credit2.c, rt.c and
# arinc653.c become the modules xen-null@NAME, xen-credit@NAME,
# xen-credit2@NAME, xen-rtds@NAME and xen-arinc653@NAME; NAME
# defaults to DIR's folder name, or where that is not a valid name (the
# xen-4.17.5+72-g01140da4e8 of `apt-get source xen`) to the tree's Xen
# version (xen-shim/tree-name.sh), and configure says which it took.  Xen's files are compiled in place,
# never copied.  Each tree goes through xen-shim/add-tree.sh (its
# version and interface, links to the Xen files used, one compile of the
# shim against it: a tree that does not build is refused with the
# compiler's first error, which names the file and what is missing, and
# its make rules); the rules of all trees are gathered in
# xen-shim/trees.mk, which the Makefile takes in (AC_SUBST_FILE), and
# the list of trees for the C code in xen-trees.h (below).
# Without either option xen-trees.h defines nothing.
AC_DEFUN([SCHEDSIM_XEN_SOURCE], [
  AC_ARG_WITH([xen-source],
    [AS_HELP_STRING([--with-xen-source=[[NAME=]]DIR[[,...]]],
      [also build Xen's own schedulers from the Xen source tree DIR as xen-null@NAME, xen-credit@NAME, xen-credit2@NAME, xen-rtds@NAME, xen-arinc653@NAME (NAME: DIR's folder name by default, else the tree's Xen version); a list, or repeat the option, for several trees])],
    [], [with_xen_source=no])
  AC_ARG_WITH([xen-trees],
    [AS_HELP_STRING([--with-xen-trees[[=DIR]]],
      [the same for every Xen tree in DIR (default: $SCHEDSIM_XEN_TREES, else ../shared/xen-src next to the source tree)])],
    [], [with_xen_trees=no])

  # Every --with-xen-source of the command line: autoconf keeps only the
  # last, the arguments have them all (read in a subshell, which may set
  # its own positional parameters).
  xs_specs=$(eval "set x $ac_configure_args"; shift; xs_next=no
    for xs_arg
    do
      if test $xs_next = yes; then
        printf ',%s' "$xs_arg"
        xs_next=no
        continue
      fi
      case $xs_arg in
        --with-xen-source=no) ;;
        --with-xen-source=*) printf ',%s' "${xs_arg#--with-xen-source=}" ;;
        --with-xen-source) xs_next=yes ;;
      esac
    done)
  AS_IF([test -z "$xs_specs" && test "x$with_xen_source" != xno], [xs_specs=",$with_xen_source"])
  AS_IF([test "x$with_xen_trees" != xno], [
    AS_IF([test "x$with_xen_trees" = xyes || test -z "$with_xen_trees"], [
      AS_IF([test -n "$SCHEDSIM_XEN_TREES"], [with_xen_trees=$SCHEDSIM_XEN_TREES],
            [with_xen_trees=$srcdir/../shared/xen-src])])
    test -d "$with_xen_trees" ||
      AC_MSG_ERROR([--with-xen-trees=$with_xen_trees: no such directory])
    xs_found=no
    for xs_d in "$with_xen_trees"/*/; do
      test -f "${xs_d}xen/Makefile" || continue
      xs_specs="$xs_specs,${xs_d%/}"
      xs_found=yes
    done
    test $xs_found = yes ||
      AC_MSG_ERROR([--with-xen-trees=$with_xen_trees: no Xen tree in it (no */xen/Makefile)])
  ])

  XEN_SOURCE=
  XEN_TREE_OBJS=
  XEN_TREES_MK=/dev/null
  xs_list=
  xs_n=0
  xs_names=
  AS_IF([test -n "$xs_specs"], [
    AC_CHECK_TOOL([OBJCOPY], [objcopy], [no])
    test "x$OBJCOPY" != xno ||
      AC_MSG_ERROR([building Xen's schedulers needs objcopy (binutils), to keep each tree's symbols apart])
    xs_mk=xen-shim/trees.mk
    rm -rf xen-shim/tree[[0-9]]*
    AS_MKDIR_P([xen-shim])
    {
      echo "# Written by configure (m4/xen-source.m4, xen-shim/add-tree.sh): the Xen trees' objects."
      echo "include \$(srcdir)/xen-shim/shim.mk"
      echo "XS_CC = \$(CC) \$(CPPFLAGS) \$(CFLAGS) \$(XS_SANITIZER_CFLAGS) \$(XS_CFLAGS) \$(SANITIZER_FLAGS)"
      echo "XS_OUT = xen-shim"
    } > $xs_mk
    # The names given as NAME=DIR, which a derived name must not take.
    xs_given=
    xs_rest=$xs_specs
    while test -n "$xs_rest"
    do
      xs_spec=${xs_rest%%,*}
      case $xs_rest in
        *,*) xs_rest=${xs_rest#*,} ;;
        *) xs_rest= ;;
      esac
      case $xs_spec in
        */*=*) ;;
        *=*) xs_given="$xs_given ${xs_spec%%=*}" ;;
      esac
    done
    xs_rest=$xs_specs
    while test -n "$xs_rest"
    do
      xs_spec=${xs_rest%%,*}
      case $xs_rest in
        *,*) xs_rest=${xs_rest#*,} ;;
        *) xs_rest= ;;
      esac
      test -n "$xs_spec" || continue
      AS_IF([test "x$xs_spec" = xyes], [AC_MSG_ERROR([--with-xen-source needs the Xen tree: --with-xen-source=[[NAME=]]DIR])])
      # NAME=DIR or DIR; a '/' before the '=' means it is all a path.
      xs_name=
      xs_path=$xs_spec
      case $xs_spec in
        */*=*) ;;
        *=*) xs_name=${xs_spec%%=*}; xs_path=${xs_spec#*=} ;;
      esac
      xs_dir=`cd "$xs_path" 2>/dev/null && pwd` ||
        AC_MSG_ERROR([--with-xen-source=$xs_spec: no such directory $xs_path])
      # No NAME: the folder's name, else the tree's version, else the
      # folder's name made valid (xen-shim/tree-name.sh), and which it is.
      AS_IF([test -z "$xs_name"], [
        xs_named=`$SHELL "$srcdir/xen-shim/tree-name.sh" "$srcdir" "$xs_dir" $xs_names $xs_given 2>conftest.err` || {
          xs_err=`cat conftest.err`
          AC_MSG_ERROR([--with-xen-source=$xs_spec: $xs_err])
        }
        xs_name=${xs_named%% *}
        xs_how=${xs_named##* }
        AS_CASE([$xs_how],
          [version], [AC_MSG_NOTICE([the Xen tree $xs_dir is named '$xs_name', its Xen version: its folder's name is not a tree name (NAME=DIR chooses one)])],
          [folder-cleaned], [AC_MSG_NOTICE([the Xen tree $xs_dir is named '$xs_name', its folder's name made a tree name (NAME=DIR chooses one)])])
      ])
      case $xs_name in
        *[[!A-Za-z0-9._-]]*|'')
          AC_MSG_ERROR([--with-xen-source=$xs_spec: tree name '$xs_name' may hold only letters, digits, '.', '_' and '-' (give NAME=DIR)]) ;;
      esac
      test `printf %s "$xs_name" | wc -c` -le 40 ||
        AC_MSG_ERROR([--with-xen-source=$xs_spec: tree name '$xs_name' is longer than 40 characters (give NAME=DIR)])
      case " $xs_names " in
        *" $xs_name "*) AC_MSG_ERROR([--with-xen-source=$xs_spec: a second tree named '$xs_name' (give NAME=DIR)]) ;;
      esac
      xs_names="$xs_names $xs_name"

      # add-tree.sh of every tree at once, each in its own xen-shim/treeN:
      # its compiles are most of configure's time with several trees (ten:
      # 8.8 s of CPU, one after the other before); what each said is read
      # below, in the trees' order.
      (CC="$CC" $SHELL "$srcdir/xen-shim/add-tree.sh" "$srcdir" $xs_n "$xs_name" "$xs_dir" \
         > xen-shim/add-tree$xs_n.out 2> xen-shim/add-tree$xs_n.err
       echo $? > xen-shim/add-tree$xs_n.rc) &
      eval "xs_name_$xs_n=\$xs_name xs_dir_$xs_n=\$xs_dir xs_spec_$xs_n=\$xs_spec"
      xs_n=`expr $xs_n + 1`
    done
    wait
    xs_i=0
    while test $xs_i -lt $xs_n
    do
      eval "xs_name=\$xs_name_$xs_i xs_dir=\$xs_dir_$xs_i xs_spec=\$xs_spec_$xs_i"
      AC_MSG_CHECKING([the Xen tree $xs_name ($xs_dir)])
      xs_t=xen-shim/tree$xs_i
      test "`cat xen-shim/add-tree$xs_i.rc 2>/dev/null`" = 0 || {
        AC_MSG_RESULT([no])
        xs_err=`cat xen-shim/add-tree$xs_i.err`
        rm -f xen-shim/add-tree[[0-9]]*.*
        AC_MSG_ERROR([--with-xen-source=$xs_spec: $xs_err])
      }
      eval "`cat xen-shim/add-tree$xs_i.out`"
      AC_MSG_RESULT([Xen $version, interface $iface, schedulers: $modules])
      cat $xs_t.mk >> $xs_mk
      XEN_TREE_OBJS="$XEN_TREE_OBJS $xs_t.o"
      xs_list="$xs_list $entry"
      XEN_SOURCE="$XEN_SOURCE $xs_name"
      xs_i=`expr $xs_i + 1`
    done
    rm -f xen-shim/add-tree[[0-9]]*.* conftest.err
    XEN_TREES_MK=$xs_mk
    AS_IF([test $xs_n = 1],
      [AC_MSG_NOTICE([one Xen tree:$XEN_SOURCE; its schedulers are also the plain xen-credit, xen-credit2, xen-rtds, xen-arinc653 (and xen-null)])],
      [AC_MSG_NOTICE([$xs_n Xen trees:$XEN_SOURCE; schedulers xen-credit@TREE, xen-credit2@TREE, xen-null@TREE, xen-rtds@TREE, xen-arinc653@TREE])])
  ])
  # The trees for the C code, in xen-trees.h rather than config.h, which
  # every object includes: adding the trees to a build (tests/run-all.sh
  # configures the README's build again with them) then recompiles only
  # what includes this file (schedulers/registry.c through
  # xen-shim/registry.h, and xen-shim/adapter.c), not the whole program.
  # Rewritten only when it changes, so that configuring again with the
  # same trees rebuilds nothing.
  {
    echo "/* Written by configure (m4/xen-source.m4): the Xen trees built in. */"
    AS_IF([test -n "$XEN_SOURCE"], [
      echo "/* Xen's own schedulers are built from Xen trees (xen-shim/registry.h). */"
      echo "#define HAVE_XEN_SOURCE 1"
      echo "/* Number of Xen trees built in. */"
      echo "#define XEN_SHIM_NTREES $xs_n"
      echo "/* The Xen trees: T(index, name, Xen version, has null.c, has credit.c, has credit2.c,"
      echo "   has credit2_runqueue=, credit.c has tick_suspend, has rt.c, has arinc653.c)"
      echo "   (xen-shim/add-tree.sh). */"
      echo "#define XEN_SHIM_TREES(T)$xs_list"
    ])
  } > xen-trees.h.tmp
  AS_IF([cmp -s xen-trees.h.tmp xen-trees.h], [rm -f xen-trees.h.tmp],
        [mv -f xen-trees.h.tmp xen-trees.h])
  XEN_SOURCE=${XEN_SOURCE# }
  AC_SUBST([XEN_SOURCE])
  AC_SUBST([XEN_TREE_OBJS])
  AC_SUBST_FILE([XEN_TREES_MK])
  AM_CONDITIONAL([XEN_SOURCE], [test -n "$XEN_SOURCE"])
])
