#!/bin/sh
# The experiment matrix and compare through the CLI (issue 6): the same
# bytes whatever --jobs is, paired seeds, the summary agreeing with the
# runs, atomic --output when interrupted, compare against golden output,
# and the error paths (exit status 2, one line naming the problem).
set -u

srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
case $SCHEDSIM in /*) ;; *) SCHEDSIM=$(pwd)/$SCHEDSIM ;; esac
golden=$srcdir/tests/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# A private copy: the comparisons below need one binary throughout, even if
# the build tree is relinked while the test runs.
cp "$SCHEDSIM" "$tmp/schedsim" && SCHEDSIM=$tmp/schedsim

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# A build of one 60-job stage and a 200 ms stream: the checks are about the
# matrix, not the benchmarks, and the full ones made this test one of the
# suite's slowest (6.4 s of CPU per matrix under the sanitizers, 0.9 s now).
M="--sched=credit1,credit2 --workload=make-xen:stages=60,iperf:time=200ms:warmup=50ms --dom0-load=off,on --iterations=3 --seed=7"

# 1. The output does not depend on the number of workers.
for fmt in json text; do
	for j in 1 2 3; do
		$SCHEDSIM $M --jobs=$j --format=$fmt >"$tmp/j$j.$fmt" 2>"$tmp/err" ||
			fail "--jobs=$j --format=$fmt exited $?: $(head -2 "$tmp/err")"
	done
	cmp -s "$tmp/j1.$fmt" "$tmp/j2.$fmt" || fail "--format=$fmt: --jobs=1 and --jobs=2 differ"
	cmp -s "$tmp/j1.$fmt" "$tmp/j3.$fmt" || fail "--format=$fmt: --jobs=1 and --jobs=3 differ"
done

# 2. Paired design: iteration i has one seed in every cell, iterations differ;
#    the summary holds exactly the runs' metrics.
if command -v jq >/dev/null; then
	j=$tmp/j1.json
	[ "$(jq '.runs | length' "$j")" = 24 ] || fail "expected 24 runs"
	[ "$(jq '[.runs[] | select(.iteration == 0) | .seed] | unique | length' "$j")" = 1 ] ||
		fail "iteration 0 does not have one seed across the matrix"
	[ "$(jq '[.runs[].seed] | unique | length' "$j")" = 3 ] ||
		fail "three iterations should give three seeds"
	[ "$(jq '[.summary[] | .n] | unique' -c "$j")" = "[3]" ] || fail "summary n is not 3"
	runs=$(jq -c '[.runs[] | .metric.value]' "$j")
	summ=$(jq -c '[.summary[] | {k: "\(.workload) \(.dom0_load) \(.label)", v: .values}]
		| sort_by(.k) | map(.v) | flatten' "$j")
	sorted_runs=$(jq -c '[.runs[] | {k: "\(.workload) \(.dom0_load) \(.label)", v: .metric.value}]
		| sort_by(.k) | map(.v)' "$j")
	# the runs print 9 significant digits, the summary 17
	[ "$(jq -n --argjson a "$summ" --argjson b "$sorted_runs" \
		'($a | length) == ($b | length) and
		 ([$a, $b] | transpose | all(((.[0] - .[1]) | fabs) <= 1e-7 * (.[0] | fabs)))')" = true ] ||
		fail "summary values are not the runs' metrics: $summ vs $sorted_runs ($runs)"
	# every credit2 cell is compared with the credit1 cell of its row
	[ "$(jq '[.summary[] | select(.label == "credit2") | .p_value | type] | unique' -c "$j")" = '["number"]' ] ||
		fail "credit2 cells lack a p_value"
	[ "$(jq '[.summary[] | select(.label == "credit1") | .p_value] | unique' -c "$j")" = '[null]' ] ||
		fail "baseline cells have a p_value"
fi

# 3. --output writes the same bytes as stdout, through a rename.
$SCHEDSIM $M --jobs=2 --format=json --output="$tmp/out.json" || fail "--output exited $?"
cmp -s "$tmp/out.json" "$tmp/j1.json" || fail "--output differs from stdout"
ls "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

# 4. Interrupted: exit 130, the old file untouched, no temporary file.
echo old >"$tmp/keep.json"
$SCHEDSIM --sched=credit1,credit2 --workload=make-xen,iperf --dom0-load=off,on \
	--iterations=400 --jobs=2 --format=json --output="$tmp/keep.json" 2>"$tmp/int.err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "interrupted run exited $rc, expected 130"
[ "$(cat "$tmp/keep.json")" = old ] || fail "an interrupted run replaced the output file"
ls "$tmp" | grep -q '\.tmp\.' && fail "an interrupted run left a temporary file"
grep -q 'interrupted after' "$tmp/int.err" || fail "no 'interrupted' message: $(cat "$tmp/int.err")"

# 5. compare: golden output, and a file of single runs (no summary) reads too.
(cd "$golden" && $SCHEDSIM compare old.json new.json) >"$tmp/cmp.txt" 2>&1 ||
	fail "compare exited non-zero"
cmp -s "$tmp/cmp.txt" "$golden/compare.txt" ||
	{ fail "compare output differs from golden:"; diff "$golden/compare.txt" "$tmp/cmp.txt"; }
$SCHEDSIM --sched=credit1,credit2 --workload=iperf:time=200ms:warmup=50ms --format=json >"$tmp/single.json" ||
	fail "single run failed"
$SCHEDSIM compare "$tmp/single.json" "$tmp/j1.json" >"$tmp/cmp2.txt" 2>&1 ||
	fail "compare of single-run output exited non-zero: $(head -2 "$tmp/cmp2.txt")"
grep -q '^credit2 iperf:time=200ms:warmup=50ms dom0=on' "$tmp/cmp2.txt" || fail "compare lost a row: $(cat "$tmp/cmp2.txt")"

# 6. No choice at all: the default evaluation (credit1,credit2 x make-xen,iperf x off,on).
$SCHEDSIM --iterations=1 --jobs=2 >"$tmp/default.txt" 2>&1 || fail "the default evaluation exited $?"
for want in '|  CREDIT1' '|  CREDIT2' '| with dom0 load |' 'make-xen dom0=on (s)' \
	'iperf dom0=off (Gbit/s)' '^geomean'; do
	grep -q -- "$want" "$tmp/default.txt" || fail "default evaluation lacks '$want'"
done

# 7. Bad input: exit 2 and one line naming the problem.
expect_bad() {    # PATTERN ARGS...
	pat=$1
	shift
	$SCHEDSIM "$@" >/dev/null 2>"$tmp/bad"
	rc=$?
	[ $rc = 2 ] || fail "$*: exit $rc, expected 2"
	[ "$(wc -l <"$tmp/bad")" = 1 ] || fail "$*: expected one line, got: $(cat "$tmp/bad")"
	grep -q -- "$pat" "$tmp/bad" || fail "$*: message lacks '$pat': $(cat "$tmp/bad")"
}
expect_bad "--iterations" --iterations=0
expect_bad "--jobs" --iterations=2 --jobs=x
expect_bad "nosuch" --workload=nosuch,iperf
expect_bad "maybe" --dom0-load=off,maybe
expect_bad "listed twice" --workload=iperf,iperf
expect_bad "--alpha" --iterations=2 --alpha=1.5
expect_bad "--format" --format=xml
expect_bad "two result files" compare "$golden/old.json"
printf '{"summary": [\n  {"label": "x",\n' >"$tmp/trunc.json"
expect_bad "trunc.json:3:" compare "$tmp/trunc.json" "$golden/new.json"
expect_bad "/dev/null:1: unexpected end of input" compare /dev/null "$golden/new.json"
echo '{"a": 1}' >"$tmp/other.json"
expect_bad "not a schedsim result" compare "$tmp/other.json" "$golden/new.json"

[ $fails = 0 ] && echo "experiment.sh: all checks passed"
[ $fails = 0 ]
