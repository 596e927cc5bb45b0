#!/bin/sh
# Scenarios the fuzzer (fuzz/fuzz_xen_diff) or the random runs found, kept
# as regression tests: each tests/xen-diff/regressions/*.xml names its
# pair and what xen-diff must say in its leading comment,
#   pair: MODEL XEN@TREE   (either may carry options: XEN@TREE:gran=core)
#   expect: identical | divergent (why)
# "divergent" marks a known divergence not fixed yet: the test fails once
# the two decide alike, so that the expectation is brought up to date
# with the fix.  A pair whose tree is not built is skipped; SKIP (77) when
# none could run.
set -u
srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
XEN_DIFF=${XEN_DIFF:-$(dirname "$SCHEDSIM")/tests/xen-diff/xen-diff}
ran=0 failures=0
for f in "$srcdir"/tests/xen-diff/regressions/*.xml; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	set -- $(sed -n 's/^ *pair: *//p' "$f" | head -n 1)
	expect=$(sed -n 's/^ *expect: *\([a-z]*\).*/\1/p' "$f" | head -n 1)
	if [ $# != 2 ] || { [ "$expect" != identical ] && [ "$expect" != divergent ]; }; then
		echo "FAIL: $name: no 'pair: MODEL XEN' and 'expect: identical|divergent' lines"
		failures=$((failures + 1))
		continue
	fi
	# A pair's spec may carry options (xen-credit2@4.17.5:gran=core): the module is before them.
	if ! "$SCHEDSIM" --list-schedulers | grep -q "^${2%%:*} "; then
		echo "skip: $name: ${2%%:*} not built"
		continue
	fi
	"$XEN_DIFF" --no-dump --check "$f" "$1" "$2" > out.$$ 2>&1
	rc=$?
	ran=$((ran + 1))
	case $expect.$rc in
	identical.0|divergent.1) echo "ok: $name: $1 vs $2 $expect" ;;
	divergent.0) echo "FAIL: $name: $1 and $2 now decide alike: set 'expect: identical'"
		failures=$((failures + 1)) ;;
	*) echo "FAIL: $name: $1 vs $2: exit $rc, expected $expect"; cat out.$$
		failures=$((failures + 1)) ;;
	esac
done
rm -f out.$$
[ $ran = 0 ] && [ $failures = 0 ] && exit 77
[ $failures = 0 ]
