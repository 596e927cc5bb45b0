#!/bin/sh
# Xen's rt.c and arinc653.c in the shim (xen-rtds@TREE, xen-arinc653@TREE),
# for every tree of this build that has them; SKIP (77) when none does.
#  - The RTDS and ARINC 653 scenarios of tests/scenarios decide exactly as
#    the model of the tree's era (tests/scenarios/rtds_vcpus.xml has
#    per-vCPU period, budget and extratime: only if they reach Xen's code
#    through putvcpuinfo are the two the same), and the parameters do
#    change what Xen's code does (the same file without them differs).
#  - An ARINC 653 schedule reaches Xen's code (arinc653_frames.xml: a, b
#    and dom0 in their minor frames) and decides as the model.
#  - extratime="on" for a tree without extratime (before 4.10) is refused:
#    exit 2, one line naming the file, line, vCPU and the commit.
#  - rt.c of the 2015 trees (before the event-driven rt.c) is not built:
#    xen-rtds@2015-11-... is an unknown scheduler, exit 2.
. "${srcdir:-.}/tests/xen-diff/common.sh"
sc=$srcdir/tests/scenarios

"$SCHEDSIM" --list-schedulers > "$tmp/list"
sed -n 's/^xen-rtds@\([^ ]*\) .*/\1/p' "$tmp/list" > "$tmp/rt"
sed -n 's/^xen-arinc653@\([^ ]*\) .*/\1/p' "$tmp/list" > "$tmp/a653"
if [ ! -s "$tmp/rt" ] && [ ! -s "$tmp/a653" ]; then
	echo "SKIP: no Xen tree with rt.c or arinc653.c built (configure --with-xen-trees)"
	exit 77
fi

# The model era of each tree (doc/realtime.md).  The trees of
# ../shared/xen-src-next (tests/xen-diff/next.sh): 4.13.0 decides as 4.17;
# 2019-07-staging's arinc653.c as 2017's (the same file, and vCPU 0 on a
# random pCPU), its rt.c as 4.17's on these scenarios (no era has 4.17's
# rt.c with vCPU 0 on a random pCPU, which they do not reach).
rtds_era() {
	case $1 in
	2016-09-*) echo 2016 ;;
	2016-11-*|2017-*) echo 2017 ;;
	4.13*|4.17*|2019-07-*) echo 4.17 ;;
	*) echo current ;;
	esac
}
a653_era() {
	case $1 in
	2015-*) echo 2015 ;;
	2016-*) echo 2016 ;;
	2017-*|2019-07-*) echo 2017 ;;
	4.13*|4.17*) echo 4.17 ;;
	*) echo current ;;
	esac
}

for t in $(cat "$tmp/rt"); do
	era=$(rtds_era "$t")
	for f in rtds_global rtds_over rtds_under rtds_vcpus; do
		out=$("$XEN_DIFF" --no-dump "$sc/$f.xml" "rtds:era=$era" "xen-rtds@$t" 2>&1) ||
			fail "$f.xml: rtds:era=$era vs xen-rtds@$t: $(echo "$out" | tail -n 3)"
	done
	# Without the parameters Xen's code decides otherwise.
	sed 's/ period="[^"]*"//g; s/ budget="[^"]*"//g' "$sc/rtds_vcpus.xml" > "$tmp/noparams.xml"
	"$XEN_DIFF" --no-dump "$tmp/noparams.xml" "xen-rtds@$t" "rtds:era=$era" > /dev/null 2>&1 ||
		fail "rtds_vcpus.xml without parameters: xen-rtds@$t differs from its model there too"
	a=$("$SCHEDSIM" --sched="xen-rtds@$t" --scenario="$sc/rtds_vcpus.xml" --format=json | grep -o '"run_ns": *[0-9]*' | head -n 4)
	b=$("$SCHEDSIM" --sched="xen-rtds@$t" --scenario="$tmp/noparams.xml" --format=json | grep -o '"run_ns": *[0-9]*' | head -n 4)
	[ -n "$a" ] && [ "$a" != "$b" ] || fail "xen-rtds@$t: the same run times with and without period/budget"
	echo "ok: xen-rtds@$t (rtds:era=$era)"
done

# extratime="on" where rt.c has none.
for t in $(cat "$tmp/rt"); do
	[ "$(rtds_era "$t")" = 2016 ] || [ "$(rtds_era "$t")" = 2017 ] || continue
	"$SCHEDSIM" --sched="xen-rtds@$t" --scenario="$sc/rtds_vcpus.xml" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	# rtds_vcpus.xml's domain bg (line 13) has extratime by default only:
	# not refused; an explicit "on" is.
	[ $rc = 0 ] || fail "xen-rtds@$t: rtds_vcpus.xml (no explicit extratime=on): exit $rc: $(cat "$tmp/err")"
	sed 's/<vcpu id="1" extratime="off"\/>/<vcpu id="1" extratime="on"\/>/' "$sc/rtds_vcpus.xml" > "$tmp/extra.xml"
	"$SCHEDSIM" --sched="xen-rtds@$t" --scenario="$tmp/extra.xml" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
		grep -q "extra.xml:13: domain 'bg': vCPU 1: extratime=\"on\": xen-rtds@$t has no extratime (463b958317" "$tmp/err" ||
		fail "xen-rtds@$t: extratime=on: exit $rc: $(cat "$tmp/err")"
	echo "ok: xen-rtds@$t refuses extratime=on"
	break
done

for t in 2015-11-credit1-kick-bug 2015-11-credit1-kick-fixed; do
	grep -q "^xen-arinc653@$t " "$tmp/list" || continue
	"$SCHEDSIM" --sched="xen-rtds@$t" --scenario="$sc/rtds_under.xml" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc = 2 ] && grep -q "unknown scheduler 'xen-rtds@$t'" "$tmp/err" ||
		fail "xen-rtds@$t (quantum-driven rt.c): exit $rc: $(cat "$tmp/err")"
done

for t in $(cat "$tmp/a653"); do
	era=$(a653_era "$t")
	for f in arinc653_default arinc653_frames arinc653_serial; do
		out=$("$XEN_DIFF" --no-dump "$sc/$f.xml" "arinc653:era=$era" "xen-arinc653@$t" 2>&1) ||
			fail "$f.xml: arinc653:era=$era vs xen-arinc653@$t: $(echo "$out" | tail -n 3)"
	done
	# The schedule reached Xen: without it only dom0 runs (the default schedule).
	sed '/<arinc653/,/<\/arinc653>/d' "$sc/arinc653_frames.xml" > "$tmp/nosched.xml"
	a=$("$SCHEDSIM" --sched="xen-arinc653@$t" --scenario="$sc/arinc653_frames.xml" --format=json | grep -o '"run_ns": *[0-9]*' | head -n 3)
	b=$("$SCHEDSIM" --sched="xen-arinc653@$t" --scenario="$tmp/nosched.xml" --format=json | grep -o '"run_ns": *[0-9]*' | head -n 3)
	[ -n "$a" ] && [ "$a" != "$b" ] || fail "xen-arinc653@$t: the same run times with and without <arinc653>"
	echo "ok: xen-arinc653@$t (arinc653:era=$era)"
done

finish
