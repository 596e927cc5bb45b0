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
  AC_SUBST([SANITIZER_FLAGS])
])
