#!/bin/sh
# schedsim validate (sim/experiment/validate.h), short: two iterations of
# every published figure's cell.  Every published figure is reported with
# the model's value and its error (model / real - 1); a comparison whose
# sign was right (tests/validate/signs.txt) must still be right; the 2019
# evaluation's calibration holds (tests/scenarios/calibration_2019.sh, run
# here on this run's 2019 figures: its own run was the very same cells
# again); text, JSON and the HTML page say the same; bad options give one
# line, exit 2.  In the sanitizer build (lib.sh, sanitized) every cell runs
# once, for memory errors: the signs and the calibration are the plain
# build's verdicts.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
SCHEDSIM_EXAMPLES="${srcdir:-.}/examples"
export SCHEDSIM_EXAMPLES
signs="${srcdir:-.}/tests/validate/signs.txt"
it=2
sanitized && it=1

run_ok validate --iterations=$it --jobs=2 --format=json --report="$tmp/v.html" > "$tmp/v.json" ||
	exit 1
if ! sanitized; then
	python3 "${srcdir:-.}/tests/validate/signs.py" "$tmp/v.json" "$signs" ||
		fail "a sign that was right is wrong (tests/validate/signs.txt)"
	jq '.figures |= map(select(.evaluation == "2019-core-scheduling"))' "$tmp/v.json" \
		> "$tmp/v2019.json" &&
		SCHEDSIM_VALIDATE_JSON="$tmp/v2019.json" sh "${srcdir:-.}/tests/scenarios/calibration_2019.sh" ||
		fail "the 2019 calibration (tests/scenarios/calibration_2019.sh)"
fi
json_check "$tmp/v.json" '
figs = doc["figures"]
assert len(figs) >= 10, len(figs)
assert any(f["evaluation"] == "2019-core-scheduling" for f in figs)
for f in figs:
    assert f["n"] == '$it' and f["model"] is not None and f["real"] > 0, f
    assert abs(f["error"] - (f["model"] / f["real"] - 1)) < 1e-12, f
    assert f["source"], f
got = {(f["evaluation"], f["table"], f["row"], f["column"]): f for f in figs}
for row, real in (("no dom0 load", 28.353), ("with dom0 load", 43.955)):
    assert got[("2016-credit2-series", "MAKEXEN", row, "credit1:era=2016")]["real"] == real
s = doc["summary"]
assert s["comparisons"] == len(doc["comparisons"]) and s["figures"] == len(figs), s
assert s["right"] == sum(c["right"] for c in doc["comparisons"]), s
for c in doc["comparisons"]:
    assert c["real_sign"] in (-1, 1) and c["model_sign"] in (-1, 0, 1), c
    assert c["right"] == (c["real_sign"] == c["model_sign"]), c
    # the 2012 NUMA orders set a floor of 30 iterations (published.c): they
    # run 30 times whatever --iterations says below it; the others run 2
    if c["id"].startswith("2012-numa-placement "):
        assert c["iterations"] == 30 and c["iterations_floor"] == 30, c
    else:
        assert c["iterations"] == '$it' and c["iterations_floor"] is None, c
assert sum(c["iterations_floor"] == 30 for c in doc["comparisons"]) == 2, doc["comparisons"]
'
python3 "${srcdir:-.}/tests/report/html_check.py" --page "$tmp/v.html" || fail "the --report page"
[ "$(grep -c '<tr><td.*>\(right\|wrong\)</td>' "$tmp/v.html")" -eq "$(jq '.comparisons | length' "$tmp/v.json")" ] ||
	fail "the page does not list every comparison"

# The text form of one evaluation: its figures and signs as in the JSON.
run_ok validate --only=2016-credit2-series --iterations=1 > "$tmp/v.txt" || exit 1
[ "$(grep -c '^2016-credit2-series ' "$tmp/v.txt")" -eq 4 ] || fail "validate --only: not four figures: $(cat "$tmp/v.txt")"
grep -q '^right  2016-credit2-series MAKEXEN credit1:era=2016: with dom0 load vs no dom0 load  *+  *+ ' "$tmp/v.txt" ||
	fail "validate text: no loaded against unloaded make-xen sign"
grep -q '^2 of 2 signs right; 4 figures' "$tmp/v.txt" || fail "validate text: no summary line"
grep -q 'floor' "$tmp/v.txt" && fail "validate --only=2016-credit2-series: a floor it has not: $(cat "$tmp/v.txt")"

# An order's floor, said in the text: the 2012 NUMA orders at 30 iterations.
run_ok validate --only=2012-numa-placement --iterations=1 > "$tmp/numa.txt" || exit 1
[ "$(grep -c "^right  2012-numa-placement make-xen -j4 VM#1 credit1: .*  iterations: 30 (the entry's floor 30)$" "$tmp/numa.txt")" -eq 2 ] ||
	fail "validate --only=2012-numa-placement: not two orders run to their floor: $(cat "$tmp/numa.txt")"
grep -q '^schedsim .* 1 iteration per cell (0 cells, 0 runs); 30 for the orders whose entry sets that floor (3 cells, 90 runs)$' "$tmp/numa.txt" ||
	fail "validate --only=2012-numa-placement: the header does not give the floor: $(head -1 "$tmp/numa.txt")"

expect_error "--only: 'nosuch' is not a named evaluation" validate --only=nosuch
expect_error "validate: --format: 'csv' is not valid" validate --format=csv
expect_error "validate: option '--sched=credit2' is not valid" validate --sched=credit2
expect_error "validate: --iterations:" validate --iterations=0
expect_error "validate: unexpected argument 'x'" validate x

[ $failures -eq 0 ] || exit 1
echo "validate: ok"
