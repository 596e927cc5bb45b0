#!/bin/sh
# The random differential driver itself, without Xen's code (model against
# model), so that it is tested in every build:
#  - the generator: one seed gives one text, another seed another; 300
#    seeds all load (the driver refuses a scenario that does not) and
#    match the schema; --flags=nocaps / nosoft leave caps / soft
#    affinities out and nothing else;
#  - a model against itself is identical on every scenario (exit 0);
#    against itself with another ratelimit it diverges (exit 1), and the
#    divergence lines name a seed that --print reproduces;
#  - the pairs table: a malformed line is refused with file:line (exit 2),
#    a pair whose tree is not built is skipped, none runnable gives 77.
. "${srcdir:-.}/tests/xen-diff/common.sh"
D=$RANDOM_DRIVER
# In the sanitizer build (common.sh, sanitized) the generator's loops
# below draw 20 seeds each, not 60 and 40, and simulate every one of them
# (20 with pools, 20 with units: as many as every third of 60 and 40 did
# before, or more); each --print is a process of its own, whose start
# costs about 0.15 CPU-s under ASan, and the 280 of them were half of
# this test's CPU there.  Their floors (how many scenarios have caps, soft
# affinities, pools...) scale with the count.  The pairs against
# themselves run a fifth of the plain build's scenarios: the same code,
# whose results the plain build checks on all of them.
same=300 pooled_same=100 seeds=60 unit_seeds=40
sanitized && same=60 pooled_same=30 seeds=20 unit_seeds=20
# floor N: N of 60 scenarios, scaled to this run's count
floor() {
	echo $(($1 * seeds / 60))
}

# Generator: reproducible, varied, valid.
"$D" --print=7 > "$tmp/a.xml" && "$D" --print=7 > "$tmp/b.xml" || fail "--print failed"
cmp -s "$tmp/a.xml" "$tmp/b.xml" || fail "seed 7 gave two different scenarios"
"$D" --print=8 > "$tmp/c.xml"
cmp -s "$tmp/a.xml" "$tmp/c.xml" && fail "seeds 7 and 8 gave the same scenario"
"$SCHEDSIM" --sched=null --scenario="$tmp/a.xml" > /dev/null || fail "seed 7's scenario does not run"
caps=0 soft=0 nocap_caps=0 nosoft_soft=0 same_rest=0
for s in $(seq 1 $seeds); do
	"$D" --print=$s > "$tmp/s.xml"
	"$D" --print=$s --flags=nocaps > "$tmp/n.xml"
	"$D" --print=$s --flags=nosoft > "$tmp/o.xml"
	grep -q 'cap="' "$tmp/s.xml" && caps=$((caps + 1))
	grep -q 'soft="' "$tmp/s.xml" && soft=$((soft + 1))
	grep -q 'cap="' "$tmp/n.xml" && nocap_caps=$((nocap_caps + 1))
	grep -q 'soft="' "$tmp/o.xml" && nosoft_soft=$((nosoft_soft + 1))
	# Without caps, the text is the same but for the cap attributes.
	sed 's/ cap="[0-9]*"//' "$tmp/s.xml" | cmp -s - "$tmp/n.xml" && same_rest=$((same_rest + 1))
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout --nonet --relaxng "$srcdir/sim/input/scenario.rng" "$tmp/s.xml" 2>/dev/null ||
			fail "seed $s: the scenario does not match the schema"
	fi
done
[ $caps -gt "$(floor 5)" ] || fail "only $caps of $seeds scenarios have a cap"
[ $soft -gt "$(floor 5)" ] || fail "only $soft of $seeds scenarios have a soft affinity"
[ $nocap_caps = 0 ] || fail "--flags=nocaps left caps in $nocap_caps scenarios"
[ $nosoft_soft = 0 ] || fail "--flags=nosoft left soft affinities in $nosoft_soft scenarios"
[ $same_rest = $seeds ] || fail "--flags=nocaps changed more than the caps ($same_rest of $seeds alike)"

# --flags=pools: Pool-0 keeps pCPU 0, a pool p1 takes the rest (on hosts
# of two pCPUs or more), dom0 is never in p1, some domains are, p1 is
# sometimes under the credit1 model; every scenario runs checked.
pooled=0 model_pool=0 in_p1=0
for s in $(seq 1 $seeds); do
	"$D" --print=$s --flags=pools > "$tmp/p.xml"
	ncpus=$(sed -n 's/.*sockets="\([0-9]*\)" cores-per-socket="\([0-9]*\)" threads-per-core="\([0-9]*\)".*/\1 \2 \3/p' "$tmp/p.xml" |
		{ read -r a b c; echo $((a * b * c)); })
	if grep -q '<pool ' "$tmp/p.xml"; then
		pooled=$((pooled + 1))
		grep -Eq "<pool name=\"p1\" cpus=\"[1-9][0-9]*-$((ncpus - 1))\"" "$tmp/p.xml" ||
			fail "seed $s: p1 is not the pCPUs from a boundary to the last: $(grep '<pool' "$tmp/p.xml")"
	elif [ "$ncpus" -gt 1 ]; then
		fail "seed $s: no pool on a host of $ncpus pCPUs"
	fi
	grep -q 'sched="credit1"' "$tmp/p.xml" && model_pool=$((model_pool + 1))
	grep -q 'pool="p1"' "$tmp/p.xml" && in_p1=$((in_p1 + 1))
	grep -q 'name="dom0"[^>]*pool=' "$tmp/p.xml" && fail "seed $s: dom0 outside Pool-0"
	"$SCHEDSIM" --check --sched=credit2 --scenario="$tmp/p.xml" > /dev/null 2> "$tmp/p.err" ||
		fail "seed $s with pools does not run: $(cat "$tmp/p.err")"
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout --nonet --relaxng "$srcdir/sim/input/scenario.rng" "$tmp/p.xml" 2>/dev/null ||
			fail "seed $s with pools: the scenario does not match the schema"
	fi
done
[ $pooled -gt "$(floor 30)" ] || fail "only $pooled of $seeds scenarios have a pool"
[ $model_pool -gt "$(floor 3)" ] || fail "only $model_pool of $seeds scenarios put p1 under the credit1 model"
[ $in_p1 -gt "$(floor 15)" ] || fail "only $in_p1 of $seeds scenarios have a domain in p1"
out=$("$D" --print=1 --flags=pools,arinc653 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "pools and arinc653 do not go together" ||
	fail "--flags=pools,arinc653 is not refused: $out"
# --flags=units,pools: no per-vCPU settings, caps of at most 100 per unit,
# p1 from a core's first thread; every scenario runs at gran=core, checked.
for s in $(seq 1 $unit_seeds); do
	"$D" --print=$s --flags=units,pools > "$tmp/u.xml"
	grep -q '<vcpu ' "$tmp/u.xml" && fail "seed $s with units: a per-vCPU setting"
	threads=$(sed -n 's/.*threads-per-core="\([0-9]*\)".*/\1/p' "$tmp/u.xml")
	first=$(sed -n 's/.*<pool name="p1" cpus="\([0-9]*\)-.*/\1/p' "$tmp/u.xml")
	[ -z "$first" ] || [ $((first % threads)) = 0 ] || fail "seed $s with units: p1 starts at pCPU $first"
	sed -n 's/.*vcpus="\([0-9]*\)".* cap="\([0-9]*\)".*/\1 \2/p' "$tmp/u.xml" | while read -r n cap; do
		[ "$cap" -le $((100 * ((n + threads - 1) / threads))) ] || echo "cap $cap for $n vCPUs"
	done | grep -q . && fail "seed $s with units: a cap above 100 per unit"
	"$SCHEDSIM" --check --sched=credit2:gran=core --scenario="$tmp/u.xml" > /dev/null 2> "$tmp/u.err" ||
		fail "seed $s with units at gran=core does not run: $(cat "$tmp/u.err")"
done
# A model against itself with pools: identical everywhere.
out=$("$D" --pair=credit1,credit1,pools --count=$pooled_same --jobs=2)
[ $? = 0 ] || fail "credit1 against itself with pools: $out"

# A model against itself: identical everywhere; every scenario loads.
out=$("$D" --pair=credit2,credit2 --count=$same --jobs=2)
rc=$?
[ $rc = 0 ] || fail "credit2 against itself: exit $rc, not 0: $out"
echo "$out" | grep -Eq "^credit2 vs credit2 +$same +$same +0 .* ok\$" ||
	fail "credit2 against itself: not $same of $same identical: $out"

# Against another configuration: divergences, each with a seed to replay.
out=$("$D" --pair=credit1,credit1:ratelimit_us=0 --count=40 --show=1000)
rc=$?
[ $rc = 1 ] || fail "credit1 against credit1:ratelimit_us=0: exit $rc, not 1"
echo "$out" | grep -q 'FAIL$' || fail "a divergent pair is not marked FAIL: $out"
seed=$(echo "$out" | sed -n 's/^  seed \(0x[0-9a-f]*\) .*pCPU [0-9]* switch #[0-9]*: .*@[0-9]* \/ .*@[0-9-]*$/\1/p' | head -1)
if [ -z "$seed" ]; then
	fail "no divergence line with a seed: $out"
else
	"$D" --print="$seed" > "$tmp/d.xml"
	XEN_DIFF=$(dirname "$D")/xen-diff
	"$XEN_DIFF" --no-dump "$tmp/d.xml" credit1 credit1:ratelimit_us=0 > "$tmp/d.out"
	[ $? = 1 ] || fail "xen-diff does not see the divergence of seed $seed"
fi

# The pairs table.
printf '# comment\ncredit2 xen-credit2 4.17.5\n' > "$tmp/bad1"
out=$("$D" --pairs="$tmp/bad1" 2>&1)
[ $? = 2 ] || fail "a line of three fields is not refused"
echo "$out" | grep -q "^xen-diff-random: $tmp/bad1:2: " || fail "no file:line in '$out'"
printf 'credit2 xen-credit2 4.17.5 1O1\n' > "$tmp/bad2"
out=$("$D" --pairs="$tmp/bad2" 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "bad2:1: MIN% '1O1'" || fail "a bad MIN% is not refused: $out"
printf 'credit9 xen-credit2 4.17.5 100\n' > "$tmp/bad3"
out=$("$D" --pairs="$tmp/bad3" 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "bad3:1: unknown model 'credit9'" || fail "an unknown model is not refused: $out"
printf 'credit2 xen-credit2 4.17.5 100 nocaps,loud\n' > "$tmp/bad4"
out=$("$D" --pairs="$tmp/bad4" 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "bad4:1: unknown generator flag 'loud'" || fail "a bad flag is not refused: $out"
printf 'credit2 xen-credit2 no-such-tree 100\n' > "$tmp/none"
out=$("$D" --pairs="$tmp/none" --count=5 2>&1)
[ $? = 77 ] || fail "no runnable pair: not exit 77: $out"
echo "$out" | grep -q 'xen-credit2@no-such-tree .*skipped: tree not built' || fail "the skipped pair is not listed: $out"

finish
