# The start every checking script of tests/xen-diff shares (sourced by
# pools.sh, realtime.sh, trees.sh, configure.sh, driver.sh; lib.sh is the
# scenario table of the model-against-tree tests): the binaries under test,
# a scratch directory $tmp removed at exit, fail() to count a failed check
# and finish to end with the count.
set -u
srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
XEN_DIFF=${XEN_DIFF:-$(dirname "$SCHEDSIM")/tests/xen-diff/xen-diff}
RANDOM_DRIVER=${RANDOM_DRIVER:-$(dirname "$SCHEDSIM")/tests/xen-diff/xen-diff-random}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# sanitized: true in the sanitizer build (make distcheck's), as
# tests/scenarios/lib.sh's: there a test may run fewer repetitions of the
# same code, for memory errors, where the plain build checks the figures.
sanitized() {
	[ -n "${SCHEDSIM_SANITIZED:-}" ]
}

# finish: exit 1 (naming how many checks failed) or 0.
finish() {
	[ $failures = 0 ] || { echo "$failures failure(s)"; exit 1; }
	exit 0
}
