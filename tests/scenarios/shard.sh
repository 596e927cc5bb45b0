#!/bin/sh
# Sweeps beyond one machine (issue 11): slices cover the matrix exactly
# once for many (matrix, N) pairs; the parts merge into the very bytes the
# single process prints, in every format; merge refuses parts of another
# matrix, missing or doubled runs, with one line and exit 2; parameter axes
# expand as documented; the Slurm recipe is valid bash, asks for the array
# the run list implies, and (run by a stand-in sbatch) gives the same tables.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"

sweep="$srcdir/tests/shard/sweep.xml"

# --- Slices cover every run exactly once ----------------------------------

# cover N ARGS...: the slices' lists, together, are the whole list.
cover() {
	n=$1
	shift
	"$SCHEDSIM" "$@" --list-runs > "$tmp/all" 2> "$tmp/stderr" ||
		{ fail "--list-runs $*: $(cat "$tmp/stderr")"; return; }
	total=$(wc -l < "$tmp/all")
	cut -f1 "$tmp/all" > "$tmp/idx"
	seq 0 $((total - 1)) | cmp -s - "$tmp/idx" || fail "--list-runs $*: indices are not 0..$((total - 1))"
	: > "$tmp/union"
	i=0
	while [ $i -lt "$n" ]; do
		"$SCHEDSIM" "$@" --list-runs --shard=$i/"$n" >> "$tmp/union" ||
			fail "--shard=$i/$n $*"
		i=$((i + 1))
	done
	sort -n "$tmp/union" | cmp -s - "$tmp/all" || fail "the $n slices of $* are not the matrix"
}

# one slice, a few, a prime, as many slices as the first matrix has runs
# (24), more than some matrices have; in the sanitizer build (lib.sh,
# sanitized), where each of these 370 processes starts the sanitizers'
# runtime, one slice and three (30 processes): three slices of the
# one-run matrix are two empty ones, the path of more slices than runs;
# the same code, which the plain build checks on every count
counts="1 2 3 7 24 31"
sanitized && counts="1 3"
for n in $counts; do
	cover $n --sched=credit1,credit2 --workload=make-xen,iperf --dom0-load=off,on --iterations=3
	cover $n --sched='credit2:ratelimit_us={0,500,1000}:runqueue={core,socket}' --workload=iperf --iterations=5
	cover $n --scenario="$sweep" --sched=null --iterations=7
	cover $n --sched=credit1 --workload=make-xen --dom0-load=on --iterations=1
	cover $n --iterations=13
done
[ "$(run_ok --iterations=13 --list-runs | wc -l)" -eq 104 ] || fail "the default matrix of 13 iterations is not 104 runs"

# A run keeps its configuration and seed whatever the slicing: run 5 of the
# default matrix is credit1 make-xen dom0 on, iteration 2, the seed of iteration 2.
line5=$(run_ok --iterations=3 --list-runs | sed -n 6p)
seed2=$(run_ok --iterations=3 --list-runs | awk -F'\t' '$5 == 2 { print $6; exit }')
[ "$line5" = "$(printf '5\tcredit1\tmake-xen\ton\t2\t%s\t-' "$seed2")" ] || fail "run 5 is '$line5'"
for n in 2 3 5; do
	run_ok --iterations=3 --list-runs --shard=0/$n > /dev/null
	got=$(i=0; while [ $i -lt $n ]; do "$SCHEDSIM" --iterations=3 --list-runs --shard=$i/$n; i=$((i + 1)); done | grep "^5	")
	[ "$got" = "$line5" ] || fail "run 5 in $n slices is '$got'"
done
[ "$(run_ok --iterations=3 --list-runs --run=5)" = "$line5" ] || fail "--list-runs --run=5"

# --- Merged parts print the single process's bytes ------------------------

m="--scenario=$sweep --sched=credit1,credit2 --workload=make-xen,iperf --dom0-load=off,on --iterations=3"
for f in text markdown csv json; do
	run_ok $m --jobs=2 --format=$f > "$tmp/single.$f"
done
i=0
while [ $i -lt 4 ]; do
	run_ok $m --jobs=1 --shard=$i/4 --output="$tmp/p$i.json"
	i=$((i + 1))
done
# The same slice twice is the same bytes (no heap address in the results).
run_ok $m --jobs=2 --shard=2/4 --output="$tmp/again.json"
cmp -s "$tmp/again.json" "$tmp/p2.json" || fail "slice 2/4 run twice gave different bytes"
for f in text markdown csv json; do
	run_ok merge --format=$f "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/p3.json > "$tmp/merged.$f"
	cmp -s "$tmp/merged.$f" "$tmp/single.$f" || fail "merge --format=$f differs from one process"
	run_ok merge --format=$f "$tmp"/p3.json "$tmp"/p1.json "$tmp"/p0.json "$tmp"/p2.json > "$tmp/merged.$f"
	cmp -s "$tmp/merged.$f" "$tmp/single.$f" || fail "merge --format=$f of reordered parts differs"
done
run_ok merge --output="$tmp/out.txt" "$tmp"/p?.json > "$tmp/stdout"
cmp -s "$tmp/out.txt" "$tmp/single.text" || fail "merge --output differs"
[ -s "$tmp/stdout" ] && fail "merge --output also printed on stdout"

# Each part is the usual JSON of its own runs, with the seeds of one process.
json_check "$tmp/p2.json" "
single = json.load(open('$tmp/single.json'))
idx = doc['shard']['runs']
assert len(idx) == len(doc['runs']) == len(doc['shard']['results']) > 0
assert idx == sorted(idx)
for k, r in zip(idx, doc['runs']):
    assert r == single['runs'][k], k
assert doc['matrix']['runs'] == 24 and doc['matrix']['iterations'] == 3
assert doc['matrix']['schedulers'] == ['credit1', 'credit2']
assert doc['matrix']['seed'] == '18446744073709551615'
assert 'summary' in doc"
# Slices are balanced by cost (shard.c's table: iperf without dom0 load 2300,
# make-xen with 450, iperf with 170, make-xen without 40), longest first to
# the lightest slice: the six iperf-off runs go to slices 0 1 2 3 0 1, then
# slices 2 and 3 take turns with all the rest (9 runs each).
json_check "$tmp/p0.json" "
parts = [json.load(open('$tmp/p%d.json' % i)) for i in range(4)]
heavy = [sum(1 for r in p['runs'] if r['workload'] == 'iperf' and r['dom0_load'] == 'off') for p in parts]
assert heavy == [2, 2, 1, 1], heavy
assert [len(p['runs']) for p in parts] == [2, 2, 10, 10]"

# Plots from the parts: the same data, scripts and pictures as one process draws.
if command -v gnuplot > /dev/null; then
	run_ok $m --plot="$tmp/plot1" --plot-window=10ms:40ms > "$tmp/plot1.text"
	run_ok merge --plot="$tmp/plot2" --plot-window=10ms:40ms "$tmp"/p?.json > "$tmp/plot2.text"
	cmp -s "$tmp/plot1.text" "$tmp/plot2.text" || fail "merge --plot: the tables differ"
	[ "$(ls "$tmp/plot1" | wc -l)" -gt 10 ] || fail "--plot drew $(ls "$tmp/plot1" | wc -l) files"
	diff -r "$tmp/plot1" "$tmp/plot2" > /dev/null || fail "merge --plot: the plots differ"
	expect_error "--plot-timeline: run 99 does not exist" merge --plot="$tmp/plot3" \
		--plot-timeline=99 "$tmp"/p?.json
	cp "$sweep" "$tmp/moved.xml"
	run_ok --scenario="$tmp/moved.xml" --workload=iperf --iterations=2 --shard=0/1 --output="$tmp/moved.json"
	echo '<!-- edited -->' >> "$tmp/moved.xml"
	expect_error "is not the scenario the parts ran" merge --plot="$tmp/plot4" "$tmp/moved.json"
	rm "$tmp/moved.xml"
	expect_error "which is not here to re-run" merge --plot="$tmp/plot4" "$tmp/moved.json"
	run_ok merge "$tmp/moved.json" > /dev/null     # the tables need no scenario
else
	echo "no gnuplot: merge --plot is not checked"
fi

# One task per run (--run=K) merges the same way.
k=0
while [ $k -lt 24 ]; do
	run_ok $m --run=$k --output="$tmp/r$k.json"
	k=$((k + 1))
done
run_ok merge --format=json "$tmp"/r*.json > "$tmp/merged.json"
cmp -s "$tmp/merged.json" "$tmp/single.json" || fail "merge of --run parts differs from one process"

# --alpha: given to merge, or carried by the parts.
run_ok $m --alpha=0.2 > "$tmp/single-a.text"
run_ok merge --alpha=0.2 "$tmp"/p?.json > "$tmp/merged-a.text"
cmp -s "$tmp/merged-a.text" "$tmp/single-a.text" || fail "merge --alpha=0.2 differs"
cmp -s "$tmp/merged-a.text" "$tmp/single.text" && fail "--alpha=0.2 changed nothing: the test is blind"
run_ok $m --alpha=0.2 --shard=0/2 --output="$tmp/a0.json"
run_ok $m --alpha=0.2 --shard=1/2 --output="$tmp/a1.json"
run_ok merge "$tmp"/a0.json "$tmp"/a1.json > "$tmp/merged-a.text"
cmp -s "$tmp/merged-a.text" "$tmp/single-a.text" || fail "merge of parts run with --alpha=0.2 differs"

# Parameter axes run labelled, through the parts too.
ax="--scenario=$sweep --sched=credit2:ratelimit_us={0,1000}:runqueue={core,socket} --workload=make-xen --iterations=2"
run_ok $ax --format=csv > "$tmp/axes.csv"
cut -d, -f1 "$tmp/axes.csv" > "$tmp/labels"
printf '%s\n' label credit2:ratelimit_us=0:runqueue=core credit2:ratelimit_us=0:runqueue=socket \
	credit2:ratelimit_us=1000:runqueue=core credit2:ratelimit_us=1000:runqueue=socket |
	cmp -s - "$tmp/labels" || fail "axes labels: $(cat "$tmp/labels")"
run_ok $ax --shard=0/3 --output="$tmp/x0.json"
run_ok $ax --shard=1/3 --output="$tmp/x1.json"
run_ok $ax --shard=2/3 --output="$tmp/x2.json"
run_ok merge --format=csv "$tmp"/x?.json | cmp -s - "$tmp/axes.csv" || fail "merged axes differ"

# --- Parameter axes --------------------------------------------------------

run_ok --sched='credit2:ratelimit_us={0,500,1000}:runqueue={core,socket}' --workload=iperf \
	--iterations=1 --list-runs | cut -f2 > "$tmp/labels"
cat > "$tmp/want" <<'EOF'
credit2:ratelimit_us=0:runqueue=core
credit2:ratelimit_us=0:runqueue=socket
credit2:ratelimit_us=500:runqueue=core
credit2:ratelimit_us=500:runqueue=socket
credit2:ratelimit_us=1000:runqueue=core
credit2:ratelimit_us=1000:runqueue=socket
EOF
cmp -s "$tmp/want" "$tmp/labels" || fail "axes expand to: $(cat "$tmp/labels")"
[ "$(run_ok --sched='credit{1,2},null' --list-runs --iterations=1 | cut -f2 | sort -u | tr '\n' ' ')" = "credit1 credit2 null " ] ||
	fail "credit{1,2},null does not expand to three configurations"
expect_error "'{' without '}'" --sched='credit2:ratelimit_us={0,500'
expect_error "'}' without '{'" --sched='credit2:ratelimit_us=0}'
expect_error "empty value in {0,,1}" --sched='credit2:ratelimit_us={0,,1}'
expect_error "groups do not nest" --sched='credit2:x={a,{b}}'
expect_error "more than 4096 configurations" \
	--sched='credit2:ratelimit_us={0,1,2,3,4,5,6,7,8}:migrate_resist_us={0,1,2,3,4,5,6,7,8}:load_window_shift={1,2,3,4,5,6,7,8,9}:tickle={0,1,2,3,4,5,6,7,8}'

# --- Bad options -----------------------------------------------------------

expect_error "--shard: I must be 0 to 3" --iterations=2 --shard=4/4
expect_error "--shard: 'a/b' is not I/N" --iterations=2 --shard=a/b
expect_error "--shard: N must be 1" --iterations=2 --shard=0/0
expect_error "--shard: '-1/2' is not I/N" --iterations=2 --shard=-1/2
expect_error "--run: '-1' is not a run number" --iterations=2 --run=-1
expect_error "--run: 16 is not a run of this matrix (0 to 15)" --iterations=2 --run=16
expect_error "--shard and --run: give one of them" --iterations=2 --shard=0/2 --run=1
expect_error "--shard writes a JSON part" --iterations=2 --shard=0/2 --format=csv
expect_error "--workload=bogus: unknown benchmark" --workload=bogus --list-runs

# --- merge refuses what is not one matrix ----------------------------------

expect_error "merge: 10 of 24 runs missing (the first is run " merge "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json
expect_error "is in both $tmp/p1.json and $tmp/p1.json" merge "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/p3.json
run_ok $m --shard=0/3 --output="$tmp/t0.json"
expect_error "is in both" merge "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/p3.json "$tmp"/t0.json
run_ok $m --seed=7 --shard=3/4 --output="$tmp/seed7.json"
expect_error "seed7.json: not the same matrix as $tmp/p0.json: seed is '18446744073709551615' there, '7' here" \
	merge "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/seed7.json
run_ok --scenario="$sweep" --sched=credit1,credit2 --workload=make-xen,iperf --dom0-load=off,on \
	--iterations=2 --shard=3/4 --output="$tmp/it2.json"
expect_error "not the same matrix as $tmp/p0.json: iterations is 3 there, 2 here" \
	merge "$tmp"/p0.json "$tmp"/it2.json
run_ok --scenario="$sweep" --sched=credit2,credit1 --workload=make-xen,iperf --dom0-load=off,on \
	--iterations=3 --shard=3/4 --output="$tmp/swap.json"
expect_error "schedulers is [credit1, credit2] there, [credit2, credit1] here" merge "$tmp"/p0.json "$tmp"/swap.json
run_ok $m --duration=2s --shard=3/4 --output="$tmp/dur.json"
expect_error "duration_ns is" merge "$tmp"/p0.json "$tmp"/dur.json
# The same file name with other contents is another scenario.
sed 's/time="100ms"/time="120ms"/' "$sweep" > "$tmp/s.xml"
cp "$sweep" "$tmp/s2.xml"
run_ok --scenario="$tmp/s2.xml" --iterations=2 --workload=iperf --shard=0/2 --output="$tmp/d0.json"
cp "$tmp/s.xml" "$tmp/s2.xml"
run_ok --scenario="$tmp/s2.xml" --iterations=2 --workload=iperf --shard=1/2 --output="$tmp/d1.json"
expect_error "scenario_digest is" merge "$tmp"/d0.json "$tmp"/d1.json
expect_error "single.json: not a part of a sweep" merge "$tmp"/single.json
expect_error "give the parts" merge
expect_error "merge: --format: 'xml' is not valid" merge --format=xml "$tmp"/p0.json
expect_error "/nonexistent.json" merge /nonexistent.json
run_ok $m --alpha=0.1 --shard=3/4 --output="$tmp/alpha.json"
expect_error "(give --alpha)" merge "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/alpha.json
run_ok merge --alpha=0.05 "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/alpha.json |
	cmp -s - "$tmp/single.text" || fail "merge --alpha=0.05 of parts with two alphas differs"
sed 's/"version": "[^"]*"/"version": "0.0.1"/' "$tmp/p3.json" > "$tmp/old.json"
expect_error "old.json: written by schedsim 0.0.1" merge "$tmp"/p0.json "$tmp"/old.json
json_edit() {   # json_edit IN OUT PYTHON: doc edited in place
	python3 -c "
import json, sys
doc = json.load(open(sys.argv[1]))
$3
json.dump(doc, open(sys.argv[2], 'w'), indent=1)" "$1" "$2" || fail "cannot edit $1"
}
json_edit "$tmp/p3.json" "$tmp/cut.json" "doc['shard']['results'][0] = doc['shard']['results'][0][:-3]"
expect_error "is not base64" merge "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/cut.json
json_edit "$tmp/p3.json" "$tmp/short.json" "doc['shard']['results'][0] = doc['shard']['results'][0][:-8]"
expect_error "is damaged" merge "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/short.json
json_edit "$tmp/p3.json" "$tmp/swapped.json" "
r = doc['shard']['results']
r[0], r[1] = r[1], r[0]"
expect_error "is another run's" merge "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/swapped.json
json_edit "$tmp/p3.json" "$tmp/far.json" "doc['shard']['runs'][0] = 24"
expect_error "not a run of this matrix (0 to 23)" merge "$tmp"/p0.json "$tmp"/far.json
json_edit "$tmp/p3.json" "$tmp/enc.json" "doc['matrix']['result_encoding'] = 0"
expect_error "enc.json: results in encoding 0, this schedsim reads 6" merge "$tmp"/enc.json
json_edit "$tmp/p3.json" "$tmp/flip.json" "
t = doc['shard']['results'][1]
k = len(t) // 2
doc['shard']['results'][1] = t[:k] + ('A' if t[k] != 'A' else 'B') + t[k + 1:]"
expect_error "is damaged (checksum does not match" merge "$tmp"/p0.json "$tmp"/p1.json "$tmp"/p2.json "$tmp"/flip.json
# The results are the documented encoding (sim/experiment/experiment.c), checked here
# by another implementation: magic, version 5, the labels as texts of
# little-endian lengths, the FNV-1a 64 of the rest as the trailer.
python3 -c "
import base64, json, struct, sys
doc = json.load(open(sys.argv[1]))
for k, t in zip(doc['shard']['runs'], doc['shard']['results']):
    b = base64.b64decode(t)
    assert b[:8] == b'SSRR\\x06\\0\\0\\0', b[:8]
    h = 0xcbf29ce484222325
    for c in b[:-8]:
        h = ((h ^ c) * 0x100000001b3) % 2 ** 64
    assert struct.unpack('<Q', b[-8:])[0] == h, 'checksum'
    run = doc['runs'][doc['shard']['runs'].index(k)]
    n = struct.unpack('<I', b[8:12])[0]
    assert b[12:12 + n].decode() == run['scheduler'], (b[12:12 + n], run['scheduler'])
" "$tmp/p3.json" || fail "the results of a part are not the documented encoding"

# --- The Slurm recipe --------------------------------------------------------

slurm="$srcdir/contrib/schedsim-slurm.sh"
task="$srcdir/contrib/schedsim-slurm-task.sh"
if ! command -v bash > /dev/null; then
	echo "no bash: the Slurm recipe is not checked"
else
	bash -n "$slurm" || fail "$slurm: bash -n"
	bash -n "$task" || fail "$task: bash -n"
	# A stand-in sbatch: records its options, runs the job script here
	# (each array task in turn, with SLURM_ARRAY_TASK_ID), prints a job id.
	mkdir -p "$tmp/bin"
	cat > "$tmp/bin/sbatch" <<'EOF'
#!/bin/sh
echo "$*" >> "$SBATCH_LOG"
array=
while [ $# -gt 0 ]; do
	case $1 in
	--array=*) array=${1#--array=} ;;
	--*) ;;
	*) break ;;
	esac
	shift
done
script=$1
shift
if [ -n "$array" ]; then
	i=${array%-*}
	while [ "$i" -le "${array#*-}" ]; do
		SLURM_ARRAY_TASK_ID=$i bash "$script" "$@" >&2 || exit 1
		i=$((i + 1))
	done
else
	bash "$script" "$@" >&2 || exit 1
fi
echo 4242
EOF
	chmod +x "$tmp/bin/sbatch"
	runs=$(run_ok $m --list-runs | wc -l)
	SBATCH_LOG="$tmp/sbatch.log" PATH="$tmp/bin:$PATH" bash "$slurm" -d "$tmp/slurm" -f csv -- $m \
		> "$tmp/submit.out" 2> "$tmp/stderr" || fail "schedsim-slurm.sh: $(cat "$tmp/stderr")"
	grep -q -- "--array=0-$((runs - 1)) " "$tmp/sbatch.log" ||
		fail "the array is not 0-$((runs - 1)): $(cat "$tmp/sbatch.log")"
	grep -q -- "--dependency=afterok:4242 " "$tmp/sbatch.log" || fail "no merge job after the array"
	cmp -s "$tmp/slurm/result.csv" "$tmp/single.csv" || fail "the Slurm recipe's tables differ"
	rm -f "$tmp/sbatch.log"
	SBATCH_LOG="$tmp/sbatch.log" PATH="$tmp/bin:$PATH" bash "$slurm" -n 5 -d "$tmp/slurm5" -- $m \
		> "$tmp/submit.out" 2> "$tmp/stderr" || fail "schedsim-slurm.sh -n 5: $(cat "$tmp/stderr")"
	grep -q -- "--array=0-4 " "$tmp/sbatch.log" || fail "-n 5: the array is not 0-4: $(cat "$tmp/sbatch.log")"
	cmp -s "$tmp/slurm5/result.text" "$tmp/single.text" || fail "the Slurm recipe's text tables differ"
fi

finish
