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

# The comparison must notice a report that is not the trace's run.
if [ -f "$tmp/credit2.xt" ] && [ -f "$tmp/credit1.json" ] &&
   "$PYTHON" "$check" "$tmp/credit2.xt" "$tmp/credit1.json" "$tmp/credit2.out" \
	"$tmp/credit2.err" >/dev/null; then
	echo "FAIL: the comparison accepted credit1's report for credit2's trace"
	fails=$((fails + 1))
fi

[ "$fails" = 0 ] && echo "PASS: xenalyze reads schedsim's traces" || echo "$fails failure(s)"
[ "$fails" = 0 ]
