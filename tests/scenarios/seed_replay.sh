#!/bin/sh
# One iteration of an experiment replayed from the seed its JSON reports:
# iteration i of an experiment runs with seed_derive(BASE, i) (BASE the
# --seed or the scenario's), the number each run's "seed" gives, and a
# single run (no --iterations) with --seed=THAT gives that iteration's
# figure to the byte.  The default scenario's iteration 2 has seed
# 14199616709479013707, above INT64_MAX: --seed takes the whole unsigned
# 64-bit range.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"

cell="--sched=credit1 --workload=make-xen --dom0-load=off"
# shellcheck disable=SC2086  # $cell is split on spaces on purpose
run_ok $cell --iterations=3 --jobs=1 --format=json > "$tmp/exp.json" || exit 1

# The seed and the run of iteration 2, as text from the file (not through a
# double: the seed has 20 digits).
python3 - "$tmp/exp.json" "$tmp" <<'PY' || fail "cannot read iteration 2 of $tmp/exp.json"
import json, sys
doc = json.load(open(sys.argv[1]))
run = [r for r in doc["runs"] if r["iteration"] == 2]
assert len(run) == 1, run
run = run[0]
for k in ("iteration", "workload", "dom0_load"):
    run.pop(k, None)
open(sys.argv[2] + "/seed", "w").write("%d\n" % run["seed"])
open(sys.argv[2] + "/want", "w").write(json.dumps(run, sort_keys=True) + "\n")
PY
seed=$(cat "$tmp/seed")
[ ${#seed} -eq 20 ] ||     # INT64_MAX has 19 digits
	fail "iteration 2's seed $seed is not above INT64_MAX: the test no longer covers the range"

# shellcheck disable=SC2086
run_ok $cell --seed="$seed" --format=json > "$tmp/one.json" || exit 1
python3 - "$tmp/one.json" "$tmp" <<'PY' || fail "cannot read the replay $tmp/one.json"
import json, sys
doc = json.load(open(sys.argv[1]))
assert len(doc["runs"]) == 1
run = doc["runs"][0]
for k in ("iteration", "workload", "dom0_load"):
    run.pop(k, None)
open(sys.argv[2] + "/got", "w").write(json.dumps(run, sort_keys=True) + "\n")
PY
cmp -s "$tmp/want" "$tmp/got" ||
	fail "--seed=$seed does not replay iteration 2: $(diff "$tmp/want" "$tmp/got" | head -c 400)"
# The figure's own text, as both reports print it.
figure() { python3 -c '
import re, sys
t = open(sys.argv[1]).read()
i = t.index("\"seed\": " + sys.argv[2])
print(re.search(r"\"value\": [^,]*", t[i:]).group(0))' "$1" "$seed"; }
a=$(figure "$tmp/exp.json") b=$(figure "$tmp/one.json")
[ -n "$a" ] && [ "$a" = "$b" ] || fail "iteration 2's figure is '$a', its replay's '$b'"

# In an experiment --seed is the base: --seed=1 (the scenario's) and
# --iterations=3 repeat the three runs, and the replay's text report names
# the seed it ran.
# shellcheck disable=SC2086
run_ok $cell --iterations=3 --jobs=1 --seed=1 --format=json > "$tmp/again.json" || exit 1
cmp -s "$tmp/exp.json" "$tmp/again.json" || fail "--seed=1 --iterations=3 differs from the scenario's seed 1"
# shellcheck disable=SC2086
run_ok $cell --seed="$seed" > "$tmp/one.txt"
head -1 "$tmp/one.txt" | grep -qF "seed $seed " ||
	fail "the text report of --seed=$seed does not name its seed"

# The largest seed runs; one past it, a negative one and junk are refused.
# shellcheck disable=SC2086
run_ok $cell --seed=18446744073709551615 --duration=100ms > /dev/null
expect_error "'18446744073709551616' is out of range 0..18446744073709551615" $cell --seed=18446744073709551616
expect_error "'-1' is out of range 0..18446744073709551615" $cell --seed=-1 --iterations=1
expect_error "'1x' is not an integer" $cell --seed=1x

[ $failures -eq 0 ]
