#!/bin/sh
# Xen's schedulers in cpupools of part of the host (xen-shim/), for the
# trees of this build; SKIP (77) when none is built.
#  - tests/xen-diff/scenarios/pools.xml (Pool-0 and p1 both under the
#    scheduler compared: two instances of Xen's code in one run) decides
#    exactly as the model for every pair of tests/xen-diff/pairs whose
#    tree is built (not the rt.c, arinc653.c and nohard ones).
#  - One run with three trees in three pools (xen-credit2@master in
#    Pool-0, xen-null@4.17.5 in p-null, xen-credit@2017 in p-credit) gives
#    the same run times as the three models of those eras in those pools.
#  - The comparison can fail: the random pools scenarios against a wrong
#    era diverge (exit 1).
#  - The same file at sched-gran=core, for every pair of the table with
#    the generator flag units (4.13 on): units of two vCPUs on the two
#    threads of a core, gang-scheduled, decide as the models do; at
#    gran=core against gran=cpu they do not.
#  - sched-gran=core with a tree before 4.13 (no sched_unit) is refused:
#    exit 2, one line naming the tree's Xen version, for --sched and for a
#    <pool> (with the scenario's file:line).
. "${srcdir:-.}/tests/xen-diff/common.sh"
sc=$srcdir/tests/scenarios

"$SCHEDSIM" --list-schedulers > "$tmp/list"
sed -n 's/^xen-credit@\([^ ]*\) .*/\1/p' "$tmp/list" > "$tmp/trees"
if [ ! -s "$tmp/trees" ]; then
	echo "SKIP: no Xen tree built (configure --with-xen-trees)"
	exit 77
fi
have() {
	grep -q "^$1 " "$tmp/list"
}

# Every pair of the table on tests/xen-diff/scenarios/pools.xml (the
# pairs for rt.c and arinc653.c, and those of a credit2 that ignores hard
# affinity, are not for it).
pairs=0
grep -v '^[[:space:]]*#' "$srcdir/tests/xen-diff/pairs" | while read -r model xen tree need flags; do
	[ -n "$model" ] || continue
	case ",${flags:-}," in *,rt,*|*,noextra,*|*,arinc653,*|*,nohard,*|*,pools,*|*,units,*) continue ;; esac
	have "${xen%%:*}@$tree" || continue
	spec="${xen%%:*}@$tree${xen#"${xen%%:*}"}"
	out=$("$XEN_DIFF" --no-dump "$srcdir/tests/xen-diff/scenarios/pools.xml" "$model" "$spec" 2>&1) ||
		echo "FAIL: pools.xml: $model vs $spec: $(echo "$out" | grep -E '^(decisions|run times):' | tr '\n' ' ')"
	echo "pair: $model vs $spec"
done > "$tmp/pairs.out"
grep '^FAIL' "$tmp/pairs.out" && failures=$((failures + $(grep -c '^FAIL' "$tmp/pairs.out")))
pairs=$(grep -c '^pair' "$tmp/pairs.out")
[ "$pairs" -gt 0 ] || fail "no pair of the table ran on pools.xml"
echo "ok: pools.xml, $pairs pair(s) of the table"

# Three trees in three pools of one run.
if have xen-credit2@master-2026-08 && have xen-null@4.17.5 && have xen-credit@2017-08-credit2-full; then
	sed 's/sched="null"/sched="xen-null@4.17.5"/; s/sched="credit1"/sched="xen-credit@2017-08-credit2-full"/' \
		"$sc/pools_split.xml" > "$tmp/xen3.xml"
	sed 's/sched="credit1"/sched="credit1:era=2017"/' "$sc/pools_split.xml" > "$tmp/model3.xml"
	a=$("$SCHEDSIM" --check --sched=xen-credit2@master-2026-08 --scenario="$tmp/xen3.xml" --format=json |
	    grep -o '"run_ns": *[0-9]*')
	b=$("$SCHEDSIM" --check --sched=credit2 --scenario="$tmp/model3.xml" --format=json |
	    grep -o '"run_ns": *[0-9]*')
	[ -n "$a" ] && [ "$a" = "$b" ] ||
		fail "three trees in three pools: run times differ from the models'"
	echo "ok: xen-credit2@master-2026-08, xen-null@4.17.5, xen-credit@2017-08-credit2-full in three pools"
fi

# A wrong era diverges on the random pools scenarios.
if have xen-credit2@4.17.5; then
	"$RANDOM_DRIVER" --pair=credit2:era=2016-full,xen-credit2@4.17.5,pools --count=40 > "$tmp/wrong" 2>&1
	rc=$?
	[ $rc = 1 ] && grep -q 'FAIL$' "$tmp/wrong" ||
		fail "credit2:era=2016-full vs xen-credit2@4.17.5 with pools: exit $rc, not 1: $(cat "$tmp/wrong")"
	echo "ok: a wrong era diverges with pools"
fi

# sched-gran=core: the pairs of the table with units, on pools.xml.
grep -v '^[[:space:]]*#' "$srcdir/tests/xen-diff/pairs" | while read -r model xen tree need flags; do
	case ",${flags:-}," in *,units,*) ;; *) continue ;; esac
	case ",${flags:-}," in *,rt,*|*,noextra,*) continue ;; esac
	have "${xen%%:*}@$tree" || continue
	spec="${xen%%:*}@$tree${xen#"${xen%%:*}"}"
	out=$("$XEN_DIFF" --no-dump "$srcdir/tests/xen-diff/scenarios/pools.xml" "$model" "$spec" 2>&1) ||
		echo "FAIL: pools.xml: $model vs $spec: $(echo "$out" | grep -E '^(decisions|run times):|rror' | tr '\n' ' ')"
	echo "pair: $model vs $spec"
	# Against the model at gran=cpu: the units show.
	if [ "${model%:gran=core}" != "$model" ]; then
		"$XEN_DIFF" --no-dump "$srcdir/tests/xen-diff/scenarios/pools.xml" "${model%:gran=core}" "$spec" > /dev/null 2>&1 &&
			echo "FAIL: pools.xml: ${model%:gran=core} (gran=cpu) vs $spec decide alike"
	fi
done > "$tmp/units.out"
grep '^FAIL' "$tmp/units.out" && failures=$((failures + $(grep -c '^FAIL' "$tmp/units.out")))
units=$(grep -c '^pair' "$tmp/units.out")
echo "ok: pools.xml at sched-gran=core, $units pair(s) of the table"

# sched-gran=core with a tree before 4.13, for Pool-0 and for a <pool>.
old=$(sed -n 's/^xen-credit@\([^ ]*\) .*(Xen \([0-9]*\)\.\([0-9]*\)[^)]*)$/\1 \2 \3/p' "$tmp/list" |
      awk '$2 < 4 || ($2 == 4 && $3 < 13) { print $1; exit }')
if [ -n "$old" ]; then
	sed 's/cores-per-socket="8" threads-per-core="1"/cores-per-socket="4" threads-per-core="2"/' \
		"$sc/pools_split.xml" > "$tmp/smt.xml"
	"$SCHEDSIM" --sched="xen-credit@$old:gran=core" --scenario="$tmp/smt.xml" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
		grep -q "xen-credit@$old: sched-gran=core: Xen [0-9.a-z-]* has no sched-gran (sched_unit, 4.13)" "$tmp/err" ||
		fail "xen-credit@$old:gran=core: exit $rc: $(cat "$tmp/err")"
	sed "s/sched=\"credit1\"/sched=\"xen-credit@$old:gran=core\"/" "$tmp/smt.xml" > "$tmp/smtpool.xml"
	line=$(grep -n 'name="p-credit"' "$tmp/smtpool.xml" | cut -d: -f1)
	"$SCHEDSIM" --sched=credit2 --scenario="$tmp/smtpool.xml" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
		grep -q "smtpool.xml:$line: <pool name=\"p-credit\">: xen-credit@$old: sched-gran=core: Xen" "$tmp/err" ||
		fail "<pool sched=xen-credit@$old:gran=core>: exit $rc: $(cat "$tmp/err")"
	echo "ok: sched-gran=core refused by xen-credit@$old"
fi

finish
