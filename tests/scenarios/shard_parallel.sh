#!/bin/sh
# The GNU parallel recipe (contrib/schedsim-parallel.sh) on this machine:
# the matrix in slices and in one task per run, merged, must print the
# tables of one process byte for byte.  Skipped (77) without GNU parallel.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"

if ! command -v parallel > /dev/null || ! parallel --version 2> /dev/null | grep -q 'GNU parallel'; then
	echo "SKIP: GNU parallel is not installed (Debian package parallel)"
	exit 77
fi
if ! command -v bash > /dev/null; then
	echo "SKIP: the recipe is a bash script and there is no bash"
	exit 77
fi

recipe="$srcdir/contrib/schedsim-parallel.sh"
bash -n "$recipe" || fail "$recipe: bash -n"
# Braces in --sched must reach schedsim as they are (no shell, no parallel replacement).
m="--scenario=$srcdir/tests/shard/sweep.xml --sched=credit2:ratelimit_us={0,1000},credit1 --workload=make-xen,iperf --dom0-load=off,on --iterations=2"
for f in text csv json; do
	run_ok $m --format=$f > "$tmp/single.$f"
done
HOME=$tmp bash "$recipe" -n 5 -j 3 -d "$tmp/parts" -- $m > "$tmp/par.text" 2> "$tmp/stderr" ||
	fail "recipe -n 5: $(cat "$tmp/stderr")"
cmp -s "$tmp/par.text" "$tmp/single.text" || fail "recipe -n 5: the tables differ from one process"
[ "$(ls "$tmp/parts" | wc -l)" -eq 5 ] || fail "recipe -n 5 did not leave 5 parts: $(ls "$tmp/parts")"
HOME=$tmp bash "$recipe" -f csv -d "$tmp/each" -- $m > "$tmp/par.csv" 2> "$tmp/stderr" ||
	fail "recipe, one task per run: $(cat "$tmp/stderr")"
cmp -s "$tmp/par.csv" "$tmp/single.csv" || fail "recipe, one task per run: csv differs"
[ "$(ls "$tmp/each" | wc -l)" -eq 24 ] || fail "one task per run did not leave 24 parts"
HOME=$tmp bash "$recipe" -n 3 -f json -d "$tmp/three" -- $m > "$tmp/par.json" 2> "$tmp/stderr" ||
	fail "recipe -n 3: $(cat "$tmp/stderr")"
cmp -s "$tmp/par.json" "$tmp/single.json" || fail "recipe -n 3: json differs"
# A shard that fails stops the recipe with a non-zero status.
HOME=$tmp bash "$recipe" -n 2 -d "$tmp/bad" -- $m --sched=credit2:ratelimit_us=bogus \
	> /dev/null 2>&1 && fail "the recipe succeeded with a bad --sched"

finish
