# SCHEDSIM_REQUIRE_PKG(VAR, MODULES, DEBIAN-PACKAGE)
# pkg-config check that fails with the Debian package to install.
AC_DEFUN([SCHEDSIM_REQUIRE_PKG], [
  PKG_CHECK_MODULES([$1], [$2], [],
    [AC_MSG_ERROR([$2 not found: install the Debian package $3 (apt-get install $3)])])
])

# SCHEDSIM_WARNINGS: -Wall -Wextra and friends, kept clean.
AC_DEFUN([SCHEDSIM_WARNINGS], [
  WARN_CFLAGS="-Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter"
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [treat warnings as errors])],
    [], [enable_werror=no])
  AS_IF([test "x$enable_werror" = xyes], [WARN_CFLAGS="$WARN_CFLAGS -Werror"])
  AC_SUBST([WARN_CFLAGS])
])

# SCHEDSIM_SANITIZERS: --enable-sanitizers builds with ASan and UBSan.
AC_DEFUN([SCHEDSIM_SANITIZERS], [
  AC_ARG_ENABLE([sanitizers],
    [AS_HELP_STRING([--enable-sanitizers], [build with AddressSanitizer and UndefinedBehaviorSanitizer])],
    [], [enable_sanitizers=no])
  SANITIZER_FLAGS=
  AS_IF([test "x$enable_sanitizers" = xyes], [
    SANITIZER_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
    save_CFLAGS=$CFLAGS; save_LDFLAGS=$LDFLAGS
    CFLAGS="$CFLAGS $SANITIZER_FLAGS"; LDFLAGS="$LDFLAGS $SANITIZER_FLAGS"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [],
      [AC_MSG_ERROR([the compiler cannot build with -fsanitize=address,undefined])])
    CFLAGS=$save_CFLAGS; LDFLAGS=$save_LDFLAGS
  ])
  # The programs of a sanitizer build link as position-dependent executables
  # where the compiler can: a test run starts schedsim thousands of times,
  # and a PIE of this build carries 326,000 relative relocations (ASan's
  # descriptors of every global among them) that the dynamic loader applies
  # at each start.  Measured with perf stat -r 30 on a bad input's run
  # (schedsim --scenario=malformed.xml, which exits at once): 159 ms of CPU
  # as a PIE, 90 ms linked with -no-pie.  What the sanitizers check is the
  # same either way; the plain build is left as the toolchain makes it.
  SANITIZER_LDFLAGS=$SANITIZER_FLAGS
  AS_IF([test "x$enable_sanitizers" = xyes], [
    AC_MSG_CHECKING([whether $CC links a sanitizer build with -no-pie])
    save_CFLAGS=$CFLAGS; save_LDFLAGS=$LDFLAGS
    CFLAGS="$CFLAGS $SANITIZER_FLAGS"; LDFLAGS="$LDFLAGS $SANITIZER_FLAGS -no-pie"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
      [SANITIZER_LDFLAGS="$SANITIZER_FLAGS -no-pie"; AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])])
    CFLAGS=$save_CFLAGS; LDFLAGS=$save_LDFLAGS
  ])
  # Xen's scheduler files (xen-shim/trees.mk's XS_CC) in a sanitizer build:
  # at -O1, unless CFLAGS was given (configure.ac, schedsim_cflags_given).
  # With ten trees they were 115 of the build's 210 s of CPU at the default
  # -O2, 70 at -O1 (54 objects, /usr/bin/time on make -j2 of
  # xen-shim/tree0.o ... tree9.o, 2-core machine).  The sanitizers check
  # the same source at either level (UBSan's checks go in before the
  # optimiser; ASan checks the memory accesses left after it, and -O2's
  # further passes only merge or drop some of them; ASan asks for -O1 or
  # more for speed), and the differential runs cost as much at -O1
  # (xen-diff-random --count=8 over tests/xen-diff/pairs: 25.5 s of CPU at
  # -O2, 23.8 at -O1).  The plain build compiles them with CFLAGS.
  XS_SANITIZER_CFLAGS=
  AS_IF([test "x$enable_sanitizers" = xyes && test "x$schedsim_cflags_given" != xyes],
    [XS_SANITIZER_CFLAGS=-O1])
  AC_SUBST([SANITIZER_FLAGS])
  AC_SUBST([SANITIZER_LDFLAGS])
  AC_SUBST([XS_SANITIZER_CFLAGS])
])

# SCHEDSIM_LTO: link-time optimisation of the schedsim binary.  The simulator's
# hot path crosses many small functions of different files (the event queue,
# the guest layer, the hardware model, the schedulers); inlining across them
# saves 5 to 8 % of an iperf run's instructions (doc/performance.md).
# The objects are fat (machine code beside the LTO IR) and every other program
# links with -fno-lto (gcc would otherwise optimise each test program whole at
# its link, ten times the build's time): only schedsim's link optimises.
# On by default where the compiler and the archiver can do it, off with
# --enable-sanitizers (whose builds are for finding faults, not for speed).
AC_DEFUN([SCHEDSIM_LTO], [
  AC_ARG_ENABLE([lto],
    [AS_HELP_STRING([--disable-lto],
      [build schedsim without link-time optimisation (default: with it where the compiler and archiver support it, without it under --enable-sanitizers)])],
    [], [enable_lto=auto])
  LTO_CFLAGS=
  LTO_LDFLAGS=
  LTO_OFF_LDFLAGS=
  AS_IF([test "x$enable_lto" = xyes ||
         { test "x$enable_lto" = xauto && test "x$enable_sanitizers" != xyes; }], [
    dnl both links the build makes: schedsim's with -flto, the tests' with -fno-lto
    AC_MSG_CHECKING([whether $CC and $AR build a program from an archive with -flto])
    cat >conftest_lto_lib.c <<_SCHEDSIM_EOF
int schedsim_lto_probe(int x);
int schedsim_lto_probe(int x) { return x + 1; }
_SCHEDSIM_EOF
    cat >conftest_lto_main.c <<_SCHEDSIM_EOF
int schedsim_lto_probe(int x);
int main(void) { return schedsim_lto_probe(-1); }
_SCHEDSIM_EOF
    rm -f libconftest_lto.a
    AS_IF([$CC $CFLAGS -flto=auto -ffat-lto-objects -c conftest_lto_lib.c -o conftest_lto_lib.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1 &&
           $AR cr libconftest_lto.a conftest_lto_lib.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1 &&
           $RANLIB libconftest_lto.a >&AS_MESSAGE_LOG_FD 2>&1 &&
           $CC $CFLAGS -flto=auto $LDFLAGS conftest_lto_main.c libconftest_lto.a -o conftest_lto$EXEEXT >&AS_MESSAGE_LOG_FD 2>&1 &&
           $CC $CFLAGS -fno-lto $LDFLAGS conftest_lto_main.c libconftest_lto.a -o conftest_lto$EXEEXT >&AS_MESSAGE_LOG_FD 2>&1],
      [schedsim_lto_ok=yes], [schedsim_lto_ok=no])
    rm -f conftest_lto_lib.c conftest_lto_main.c conftest_lto_lib.$OBJEXT libconftest_lto.a conftest_lto$EXEEXT
    AC_MSG_RESULT([$schedsim_lto_ok])
    AS_IF([test "x$schedsim_lto_ok" = xyes], [
      LTO_CFLAGS="-flto=auto -ffat-lto-objects"
      LTO_LDFLAGS="-flto=auto"
      LTO_OFF_LDFLAGS="-fno-lto"
    ], [test "x$enable_lto" = xyes], [
      AC_MSG_ERROR([--enable-lto: $CC or $AR cannot build a program from an archive with -flto (see config.log)])
    ])
  ])
  AC_SUBST([LTO_CFLAGS])
  AC_SUBST([LTO_LDFLAGS])
  AC_SUBST([LTO_OFF_LDFLAGS])
])

# SCHEDSIM_MODULES: scheduler modules loaded at run time (--sched=./x.so,
# schedulers/loader.c): dlopen (in libc since glibc 2.34, in -ldl before),
# and schedsim linked with the functions a module calls exported
# (MODULE_LDFLAGS): the dynamic list schedulers/module.syms, or every
# symbol (-rdynamic) where the linker takes no dynamic list.
AC_DEFUN([SCHEDSIM_MODULES], [
  AC_SEARCH_LIBS([dlopen], [dl], [],
    [AC_MSG_ERROR([dlopen not found: scheduler modules need it (the C library's libdl)])])
  AC_MSG_CHECKING([how to export schedsim's functions to the modules it loads])
  save_LDFLAGS=$LDFLAGS
  LDFLAGS="$LDFLAGS -Wl,--dynamic-list=$srcdir/schedulers/module.syms"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
    [MODULE_LDFLAGS='-Wl,--dynamic-list=$(srcdir)/schedulers/module.syms'],
    [MODULE_LDFLAGS=-rdynamic])
  LDFLAGS=$save_LDFLAGS
  AC_MSG_RESULT([$MODULE_LDFLAGS])
  AC_SUBST([MODULE_LDFLAGS])
])
