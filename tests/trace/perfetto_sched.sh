#!/bin/sh
# The Perfetto writer shows the schedulers' own records: tickles as instant
# events on the tickled pCPU's track, Credit2's runqueue loads as counters
# and its burn and reset credits on the vCPUs' credit counters.  Each
# scheduler traces the same run twice, as xentrace and as Perfetto JSON,
# and tests/trace/perfetto_sched_check.py compares the two record by
# record.  A Perfetto file that lost one tickle must fail the checker.
set -u

srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
PYTHON=${PYTHON:-python3}
check=$srcdir/tests/trace/perfetto_sched_check.py
scenario=$srcdir/tests/trace/sched_events.xml
command -v "$PYTHON" >/dev/null 2>&1 || { echo "SKIP: $PYTHON not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
# A private copy: a rebuild during the test must not swap the binary.
cp "$SCHEDSIM" "$tmp/schedsim" || { echo "FAIL: no $SCHEDSIM"; exit 1; }
SCHEDSIM=$tmp/schedsim

for spec in credit1 credit2 credit1:era=2016 credit2:era=2016; do
	family=${spec%%:*}
	"$SCHEDSIM" --list-schedulers | grep -q "^$family " || continue
	name=$(echo "$spec" | tr ':=' '--')
	if ! "$SCHEDSIM" --sched="$spec" --scenario="$scenario" --trace="$tmp/$name.xt" \
	     >/dev/null || ! "$SCHEDSIM" --sched="$spec" --scenario="$scenario" \
	     --trace="$tmp/$name.json" >/dev/null; then
		echo "FAIL: schedsim --sched=$spec"; fails=$((fails + 1)); continue
	fi
	"$PYTHON" "$check" "$family" "$tmp/$name.json" "$tmp/$name.xt" || fails=$((fails + 1))
done

# The checker must notice a lost tickle.
if [ -f "$tmp/credit2.json" ]; then
	"$PYTHON" - "$tmp/credit2.json" "$tmp/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
ev.remove(next(e for e in ev if e.get("name") == "tickle"))
json.dump(d, open(sys.argv[2], "w"))
PY
	if "$PYTHON" "$check" credit2 "$tmp/bad.json" "$tmp/credit2.xt" >/dev/null; then
		echo "FAIL: the checker accepted a lost tickle"; fails=$((fails + 1))
	fi
fi

[ "$fails" = 0 ] && echo "PASS: Perfetto shows the scheduler records" || echo "$fails failure(s)"
[ "$fails" = 0 ]
