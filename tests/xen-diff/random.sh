#!/bin/sh
# The random differential runs of make check: every pair of the table
# tests/xen-diff/pairs whose Xen tree is built, over XEN_DIFF_COUNT
# (default 200) random scenarios; each pair must decide identically on its
# MIN% of them.  SKIP (77) when no tree of the table is built.  Longer
# runs: make check-diff N=2000.
srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
RANDOM_DRIVER=${RANDOM_DRIVER:-$(dirname "$SCHEDSIM")/tests/xen-diff/xen-diff-random}
exec "$RANDOM_DRIVER" --pairs="$srcdir/tests/xen-diff/pairs" \
	--count="${XEN_DIFF_COUNT:-200}" --jobs="${XEN_DIFF_JOBS:-1}"
