#!/bin/sh
# The real-client test: Xen's own xenalyze reads schedsim's xentrace files.
#
# Xen's source comes from Debian (tests/xen-source.sh, cached outside the
# repository); xenalyze is built from it with plain cc, outside Xen's
# build system: the two headers it needs are copied into a private
# include folder (xen/include/public itself must not be on the include
# path: its headers shadow glibc's).  Then, for each scheduler, a traced
# run of tests/trace/trace.xml and of the iperf benchmark with dom0 load
# is read with `xenalyze --summary --cpu-hz=1G`, and
# tests/trace/xenalyze_check.py asserts that xenalyze printed no warning
# and that every vCPU's running, runnable and blocked times agree with
# schedsim's JSON report within 0.1 %.  A windowed trace must read without
# warnings and span exactly its window.  Without the source (offline, not
# Debian) the test is skipped (exit 77) with the reason.
set -u

srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
PYTHON=${PYTHON:-python3}
CC=${CC:-cc}
check=$srcdir/tests/trace/xenalyze_check.py
command -v "$PYTHON" >/dev/null 2>&1 || { echo "SKIP: $PYTHON not found"; exit 77; }

if [ -n "${XENALYZE:-}" ]; then
	xenalyze=$XENALYZE
else
	tree=$(sh "$srcdir/tests/xen-source.sh")
	rc=$?
	if [ "$rc" = 77 ]; then
		echo "SKIP: no Xen source for xenalyze (see the reason above)"
		exit 77
	fi
	[ "$rc" = 0 ] || { echo "FAIL: tests/xen-source.sh failed ($rc)"; exit 1; }
	build=$(dirname "$tree")/xenalyze-$(basename "$tree")
	xenalyze=$build/xenalyze
	src=$tree/tools/xentrace
	if [ ! -x "$xenalyze" ] || [ "$src/xenalyze.c" -nt "$xenalyze" ]; then
		mkdir -p "$build/include/xen" "$build/include/xen-tools" || exit 1
		cp "$tree/xen/include/public/trace.h" "$build/include/xen/trace.h" &&
		cp "$tree/tools/include/xen-tools/libs.h" "$build/include/xen-tools/libs.h" || {
			echo "FAIL: the Xen tree lacks trace.h or xen-tools/libs.h"; exit 1; }
		if ! "$CC" -O2 -w -I"$build/include" -o "$xenalyze.tmp" \
		     "$src/xenalyze.c" "$src/mread.c" 2>"$build/cc.log"; then
			echo "FAIL: building xenalyze:"; head -20 "$build/cc.log"; exit 1
		fi
		mv "$xenalyze.tmp" "$xenalyze"
	fi
fi
echo "xenalyze: $xenalyze"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# run NAME SCHEDSIM-ARGS... : traced run, xenalyze, comparison.
run() {
	name=$1; shift
	if ! "$SCHEDSIM" "$@" --check --format=json --output="$tmp/$name.json" \
	     --trace="$tmp/$name.xt"; then
		echo "FAIL: $name: schedsim $*"; fails=$((fails + 1)); return
	fi
	if ! "$xenalyze" --summary --cpu-hz=1G "$tmp/$name.xt" >"$tmp/$name.out" \
	     2>"$tmp/$name.err"; then
		echo "FAIL: $name: xenalyze exited non-zero:"; tail -5 "$tmp/$name.err"
		fails=$((fails + 1)); return
	fi
	"$PYTHON" "$check" "$tmp/$name.xt" "$tmp/$name.json" "$tmp/$name.out" \
		"$tmp/$name.err" || fails=$((fails + 1))
}

for sched in credit2 credit1 null; do
	"$SCHEDSIM" --list-schedulers | grep -q "^$sched " || continue
	run "$sched" --sched="$sched" --scenario="$srcdir/tests/trace/trace.xml"
	run "$sched-iperf" --sched="$sched" --workload=iperf --dom0-load=on --duration=2s
done

# A window: no warning, and xenalyze's total time is the window.
"$SCHEDSIM" --sched=credit2 --scenario="$srcdir/tests/trace/trace.xml" \
	--trace="$tmp/win.xt" --trace-window=0.5s:1.5s >/dev/null &&
"$xenalyze" --summary --cpu-hz=1G "$tmp/win.xt" >"$tmp/win.out" 2>"$tmp/win.err"
if ! grep -q '^Total time: 1.00 seconds' "$tmp/win.out"; then
	echo "FAIL: window 0.5s:1.5s: $(grep '^Total time' "$tmp/win.out")"; fails=$((fails + 1))
fi
if grep -v -E '^(Using (VMX|SVM)|Creating (vcpu|domain)|[a-z_]+: Activating pcpu|init_pcpus:|read_record: read returned zero|deactivate_pcpu:)' \
	"$tmp/win.err" | grep -q .; then
	echo "FAIL: window: xenalyze warned:"; head -5 "$tmp/win.err"; fails=$((fails + 1))
fi

# Every scheduler trace helper, written by tests/check_trace, decoded by
# xenalyze with the values it was given (Xen's payload layouts).
CHECK_TRACE=${CHECK_TRACE:-$(dirname "$SCHEDSIM")/tests/check_trace}
if [ -x "$CHECK_TRACE" ]; then
	TRACE_HELPERS_OUT=$tmp/helpers.xt CK_RUN_CASE=trace "$CHECK_TRACE" >/dev/null
	"$xenalyze" --dump-all --cpu-hz=1G "$tmp/helpers.xt" >"$tmp/helpers.out" 2>&1
	while IFS= read -r want; do
		grep -qF -- "$want" "$tmp/helpers.out" || {
			echo "FAIL: xenalyze --dump-all lacks: $want"; fails=$((fails + 1)); }
	done <<'LINES'
vcpu_wake d1v0
csched:runq_tickle, cpu 1
csched:pick_cpu 1 for d1v0
csched:acct_start d1v0, active_vcpus 2
csched: d1v0 boosted
csched:stolen_vcpu d1v0 from cpu 1
csched:load_balance checking 1
csched:schedule cpu 0, idle
csched:ratelimit, d1v0 run only 250.0us
csched2:runq_insert d1v0, position 2
csched2:burn_credits d1v0, credit = -5, delta = 1000
csched2:tickle_check d1v0, credit = 42, score = 17
csched2:runq_tickle_new d1v0, processor = 0, credit = 42
csched2:runq_tickle cpu 1
csched2:reset_credits d1v0, credit_start = 5, credit_end = 10000000
csched2:runq_assign d1v0 on rq# 1
csched2:update_max_weight rq# 1, max_weight = 256
csched2:update_rq_load rq# 1, load = 3, avgload = 1638400.001% (4294967298), b_avgload = 0.002% (5)
csched2:update_vcpu_load d1v0, vcpu_load = 100.000% (262144)
csched2:picked_cpu d1v0, rq# 1, cpu 1
csched2:migrate d1v0 rq# 1 --> rq# 4
csched2:load_balance_check lrq# 0, orq# 1, delta = 77
csched2:load_balance_begin lrq# 0, avg_load = 10 -- orq# 1, avg_load = 20
csched2:ratelimit, d1v0 run only 300.0us
csched2:runq_cand_check d1v0
csched2:runq_candidate d1v0, credit = 7, cpu 1 was tickled
csched2:schedule cpu 0, rq# 1, idle, SMT idle, not tickled
LINES
else
	echo "FAIL: $CHECK_TRACE not built"; fails=$((fails + 1))
fi

# The comparison must notice a report that is not the trace's run.
if [ -f "$tmp/credit2.xt" ] && [ -f "$tmp/credit1.json" ] &&
   "$PYTHON" "$check" "$tmp/credit2.xt" "$tmp/credit1.json" "$tmp/credit2.out" \
	"$tmp/credit2.err" >/dev/null; then
	echo "FAIL: the comparison accepted credit1's report for credit2's trace"
	fails=$((fails + 1))
fi

[ "$fails" = 0 ] && echo "PASS: xenalyze reads schedsim's traces" || echo "$fails failure(s)"
[ "$fails" = 0 ]
