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
# stderr containing TEXT, and print nothing on stdout; returns 1 when it
# counted a failure.
expect_error() {
	want=$1
	shift
	failures_before=$failures
	"$SCHEDSIM" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
	rc=$?
	[ $rc -eq 2 ] || fail "schedsim $* exited $rc, not 2"
	[ "$(wc -l < "$tmp/stderr")" -eq 1 ] || fail "schedsim $*: stderr is not one line: $(cat "$tmp/stderr")"
	grep -qF -- "$want" "$tmp/stderr" || fail "schedsim $*: '$(cat "$tmp/stderr")' lacks '$want'"
	[ -s "$tmp/stdout" ] && fail "schedsim $*: printed on stdout"
	[ $failures -eq $failures_before ]
}

# run_checked SPEC FILE [ARGS...]: the scenario FILE (empty: the default
# one) under SPEC with the invariant checker, its JSON report into
# $tmp/report.json (what expect reads); returns 1, counting a failure, on a
# non-zero exit or a check_error in the report.
run_checked() {
	spec=$1 file=$2
	shift 2
	if ! "$SCHEDSIM" --sched="$spec" ${file:+--scenario="$file"} --check --format=json "$@" \
	     > "$tmp/report.json" 2> "$tmp/stderr"; then
		fail "$spec $file: schedsim exited non-zero: $(head -5 "$tmp/stderr")"
		return 1
	fi
	if [ "$(jq -r '[.runs[].check_error // empty] | length' "$tmp/report.json")" != 0 ]; then
		fail "$spec $file: $(jq -r '.runs[].check_error // empty' "$tmp/report.json")"
		return 1
	fi
	return 0
}

# expect DESCRIPTION JQ-BOOLEAN JQ-SHOW: the jq test on the last
# run_checked report; on failure JQ-SHOW says what it found.
expect() {
	if [ "$(jq -r "$2" "$tmp/report.json")" = true ]; then
		echo "ok: $1"
	else
		fail "$1 (got: $(jq -c "$3" "$tmp/report.json"))"
	fi
}

# jq_dom NAME: the jq filter of the domain NAME in a report's first run,
# for the filters given to expect.
jq_dom() {
	echo "(.runs[0].domains[] | select(.name == \"$1\"))"
}

# write_scenario FILE SEED CORES THREADS LINE...: a scenario file of one
# socket of CORES cores of THREADS threads each, seeded SEED (empty: no
# seed), with each LINE (its domains) on a line of its own from line 3 on,
# for tests that expect an error at a file's line.
write_scenario() {
	file=$1 seed=$2 cores=$3 threads=$4
	shift 4
	{
		echo "<scenario${seed:+ seed=\"$seed\"}>"
		echo "  <host sockets=\"1\" cores-per-socket=\"$cores\" threads-per-core=\"$threads\"/>"
		printf '%s\n' "$@"
		echo "</scenario>"
	} > "$file"
}

# json_check FILE PYTHON: runs the Python assertions with doc = the parsed file.
json_check() {
	python3 -c "
import json, sys
doc = json.load(open(sys.argv[1]))
$2" "$1" || fail "JSON check on $1 failed"
}

# run_json SPEC FILE [ARGS...]: the scenario FILE under SPEC with the
# invariant checker, its JSON report into $tmp/out.json (what check_run
# reads); returns 1, counting a failure, on a non-zero exit.
run_json() {
	run_spec=$1 run_file=$2
	shift 2
	run_ok --sched="$run_spec" --scenario="$run_file" --check --format=json "$@" > "$tmp/out.json"
}

# check_run SPEC PYTHON: json_check on $tmp/out.json, whose first run must
# have no check_error; PYTHON sees run (that run), dom(name) (a domain's
# result in it) and spec (SPEC, for its messages).
check_run() {
	json_check "$tmp/out.json" "
run = doc['runs'][0]
assert not run.get('check_error'), run['check_error']
def dom(n):
    return [d for d in run['domains'] if d['name'] == n][0]
spec = '$1'
$2"
}

# one_gig_saturates WORKLOAD SCALE [UNIT]: WORKLOAD, a stream to a remote
# host over dom0's 1 GbE NIC with a direction={to-dom0,from-dom0} axis,
# under credit1 and credit2 on the default host and under null on a host
# where every vCPU has a pCPU (dom0 8 and the guest 8 of 16: null leaves a
# vCPU without one waiting); every run's figure must be the link's goodput,
# 1448 payload bytes per 1538 of wire, times SCALE (1 for Gbit/s, 1000 for
# Mbit/s) within 1 %, in the unit UNIT when given.
one_gig_saturates() {
	cat > "$tmp/eight.xml" <<END
<scenario>
  <host sockets="2" cores-per-socket="4" threads-per-core="2"/>
  <domain name="dom0" vcpus="8"/>
  <domain name="guest" vcpus="8"/>
</scenario>
END
	run_ok --sched=credit1,credit2 --workload="$1" --iterations=1 --format=json > "$tmp/1g.json"
	run_ok --sched=null --scenario="$tmp/eight.xml" --workload="$1" --iterations=1 --format=json \
		> "$tmp/1g-null.json"
	for f in "$tmp/1g.json" "$tmp/1g-null.json"; do
		json_check "$f" '
goodput = '"$2"' * 1448 / 1538
unit = "'"${3:-}"'"
runs = doc["runs"]
assert len(runs) in (2, 4), len(runs)
for r in runs:
    v = r["metric"]["value"]
    print(r["label"], r["workload"], v)
    assert not unit or r["metric"]["unit"] == unit, r["metric"]
    assert abs(v / goodput - 1) < 0.01, (r["label"], r["workload"], v, goodput)'
	done
}

# The statistical calibration tests decide their verdict in the plain
# build.  The sanitizer build (--enable-sanitizers, make distcheck's;
# SCHEDSIM_SANITIZED holds its flags) runs the same model on the same seeds
# at three to four times the CPU, so there each of their commands runs once,
# at 2 iterations, for memory and undefined-behaviour errors only:
# calibration.sh runs the 2016 table's cells (credit2_bound.sh's and
# calibration_iperf_load.sh's among them) and ends with sanitizer_finish;
# validate.sh runs the published cells of each table's and column's first
# row and of kernbench -j8 (--rows=first,-j8: every table, workload,
# scenario file, column and kind of comparison; calibration_2019.sh's
# code, on those of its cells).
# The tests whose commands another runs there call sanitizer_covered_by.
sanitized() {
	[ -n "${SCHEDSIM_SANITIZED:-}" ]
}

# sanitizer_covered_by TEST: in the sanitizer build, skip, naming the test
# that runs this one's commands there; in the plain build, nothing.
sanitizer_covered_by() {
	sanitized || return 0
	echo "SKIP: in the sanitizer build $1 runs these commands for memory errors; the figures are checked in the plain build"
	exit 77
}

# sanitizer_finish: in the sanitizer build, after the commands ran: a
# failure is a hard error (exit 99: never taken for an expected failure),
# else the test is skipped, saying that its verdict is the plain build's.
sanitizer_finish() {
	if [ $failures -ne 0 ]; then
		echo "$failures check(s) failed in the sanitizer build"
		exit 99
	fi
	echo "SKIP: the sanitizer build ran the commands at 2 iterations for memory errors; the figures are checked in the plain build"
	exit 77
}

finish() {
	if [ $failures -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	exit 0
}
