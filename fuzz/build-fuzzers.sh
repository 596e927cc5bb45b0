#!/bin/sh
# Builds the libFuzzer targets with clang: the library sources and each
# harness compiled with -fsanitize=fuzzer-no-link,address,undefined and
# linked with -fsanitize=fuzzer.  Called by `make fuzz` (fuzz/local.am),
# which passes the library's source list, so nothing here needs updating
# when files are added.  Objects go to fuzz/obj/ in the build directory.
#
# usage: build-fuzzers.sh SRCDIR BUILDDIR -- LIBSOURCES... -- TARGETS...
# FUZZ_EXTRA_OBJS: objects built elsewhere to link in too (the Xen trees'
# code, made by `make fuzz` with clang); XEN_DIFF_PAIRS: the table of
# model-versus-Xen pairs fuzz_xen_diff reads.
set -eu
srcdir=$1 builddir=$2
shift 3
libs=
while [ "$1" != -- ]; do libs="$libs $1"; shift; done
shift
CC_FUZZ=${CC_FUZZ:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
CFLAGS_FUZZ="-std=c11 -D_DEFAULT_SOURCE -g -O1 -fno-omit-frame-pointer $SAN"
INC="-I$srcdir -I$builddir ${LIBXML2_CFLAGS:-$(pkg-config --cflags libxml-2.0)}"
[ -n "${XEN_DIFF_PAIRS:-}" ] && INC="$INC -DXEN_DIFF_PAIRS=\"$XEN_DIFF_PAIRS\""
LIBS_FUZZ="${LIBXML2_LIBS:-$(pkg-config --libs libxml-2.0)} -lm"
obj=$builddir/fuzz/obj
mkdir -p "$obj"
# Objects are rebuilt when their .c changes; a changed header (a struct
# layout) invalidates them all, since this script tracks no dependencies.
if [ -n "$(find "$srcdir" "$builddir" -name '*.h' -newer "$obj/.stamp" 2>/dev/null | head -n 1)" ] ||
   [ ! -f "$obj/.stamp" ]; then
	rm -f "$obj"/*.o
fi
touch "$obj/.stamp"
objs=
for f in $libs; do
	case $f in *.c) ;; *) continue ;; esac
	src=$srcdir/$f
	[ -f "$src" ] || src=$builddir/$f
	o=$obj/$(echo "$f" | tr / _ | sed 's/\.c$/.o/')
	if [ ! -f "$o" ] || [ "$src" -nt "$o" ]; then
		echo "  FUZZCC   $f"
		$CC_FUZZ $CFLAGS_FUZZ -fsanitize=fuzzer-no-link $INC -c "$src" -o "$o"
	fi
	objs="$objs $o"
done
for t in "$@"; do
	echo "  FUZZLD   fuzz/$t"
	$CC_FUZZ $CFLAGS_FUZZ -fsanitize=fuzzer $INC "$srcdir/fuzz/$t.c" $objs ${FUZZ_EXTRA_OBJS:-} \
		$LIBS_FUZZ -o "$builddir/fuzz/$t"
done
