#!/bin/sh
# Prints the path of a xenalyze built from Xen's Debian source, building it
# once next to the cached tree (tests/xen-source.sh): the two headers it
# needs are copied into a private include folder, since
# xen/include/public itself must not be on the include path (its headers
# shadow glibc's).  $XENALYZE, when set, is used as it is.  Exit 77 with
# the reason on stderr when there is no source; 1 when the build fails.
# Tests run in parallel: each builds into its own file and renames it.
set -u

srcdir=${srcdir:-.}
CC=${CC:-cc}
if [ -n "${XENALYZE:-}" ]; then
	echo "$XENALYZE"
	exit 0
fi
tree=$(sh "$srcdir/tests/xen-source.sh")
rc=$?
[ "$rc" = 0 ] || exit "$rc"
build=$(dirname "$tree")/xenalyze-$(basename "$tree")
xenalyze=$build/xenalyze
src=$tree/tools/xentrace
if [ ! -x "$xenalyze" ] || [ "$src/xenalyze.c" -nt "$xenalyze" ]; then
	mkdir -p "$build/include/xen" "$build/include/xen-tools" || exit 1
	cp "$tree/xen/include/public/trace.h" "$build/include/xen/trace.h" &&
	cp "$tree/tools/include/xen-tools/libs.h" "$build/include/xen-tools/libs.h" || {
		echo "the Xen tree lacks trace.h or xen-tools/libs.h" >&2; exit 1; }
	if ! "$CC" -O2 -w -I"$build/include" -o "$xenalyze.$$" \
	     "$src/xenalyze.c" "$src/mread.c" 2>"$build/cc.$$.log"; then
		echo "building xenalyze failed:" >&2
		head -20 "$build/cc.$$.log" >&2
		rm -f "$build/cc.$$.log" "$xenalyze.$$"
		exit 1
	fi
	rm -f "$build/cc.$$.log"
	mv -f "$xenalyze.$$" "$xenalyze"
fi
echo "$xenalyze"
