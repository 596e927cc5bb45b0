# Helpers for the scenario tests (sourced by tests/scenarios/*.sh).
# SCHEDSIM is the binary under test; tmp is a scratch directory removed at exit.
SCHEDSIM=${SCHEDSIM:-./schedsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# run_ok ARGS...: runs schedsim, which must exit 0; prints its stdout.
run_ok() {
	"$SCHEDSIM" "$@" 2> "$tmp/stderr"
	rc=$?
	[ $rc -eq 0 ] || fail "schedsim $* exited $rc: $(cat "$tmp/stderr")"
	return $rc
}

# expect_error TEXT ARGS...: schedsim must exit 2 with exactly one line on
# stderr containing TEXT, and print nothing on stdout.
expect_error() {
	want=$1
	shift
	"$SCHEDSIM" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
	rc=$?
	[ $rc -eq 2 ] || fail "schedsim $* exited $rc, not 2"
	[ "$(wc -l < "$tmp/stderr")" -eq 1 ] || fail "schedsim $*: stderr is not one line: $(cat "$tmp/stderr")"
	grep -qF -- "$want" "$tmp/stderr" || fail "schedsim $*: '$(cat "$tmp/stderr")' lacks '$want'"
	[ -s "$tmp/stdout" ] && fail "schedsim $*: printed on stdout"
	return 0
}

# json_check FILE PYTHON: runs the Python assertions with doc = the parsed file.
json_check() {
	python3 -c "
import json, sys
doc = json.load(open(sys.argv[1]))
$2" "$1" || fail "JSON check on $1 failed"
}

finish() {
	if [ $failures -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	exit 0
}
