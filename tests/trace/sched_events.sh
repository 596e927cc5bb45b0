#!/bin/sh
# The Credit1 and Credit2 trace records, read by the real xenalyze.
#
# A scenario with two sockets (so two Credit2 runqueues that balance and
# migrate), a capped domain, weights, hogs and vCPUs that block and wake is
# traced under each scheduler, today's and 2016's, and decoded with
# `xenalyze --dump-all --cpu-hz=1G`.  tests/trace/sched_events_check.py
# asserts that xenalyze decoded every record (no warning, no raw record),
# that each kind of record the scheduler writes is there, and that the
# payloads agree with the scenario and with the trace itself (see the
# checker).  Damaged dumps must fail the checker.  Without Xen's source
# (offline, not Debian) the test is skipped (exit 77) with the reason.
set -u

srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
PYTHON=${PYTHON:-python3}
check=$srcdir/tests/trace/sched_events_check.py
scenario=$srcdir/tests/trace/sched_events.xml
command -v "$PYTHON" >/dev/null 2>&1 || { echo "SKIP: $PYTHON not found"; exit 77; }

xenalyze=$(sh "$srcdir/tests/trace/xenalyze-build.sh")
rc=$?
if [ "$rc" = 77 ]; then
	echo "SKIP: no Xen source for xenalyze (see the reason above)"
	exit 77
fi
[ "$rc" = 0 ] || { echo "FAIL: no xenalyze ($rc)"; exit 1; }
echo "xenalyze: $xenalyze"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# A private copy: a rebuild during the test must not swap the binary.
cp "$SCHEDSIM" "$tmp/schedsim" || { echo "FAIL: no $SCHEDSIM"; exit 1; }
SCHEDSIM=$tmp/schedsim

# run NAME FAMILY SPEC NR_RQS [CHECKER-OPTIONS]: trace, decode, check.
run() {
	name=$1 family=$2 spec=$3 nr_rqs=$4; shift 4
	if ! "$SCHEDSIM" --sched="$spec" --scenario="$scenario" --format=json \
	     --output="$tmp/$name.json" --trace="$tmp/$name.xt"; then
		echo "FAIL: $name: schedsim --sched=$spec"; fails=$((fails + 1)); return
	fi
	if ! "$xenalyze" --dump-all --cpu-hz=1G "$tmp/$name.xt" >"$tmp/$name.dump" 2>&1; then
		echo "FAIL: $name: xenalyze exited non-zero:"; tail -5 "$tmp/$name.dump"
		fails=$((fails + 1)); return
	fi
	"$PYTHON" "$check" "$family" 4 "$nr_rqs" "$tmp/$name.json" "$tmp/$name.dump" "$@" ||
		fails=$((fails + 1))
}

for sched in credit1 credit2; do
	"$SCHEDSIM" --list-schedulers | grep -q "^$sched " || continue
	# 4 pCPUs; Credit2's runqueues: one per socket today, per core in 2016.
	run "$sched" "$sched" "$sched" 2
	run "$sched-2016" "$sched" "$sched:era=2016" 4 --era2016
done

# The checker must notice damage: a raw (undecoded) record, a tickle of a
# pCPU that does not exist, burns whose delta is not the time they cover, a warning.
if [ -f "$tmp/credit2.dump" ]; then
	# bad NAME SED-SCRIPT: the damaged dump must fail.
	bad() {
		sed "$2" "$tmp/credit2.dump" >"$tmp/bad-$1.dump"
		if cmp -s "$tmp/credit2.dump" "$tmp/bad-$1.dump"; then
			echo "FAIL: damage '$1' changed nothing"; fails=$((fails + 1))
		elif "$PYTHON" "$check" credit2 4 2 "$tmp/credit2.json" "$tmp/bad-$1.dump" \
			>/dev/null; then
			echo "FAIL: the checker accepted damage '$1'"; fails=$((fails + 1))
		fi
	}
	bad raw '0,/csched2:update_load$/s/csched2:update_load$/]  22209(2:2:209) 0 [ ]/'
	bad tickle '0,/runq_tickle cpu [0-9]/s/runq_tickle cpu [0-9]/runq_tickle cpu 9/'
	bad burn 's/, delta = \([1-9][0-9]*\)$/, delta = 7\1/'
	bad warn '20a\
Strange, d1v0 unexpected runstate transition running->running'
fi

[ "$fails" = 0 ] && echo "PASS: xenalyze decodes the Credit1/Credit2 records" ||
	echo "$fails failure(s)"
[ "$fails" = 0 ]
