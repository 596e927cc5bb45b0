#!/bin/sh
# The Xen trees of ../shared/xen-src-next (or $SCHEDSIM_XEN_TREES_NEXT), which
# --with-xen-trees and tests/run-all.sh do not build (that folder is kept
# apart from ../shared/xen-src; doc/xen-shim.md "Xen 4.13.0 and staging of
# July 2019" says why and what it costs): Xen 4.13.0 and staging 8706d38479
# of July 2019.  SKIP (77) when neither is there.
#  - xen-shim/add-tree.sh, which configure runs for every tree, accepts
#    each (its compile of the shim against the tree passes) with the
#    interface and the differences the shim must know: 4.13.0 is the
#    sched_unit interface with its header still xen/include/xen/sched-if.h
#    and its files xen/common/sched_*.c (the header linked where both the
#    scheduler files and glue.c look for it), a new domain's vCPU 0 on the
#    pool's first pCPU (schedule.c's sched_select_initial_cpu);
#    2019-07-staging is the vcpu interface with switch_sched handing back
#    the lock, adjust_affinity, no init_domain, vCPU 0 on a random pCPU;
#  - the folder above the trees is refused as configure refuses it: one
#    line naming the missing xen/Makefile;
#  - when this build has 4.13.0's schedulers (configure
#    --with-xen-source=.../4.13.0): the 2019 preset's Credit2 (eval_presets.c
#    CREDIT2_2019) runs a cell of the preset's HVMx2-v8 host as Xen 4.13.0's
#    credit2.c does, run for run, at sched-gran=cpu and core.
#    The random pairs of 4.13.0 (tests/xen-diff/pairs) run in random.sh.
#  - when this build has 2019-07-staging's schedulers: its credit.c is
#    credit1:era=2017 but for 5c8c0ae7c4 (an unparked capped vCPU is not
#    BOOSTed; doc/eras.md "Staging of July 2019 and Xen 4.13.0"): on the scenario
#    regressions/credit1-unpark-2019-07-staging.xml the model with
#    unpark_boost=off decides as staging, and era=2017 itself (unpark_boost
#    on) diverges where that commit says, at the accounting of t=210 ms: it
#    switches the unparked vCPU in, staging the queued hog.  Its random
#    pairs (tests/xen-diff/pairs) run in random.sh.
. "${srcdir:-.}/tests/xen-diff/common.sh"
next=${SCHEDSIM_XEN_TREES_NEXT:-$srcdir/../shared/xen-src-next}
if [ ! -f "$next/4.13.0/xen/Makefile" ] && [ ! -f "$next/2019-07-staging/xen/Makefile" ]; then
	echo "SKIP: no Xen 4.13.0 nor 2019-07-staging tree in $next (set SCHEDSIM_XEN_TREES_NEXT)"
	exit 77
fi
next=$(cd "$next" && pwd)
srcdir=$(cd "$srcdir" && pwd)
mkdir "$tmp/build"
add() {
	(cd "$tmp/build" && CC=${CC:-cc} sh "$srcdir/xen-shim/add-tree.sh" "$srcdir" "$@")
}
# has_flag N FLAG: tree N's compile flags hold FLAG.
has_flag() {
	grep "^XS_CPPFLAGS_$1 = " "$tmp/build/xen-shim/tree$1.mk" | grep -q -- " $2 "
}

if [ -f "$next/4.13.0/xen/Makefile" ]; then
	t=$next/4.13.0
	out=$(add 0 4.13.0 "$t" 2>&1)
	[ $? = 0 ] || fail "4.13.0 is refused: $out"
	echo "$out" | grep -qx "iface='unit'" || fail "4.13.0 is not the unit interface: $out"
	echo "$out" | grep -qx "modules='null credit credit2 rt arinc653'" || fail "4.13.0's schedulers: $out"
	inc=$tmp/build/xen-shim/tree0/inc
	[ "$(readlink "$inc/xen/sched-if.h")" = "$t/xen/include/xen/sched-if.h" ] &&
		[ "$(readlink "$inc/xen-sched/private.h")" = "$t/xen/include/xen/sched-if.h" ] ||
		fail "4.13.0's sched-if.h is not linked as both xen/sched-if.h and xen-sched/private.h"
	[ "$(readlink "$inc/xen-sched/credit2.c")" = "$t/xen/common/sched_credit2.c" ] ||
		fail "4.13.0's credit2 is not xen/common/sched_credit2.c"
	has_flag 0 -DXS_UNIT_SCHED_IF && has_flag 0 -DXS_INITIAL_CPU=0 && ! has_flag 0 -DXS_CREDIT_TICK_SUSPEND ||
		fail "4.13.0's flags: $(grep '^XS_CPPFLAGS_0' "$tmp/build/xen-shim/tree0.mk")"
fi

if [ -f "$next/2019-07-staging/xen/Makefile" ]; then
	t=$next/2019-07-staging
	out=$(add 1 2019-07-staging "$t" 2>&1)
	[ $? = 0 ] || fail "2019-07-staging is refused: $out"
	echo "$out" | grep -qx "iface='vcpu'" || fail "2019-07-staging is not the vcpu interface: $out"
	echo "$out" | grep -qx "version='4.13-unstable'" || fail "2019-07-staging's version: $out"
	has_flag 1 -DXS_SWITCH_SCHED_LOCK && has_flag 1 -DXS_HAVE_ADJUST_AFFINITY &&
		! has_flag 1 -DXS_HAVE_INIT_DOMAIN && has_flag 1 -DXS_INITIAL_CPU=1 &&
		has_flag 1 -DXS_CREDIT_TICK_SUSPEND ||
		fail "2019-07-staging's flags: $(grep '^XS_CPPFLAGS_1' "$tmp/build/xen-shim/tree1.mk")"
fi

out=$(add 2 next "$next" 2>&1)
[ $? = 1 ] && [ "$out" = "$next/xen/Makefile: not found (not a Xen source tree)" ] ||
	fail "the folder above the trees: '$out'"

# The 2019 preset's Credit2 against 4.13.0's own, run for run.
if "$SCHEDSIM" --list-schedulers | grep -q '^xen-credit2@4\.13\.0 '; then
	model=credit2:era=4.17:reset=skipped:load_continue=off
	# Cells where 4.17's credit reset (reset=top) decides otherwise, so
	# that the check tells the eras apart: hackbench 7 groups at gran=cpu
	# (6.85 s against 7.05 s), netperf 64 B at gran=core (133289 events
	# against 133040).
	for cell in cpu,hackbench:groups=7 core,netperf:size=64:time=1s; do
		gran=${cell%%,*}
		for side in model xen; do
			s="$model:gran=$gran"
			[ $side = xen ] && s="xen-credit2@4.13.0:gran=$gran"
			"$SCHEDSIM" --scenario="$srcdir/examples/2019-core-scheduling/hvmx2-v8.xml" --sched="$s" \
				--workload="${cell#*,}" --iterations=1 --format=json \
				> "$tmp/$side.json" 2> "$tmp/err" || fail "--sched=$s: $(cat "$tmp/err")"
		done
		python3 - "$tmp/model.json" "$tmp/xen.json" <<'EOF' ||
import json, sys
def runs(path):
    return [(r["iteration"], r["events"], r["metric"]["value"],
             [[v["run_ns"] for v in d["vcpus"]] for d in r["domains"]])
            for r in json.load(open(path))["runs"]]
a, b = runs(sys.argv[1]), runs(sys.argv[2])
if not a or a != b:
    sys.exit("events, figure: model %s, Xen %s" % ([r[1:3] for r in a], [r[1:3] for r in b]))
EOF
			fail "gran=$gran: the 2019 preset's Credit2 and Xen 4.13.0's credit2.c run ${cell#*,} differently"
	done
else
	echo "note: this build has no tree 4.13.0 (configure --with-xen-source=$next/4.13.0): the runs are left out"
fi

# Credit1 of staging 2019-07 against era=2017 with and without 5c8c0ae7c4.
if "$SCHEDSIM" --list-schedulers | grep -q '^xen-credit@2019-07-staging '; then
	s=$srcdir/tests/xen-diff/regressions/credit1-unpark-2019-07-staging.xml
	out=$("$XEN_DIFF" --no-dump --check "$s" credit1:era=2017:unpark_boost=off xen-credit@2019-07-staging 2>&1) ||
		fail "credit1:era=2017:unpark_boost=off and staging's credit.c decide differently: $out"
	out=$("$XEN_DIFF" --no-dump --check "$s" credit1:era=2017 xen-credit@2019-07-staging 2>&1)
	rc=$?
	first=$(echo "$out" | sed -n 's/^decisions: //p')
	model=$(echo "$out" | sed -n 's/^ *credit1:era=2017 *switches in //p')
	xen=$(echo "$out" | sed -n 's/^ *xen-credit@2019-07-staging *switches in //p')
	[ $rc = 1 ] && [ "$first" = "first divergence at t=210000000 ns on pCPU 0 (switch #7 there)" ] &&
		[ "$model" = "d1v0 at t=210000000" ] && [ "$xen" = "d2v0 at t=210000000" ] ||
		fail "credit1:era=2017 (the unparked vCPU BOOSTed) against staging: exit $rc, not the unpark at 210 ms: $out"
else
	echo "note: this build has no tree 2019-07-staging (configure --with-xen-source=$next/2019-07-staging): its credit.c is left out"
fi
finish
