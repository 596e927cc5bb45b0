#!/bin/sh
# --plot through the CLI (issue 7): every picture is drawn and is a valid
# image of the size its script asks for, the data files hold the numbers
# of the tables (plots_check.py compares them with the JSON of the same
# command), the scripts re-run on their own, svg and pdf work, and the
# error paths: bad options and a missing gnuplot give exit status 2 and
# one line, and without gnuplot everything but --plot still works.
set -u
srcdir=${srcdir:-.}
. "$srcdir/tests/scenarios/lib.sh"
check=$srcdir/tests/scenarios/plots_check.py

M="--sched=credit1,credit2 --workload=make-xen,iperf --dom0-load=off,on --iterations=2 --seed=3"

# 1. No gnuplot in PATH: --plot fails at once, naming the package; the
#    directory is not created; runs without --plot are not affected.
PATH=/nonexistent "$SCHEDSIM" $M --plot="$tmp/none" > "$tmp/stdout" 2> "$tmp/stderr"
rc=$?
[ $rc -eq 2 ] || fail "--plot without gnuplot exited $rc, not 2"
[ "$(wc -l < "$tmp/stderr")" -eq 1 ] || fail "--plot without gnuplot: not one line: $(cat "$tmp/stderr")"
grep -q "gnuplot-nox" "$tmp/stderr" || fail "--plot without gnuplot: no package named: $(cat "$tmp/stderr")"
[ -s "$tmp/stdout" ] && fail "--plot without gnuplot printed on stdout"
[ -e "$tmp/none" ] && fail "--plot without gnuplot created its directory"
PATH=/nonexistent "$SCHEDSIM" --sched=credit2 --workload=iperf:warmup=100ms:time=100ms --format=json \
	> "$tmp/stdout" 2> "$tmp/stderr" || fail "without gnuplot, a run without --plot failed"

# 2. Bad options, checked before anything runs.
expect_error "--plot-format: 'gif' is not valid" $M --plot="$tmp/x" --plot-format=gif
expect_error "--plot-format needs --plot=DIR" $M --plot-format=svg
expect_error "--plot-window needs --plot=DIR" $M --plot-window=1s:2s
expect_error "--plot-window: '2s:1s'" $M --plot="$tmp/x" --plot-window=2s:1s
expect_error "--plot-credit: 'd1' is not a vCPU" $M --plot="$tmp/x" --plot-credit=d1
if command -v gnuplot > /dev/null; then
	expect_error "run 16 does not exist (the experiment has 16 runs" \
		$M --plot="$tmp/x" --plot-timeline=16
	expect_error "--plot-credit: d1v8 is not a vCPU of run 0" \
		$M --plot="$tmp/x" --plot-timeline=0 --plot-credit=d1v8
	expect_error "--plot-window: run 0 ended at" $M --format=json --output="$tmp/o.json" \
		--plot="$tmp/x" --plot-timeline=0 --plot-window=100s:101s
fi

if ! command -v gnuplot > /dev/null || ! command -v python3 > /dev/null; then
	echo "SKIP: the pictures need gnuplot and python3"
	[ $failures -eq 0 ] && exit 77
	finish
fi

# 3. The default pictures, checked against the JSON of the same command.
#    Default timelines: iteration 0 of the last cell (iperf, dom0 load on)
#    of each configuration, runs 6 and 14 of 16.
run_ok $M --format=json --output="$tmp/r.json" --plot="$tmp/png" > "$tmp/stdout"
[ -s "$tmp/stderr" ] && fail "--plot wrote on stderr: $(cat "$tmp/stderr")"
[ -s "$tmp/stdout" ] && fail "--plot --output printed on stdout"
python3 "$check" "$tmp/png" "$tmp/r.json" png 6 14 || fail "the png pictures (see above)"

# The same command without --plot gives the same result: drawing changes
# nothing.  In the plain build only: in the sanitizer build (lib.sh,
# sanitized) that command is the simulation the --plot command above just
# ran, without the drawing, 16 runs again for no code of its own.
if ! sanitized; then
	run_ok $M --format=json --output="$tmp/plain.json" > /dev/null
	cmp -s "$tmp/r.json" "$tmp/plain.json" || fail "--plot changed the JSON result"
fi

# The scripts re-run on their own in the directory, to the same picture.
for gp in comparison latency-iperf-on timeline-run6 credit-run14; do
	cp "$tmp/png/$gp.png" "$tmp/before.png"
	(cd "$tmp/png" && gnuplot "$gp.gp") 2> "$tmp/gperr" || fail "gnuplot $gp.gp: $(cat "$tmp/gperr")"
	[ -s "$tmp/gperr" ] && fail "gnuplot $gp.gp complained: $(cat "$tmp/gperr")"
	cmp -s "$tmp/png/$gp.png" "$tmp/before.png" || fail "re-running $gp.gp drew another picture"
done

# 4. A chosen run, window and vCPUs; svg.  Run 3 of the matrix above is
#    credit1, make-xen, dom0 load on, iteration 1.  In the sanitizer build
#    (lib.sh, sanitized) the same cell's two iterations alone, where it is
#    run 1: the 16 runs of the matrix ran there in section 3 already, and
#    the svg drawing of one cell is the code of every cell's.
S=$M sel=3
sanitized && S="--sched=credit1 --workload=make-xen --dom0-load=on --iterations=2 --seed=3" sel=1
run_ok $S --format=json --output="$tmp/s.json" --plot="$tmp/svg/sub" --plot-format=svg \
	--plot-timeline=$sel --plot-window=2s:2.05s --plot-credit=d1v0,d1v1,d0v0 > /dev/null
python3 "$check" "$tmp/svg/sub" "$tmp/s.json" svg $sel || fail "the svg pictures (see above)"
grep -q "^from_ms = 2000.000000$" "$tmp/svg/sub/timeline-run$sel.gp" || fail "--plot-window not applied"
grep -q "credit1, make-xen, with dom0 load, iteration 1 (run $sel" "$tmp/svg/sub/credit-run$sel.gp" ||
	fail "run $sel is not credit1, make-xen, dom0 load on, iteration 1"

# 5. pdf.
run_ok --sched=credit2 --workload=iperf --dom0-load=on --iterations=1 --format=json \
	--output="$tmp/p.json" --plot="$tmp/pdf" --plot-format=pdf > /dev/null
python3 "$check" "$tmp/pdf" "$tmp/p.json" pdf 0 || fail "the pdf pictures (see above)"

# 6. The null scheduler keeps no credit: a timeline, a note, no credit plot.
"$SCHEDSIM" --sched=null --workload=iperf --dom0-load=on --iterations=1 --plot="$tmp/null" \
	> /dev/null 2> "$tmp/stderr" || fail "--sched=null --plot exited $?: $(cat "$tmp/stderr")"
[ -s "$tmp/null/timeline-run0.png" ] || fail "--sched=null: no timeline"
[ -s "$tmp/null/latency-iperf-on.png" ] || fail "--sched=null: no latency picture (the guest never wakes)"
ls "$tmp/null" | grep -q "\.log$" && fail "--sched=null: gnuplot complained"
[ -e "$tmp/null/credit-run0.png" ] && fail "--sched=null: a credit plot of nothing"
grep -q "null keeps no credit" "$tmp/stderr" || fail "--sched=null: no note: $(cat "$tmp/stderr")"

# 7. A window over the whole run: the timeline's intervals of each vCPU add
#    up to the run time the JSON result reports for it.
run_ok --sched=credit1 --workload=iperf --dom0-load=on --iterations=1 --format=json \
	--output="$tmp/w.json" --plot="$tmp/whole" --plot-window=0s:100s > /dev/null
python3 - "$tmp/w.json" "$tmp/whole/timeline-run0.dat" <<'EOF' || fail "whole-run timeline"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
got, n = {}, 0
for line in open(sys.argv[2]):
    if line.startswith("#") or not line.strip():
        continue
    cpu, a, b, _, domid, vcpu = line.split()
    got[(int(domid), int(vcpu))] = got.get((int(domid), int(vcpu)), 0) + float(b) - float(a)
    n += 1
bad = 0
for d in run["domains"]:
    for v in d["vcpus"]:
        want = v["run_ns"] / 1e6
        have = got.get((d["domid"], v["id"]), 0.0)
        if abs(have - want) > 1e-6 * n + 1e-9:
            print(f"FAIL: d{d['domid']}v{v['id']}: {have} ms in the timeline, run_ns says {want}")
            bad += 1
sys.exit(1 if bad or n < 100 else 0)
EOF

finish
