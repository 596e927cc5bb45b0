#!/usr/bin/env bash
# The whole test suite: unit and scenario tests (make check) in this build,
# then make distcheck, which builds the release tarball in a separate
# directory with AddressSanitizer and UndefinedBehaviorSanitizer
# (--enable-sanitizers) and runs every test again there.
# Ends with one summary line "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
[ -f Makefile ] || { autoreconf -fi && ./configure; } || exit 2

count() {   # sums the :test-result: lines of the .trs files under $1
	find "$1" -name '*.trs' -exec cat {} + 2>/dev/null |
		awk -v want="$2" '$1 == ":test-result:" && $2 == want { n++ } END { print n + 0 }'
}

make -j2 check
check_status=$?
make -j2 distcheck
dist_status=$?

pass=$(count . PASS); fail=$(count . FAIL); skip=$(count . SKIP); xerr=$(count . ERROR)
echo "make check: exit $check_status; make distcheck (sanitizers): exit $dist_status"
echo "tests: $pass passed, $((fail + xerr)) failed, $skip skipped"
[ "$check_status" -eq 0 ] && [ "$dist_status" -eq 0 ]
