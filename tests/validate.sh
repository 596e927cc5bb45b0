#!/bin/sh
# schedsim validate (sim/experiment/validate.h), short: two iterations of
# every published figure's cell.  Every published figure is reported with
# the model's value and its error (model / real - 1); a comparison whose
# sign was right (tests/validate/signs.txt) must still be right; the 2019
# evaluation's calibration holds (tests/scenarios/calibration_2019.sh, run
# here on this run's 2019 figures: its own run was the very same cells
# again); text, JSON and the HTML page say the same; bad options give one
# line, exit 2.  In the sanitizer build (lib.sh, sanitized) the cells run
# once, for memory errors, and only those of --rows=first,-j8: in each
# table and column the first row with a figure, and the kernbench -j8 row
# (the 2019 example's commands, tests/examples.sh), which reach every
# table, workload, scenario file and column and every kind of comparison
# (rows, columns, configurations, orders) of the whole set, checked below,
# in 97 of the 404 cells of the 2019 preset's figures; the signs and the
# calibration are the plain build's verdicts, on every cell.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
SCHEDSIM_EXAMPLES="${srcdir:-.}/examples"
export SCHEDSIM_EXAMPLES
signs="${srcdir:-.}/tests/validate/signs.txt"
it=2
rows=
sanitized && it=1 rows=--rows=first,-j8

run_ok validate --iterations=$it --jobs=2 $rows --format=json --report="$tmp/v.html" > "$tmp/v.json" ||
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
    if "'"$rows"'" and row != "no dom0 load":
        assert ("2016-credit2-series", "MAKEXEN", row, "credit1:era=2016") not in got
        continue
    assert got[("2016-credit2-series", "MAKEXEN", row, "credit1:era=2016")]["real"] == real
if "'"$rows"'":
    # the sample reaches every 2019 table and column, the -j8 cells, every kind of comparison
    f19 = [f for f in figs if f["evaluation"] == "2019-core-scheduling"]
    # published.c: 28 tables of the 2019 preset with a figure, 83 of their columns
    assert len({f["table"] for f in f19}) == 28, f19
    assert len({(f["table"], f["column"]) for f in f19}) == 83, f19
    assert {f["table"].split(" ")[0] for f in f19} == {"kernbench", "netperf-udp",
        "netperf-tcp", "netperf-unix", "mutilate", "hackbench-process-pipes", "stream"}, f19
    assert {f["table"].split(" ")[1] for f in f19} == {"dom0", "HVM-v8", "HVM-v4",
        "HVMx2-v8", "BM"}, f19
    assert {f["column"] for f in f19} == {"HT", "noHT", "csc", "BM-HT", "BM-noHT"}, f19
    assert len({(f["table"], f["column"]) for f in f19 if f["row"] == "-j8"}) == 14, f19
    kinds = {c["kind"] for c in doc["comparisons"] if c["id"].startswith("2019-core-scheduling ")}
    assert kinds >= {"rows", "columns", "configs"}, kinds
    assert {c["kind"] for c in doc["comparisons"]} == {"rows", "columns", "configs", "order"}, doc["comparisons"]
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

# The text form of one evaluation: its figures and signs as in the JSON
# (--rows: its first row and the one named, all four figures).
run_ok validate --only=2016-credit2-series --rows='first,with dom0 load' --iterations=1 > "$tmp/v.txt" || exit 1
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

# --rows: the figures of the rows named; first, each table's and column's first.
run_ok validate --only=2016-credit2-series --rows=first --iterations=1 > "$tmp/first.txt" || exit 1
[ "$(grep -c '^2016-credit2-series  *[A-Z]*  *no dom0 load  ' "$tmp/first.txt")" -eq 2 ] &&
	! grep -q 'with dom0 load' "$tmp/first.txt" &&
	grep -q '^0 of 0 signs right; 2 figures' "$tmp/first.txt" ||
	fail "validate --rows=first: not the two unloaded figures alone: $(cat "$tmp/first.txt")"
expect_error "validate: --rows: 'nosuch' is not 'first' nor the row of a published figure validated" \
	validate --rows=first,nosuch
expect_error "validate: --rows: '-j8' is not 'first' nor the row of a published figure validated" \
	validate --only=2016-credit2-series --rows=-j8
expect_error "validate: --rows: empty" validate --rows=
expect_error "--only: 'nosuch' is not a named evaluation" validate --only=nosuch
expect_error "validate: --format: 'csv' is not valid" validate --format=csv
expect_error "validate: option '--sched=credit2' is not valid" validate --sched=credit2
expect_error "validate: --iterations:" validate --iterations=0
expect_error "validate: unexpected argument 'x'" validate x

[ $failures -eq 0 ] || exit 1
echo "validate: ok"
