#!/bin/sh
# Several Xen trees in one build (configure --with-xen-source=A,B or
# --with-xen-trees): SKIP (77) unless at least two are built.
#  - Each tree's schedulers are named after it; the plain name (xen-credit2)
#    names no tree any more and is refused with the trees it could mean.
#  - Two trees of different eras in one experiment: the table of issue 16
#    (credit1 and credit2 of the 2017 series) when those trees are built,
#    every configuration's runs the same as when it runs alone, so that
#    the trees' code (each with its own copy of Xen's globals) does not
#    leak from one into the other.
#  - Two trees of different interfaces in one process, taking turns every
#    137 us of simulated time, decide as when each runs alone.
. "${srcdir:-.}/tests/xen-diff/common.sh"

"$SCHEDSIM" --list-schedulers | sed -n 's/^xen-credit2@\([^ ]*\) .*/\1/p' > "$tmp/trees"
if [ "$(wc -l < "$tmp/trees")" -lt 2 ]; then
	echo "SKIP: fewer than two Xen trees built (configure --with-xen-trees, or --with-xen-source=A,B)"
	exit 77
fi
has() { grep -qx "$1" "$tmp/trees"; }

# The plain name is ambiguous now.
"$SCHEDSIM" --sched=xen-credit2 --scenario="$srcdir/tests/xen-diff/scenarios/cap.xml" \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 2 ] || fail "plain xen-credit2 with several trees: exit $rc, not 2"
[ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "unknown scheduler 'xen-credit2' (name its Xen tree: xen-credit2@" "$tmp/err" ||
	fail "plain xen-credit2: $(cat "$tmp/err")"

# Two eras in one experiment.  In the sanitizer build (common.sh,
# sanitized) each experiment runs one iteration a cell: the others are
# the same code on the next seeds (Xen's code there costs about three
# times the plain build's CPU), and the tree isolation below is a
# comparison run for run, which one iteration a cell makes as well.
# There the table is of make-xen alone: its iperf cells at one iteration
# are the JSON experiment's below, run for run (a cell's iteration i has
# the seed of its scenario and i, evaluation.h), and each scheduler's box
# is still printed.
it_table=3 it_json=2 table_workloads=make-xen,iperf
sanitized && it_table=1 it_json=1 table_workloads=make-xen
if has 2017-08-credit2-full && has 2017-08-credit2-p20; then
	specs=xen-credit@2017-08-credit2-full,xen-credit2@2017-08-credit2-p20,xen-credit2@2017-08-credit2-full
	"$SCHEDSIM" --sched=$specs --workload=$table_workloads --dom0-load=off,on --iterations=$it_table \
		--jobs=2 > "$tmp/table" 2> "$tmp/err" || fail "the experiment failed: $(cat "$tmp/err")"
	for s in XEN-CREDIT@2017-08-CREDIT2-FULL XEN-CREDIT2@2017-08-CREDIT2-P20 XEN-CREDIT2@2017-08-CREDIT2-FULL; do
		grep -q "|  *$s  *|" "$tmp/table" || fail "no box for $s: $(cat "$tmp/table")"
	done
	"$SCHEDSIM" --sched=$specs --workload=iperf --dom0-load=off,on --iterations=$it_json --format=json \
		> "$tmp/all.json" || fail "the JSON experiment failed"
	"$SCHEDSIM" --sched=xen-credit2@2017-08-credit2-p20 --workload=iperf --dom0-load=off,on \
		--iterations=$it_json --format=json > "$tmp/one.json" || fail "the one-scheduler experiment failed"
	python3 - "$tmp/all.json" "$tmp/one.json" <<'EOF' || fail "a tree's runs differ when other trees run in the same experiment"
import json, sys
def runs(path, sched):
    key = lambda r: (r["workload"], r["dom0_load"], r["iteration"])
    out = {}
    for r in json.load(open(path))["runs"]:
        if r["scheduler"] == sched:
            out[key(r)] = (r["events"], r["metric"]["value"],
                           [[v["run_ns"] for v in d["vcpus"]] for d in r["domains"]])
    return out
s = "xen-credit2@2017-08-credit2-p20"
a, b = runs(sys.argv[1], s), runs(sys.argv[2], s)
assert a and a == b, (len(a), len(b))
EOF
else
	echo "note: trees 2017-08-credit2-full and -p20 not both built: the two-era experiment is left out"
fi

# Two trees of different interfaces interleaved in one process.
first=$(head -n 1 "$tmp/trees")
last=$(tail -n 1 "$tmp/trees")
for f in "$srcdir"/tests/xen-diff/scenarios/over-phases-smt.xml "$srcdir"/tests/xen-diff/scenarios/soft-affinity.xml; do
	seq=$("$XEN_DIFF" --no-dump "$f" "xen-credit2@$first" "xen-credit2@$last" 2>&1)
	int=$("$XEN_DIFF" --no-dump --interleave=137us "$f" "xen-credit2@$first" "xen-credit2@$last" 2>&1)
	[ "$seq" = "$int" ] || fail "$(basename "$f"): xen-credit2@$first and @$last decide differently interleaved"
	seq=$("$XEN_DIFF" --no-dump "$f" "xen-credit@$first" "xen-credit@$last" 2>&1)
	int=$("$XEN_DIFF" --no-dump --interleave=137us "$f" "xen-credit@$first" "xen-credit@$last" 2>&1)
	[ "$seq" = "$int" ] || fail "$(basename "$f"): xen-credit@$first and @$last decide differently interleaved"
done
finish
