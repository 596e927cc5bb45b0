#!/bin/sh
# Two instances of the shim in one process, taking turns every 137us of
# simulated time, must decide exactly as when each runs alone: the shim's
# per-instance state (current context, per-cpu areas, Xen's globals
# reloaded on entry) really is per instance.  Compared: xen-diff's whole
# report for pairs of instances of the same file (differently configured,
# so that they do decide differently) and of two files, run one after the
# other and interleaved.
set -u
srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
XEN_DIFF=${XEN_DIFF:-$(dirname "$SCHEDSIM")/tests/xen-diff/xen-diff}

T=@4.17.5
if ! "$SCHEDSIM" --list-schedulers 2>/dev/null | grep -q "^xen-credit2$T "; then
	echo "SKIP: schedsim was built without Xen 4.17.5's scheduler code;" \
		"configure --with-xen-source=4.17.5=DIR (DIR: ../shared/xen-src/4.17.5, or from tests/xen-source.sh)"
	exit 77
fi
fails=0
for f in "$srcdir"/tests/xen-diff/scenarios/*.xml; do
	for pair in "xen-credit$T xen-credit$T:tslice_ms=10" "xen-credit2$T xen-credit2$T:ratelimit_us=0" \
		    "xen-null$T xen-credit$T"; do
		set -- $pair
		seq=$("$XEN_DIFF" --no-dump "$f" "$1" "$2" 2>&1)
		int=$("$XEN_DIFF" --no-dump --interleave=137us "$f" "$1" "$2" 2>&1)
		if [ "$seq" = "$int" ]; then
			echo "ok: $(basename "$f") $1 $2"
		else
			echo "FAIL: $(basename "$f") $1 $2: interleaved runs decide differently"
			fails=$((fails + 1))
		fi
	done
done
[ $fails = 0 ]
