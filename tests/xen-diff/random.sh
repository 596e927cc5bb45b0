#!/bin/sh
# The random differential runs of make check: every pair of the table
# tests/xen-diff/pairs whose Xen tree is built, over XEN_DIFF_COUNT random
# scenarios; each pair must decide identically on its MIN% of them.  SKIP
# (77) when no tree of the table is built.  Longer runs: make check-diff
# N=2000.
#
# The count: 200 scenarios a pair in the plain build, where the decisions
# are compared (tests/run-all.sh builds Xen's trees there too); 25 in the
# sanitizer build (SCHEDSIM_SANITIZED, make distcheck's), for memory and
# undefined-behaviour errors at ten times the CPU: the same first 25
# scenarios (the same seeds), one block of the driver's, each pair's
# model, shim and Xen code on each of the generator's features.
srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
RANDOM_DRIVER=${RANDOM_DRIVER:-$(dirname "$SCHEDSIM")/tests/xen-diff/xen-diff-random}
if [ -n "${SCHEDSIM_SANITIZED:-}" ]; then
	count=${XEN_DIFF_COUNT:-25}
else
	count=${XEN_DIFF_COUNT:-200}
fi
exec "$RANDOM_DRIVER" --pairs="$srcdir/tests/xen-diff/pairs" \
	--count="$count" --jobs="${XEN_DIFF_JOBS:-1}"
