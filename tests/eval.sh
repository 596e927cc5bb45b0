#!/bin/sh
# Named evaluations (--eval, sim/experiment/evaluation.h): --list-evals
# names every preset with its tables; a preset's JSON has its tables, rows
# and columns as listed, every cell run with its iterations, the MMTests
# centre (Amean of times, Hmean of rates) and gain (positive is better) of
# its values, and a cell's values are those of the same experiment run by
# hand; the text form prints one line per row with the first column at
# (0.00%); markdown, csv, the HTML page and the plots hold the same tables;
# bad names and options that conflict with a preset give one line, exit 2.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
SCHEDSIM_EXAMPLES="${srcdir:-.}/examples"
export SCHEDSIM_EXAMPLES

# --list-evals: every preset, and the tables the JSON will have.
run_ok --list-evals > "$tmp/list" || exit 1
for p in 2019-core-scheduling 2016-credit2-series 2015-credit1-kick-away 2016-schedbench-pool 2012-numa-placement; do
	grep -q "^$p\$" "$tmp/list" || fail "--list-evals does not list $p"
done
grep -q '^    MAKEXEN: dom0 load (no dom0 load, with dom0 load) x credit1:era=2016, credit2:era=2016-p20, credit2:era=2016-full$' "$tmp/list" ||
	fail "--list-evals: the 2016 preset's MAKEXEN table is not as expected: $(grep MAKEXEN "$tmp/list")"

# A preset as JSON: its tables as listed, every cell's iterations, centre and gain.
run_ok --eval=2012-numa-placement --iterations=3 --jobs=2 --format=json > "$tmp/numa.json" || exit 1
json_check "$tmp/numa.json" '
assert doc["eval"] == "2012-numa-placement" and doc["iterations"] == 3, doc["eval"]
assert [t["benchmark"] for t in doc["tables"]] == ["make-xen -j4"]
assert len(doc["runs"]) == 4 * 2 * 3, len(doc["runs"])
for t in doc["tables"]:
    assert t["columns"] == ["credit1", "credit2"] and t["config"] == "VM#1", t
    assert [r["name"] for r in t["rows"]] == ["best case", "pinned", "worst case", "xl placement"]
    higher = t["better"] == "higher"
    assert t["center"] == ("hmean" if higher else "amean"), t
    for r in t["rows"]:
        base = None
        for k, c in enumerate(r["cells"]):
            v = c["values"]
            assert c["run"] and c["n"] == 3 and len(v) == 3, c
            want = len(v) / sum(1 / x for x in v) if higher else sum(v) / len(v)
            assert abs(c["center"] - want) <= 1e-9 * want, (c["center"], want)
            for i, x in enumerate(v):
                run = doc["runs"][c["first_run"] + i]
                assert abs(run["metric"]["value"] - x) <= 1e-7 * x, (run["label"], x)
                assert run["label"] == c["sched"] and run["iteration"] == i, run["label"]
            if k == 0:
                base = c["center"]
                assert c["gain_pct"] is None and c["significant"] is None
            else:
                g = c["center"] * 100 / base - 100 if higher else 100 - c["center"] * 100 / base
                assert abs(c["gain_pct"] - g) < 1e-9, (c["gain_pct"], g)
                assert c["significant"] == (c["p_value"] < doc["alpha"])
'

# The 2016 preset: its tables, and a cell's values are the experiment's of
# the same scheduler, benchmark and load (the default evaluation's path).
run_ok --eval=2016-credit2-series --iterations=1 --jobs=2 --format=json > "$tmp/2016.json" || exit 1
json_check "$tmp/2016.json" '
assert [t["benchmark"] for t in doc["tables"]] == ["MAKEXEN", "IPERF"]
assert [t["center"] for t in doc["tables"]] == ["amean", "hmean"]
for t in doc["tables"]:
    assert t["columns"] == ["credit1:era=2016", "credit2:era=2016-p20", "credit2:era=2016-full"]
    assert [r["name"] for r in t["rows"]] == ["no dom0 load", "with dom0 load"]
    assert [c["dom0_load"] for c in t["rows"][1]["cells"]] == ["on"] * 3
'
run_ok --sched=credit2:era=2016-full --workload=iperf --dom0-load=on --iterations=1 \
	--format=json > "$tmp/by-hand.json" || exit 1
[ "$(jq -c '.summary[0].values' "$tmp/by-hand.json")" = \
  "$(jq -c '.tables[1].rows[1].cells[2].values' "$tmp/2016.json")" ] ||
	fail "the preset's IPERF with dom0 load credit2:era=2016-full cell differs from the experiment's"

# The 2019 preset: HT, noHT and csc in each configuration, the bare-metal
# rows; noHT runs its configuration's -noht.xml (Xen's smt=0: 4 pCPUs, no
# SMT loss, dom0 of 4 vCPUs, the guests' vCPUs as with HT), and its cells
# are the experiment's of that file.
grep -q '^    kernbench BM: make -j (-j2, -j4, -j8, -j16) x BM-HT, BM-noHT$' "$tmp/list" ||
	fail "--list-evals: the 2019 preset's BM table is not as expected"
for c in dom0 HVM-v8 HVM-v4 HVMx2-v8; do
	grep -q "^    kernbench $c: make -j (-j2, -j4, -j8, -j16) x HT, noHT, csc\$" "$tmp/list" ||
		fail "--list-evals: the 2019 preset's $c table has not HT, noHT, csc: $(grep "kernbench $c:" "$tmp/list")"
done
for c in dom0 HVM-v8 HVM-v4 HVMx2-v8; do
	for p in udp tcp; do
		grep -q "^    netperf-$p $c: send size (send-64, send-256, send-2048, send-8192) x HT, noHT, csc\$" "$tmp/list" ||
			fail "--list-evals: the 2019 preset's netperf-$p $c table is not as expected: $(grep "netperf-$p $c:" "$tmp/list")"
	done
done
for c in dom0 HVMx2-v8 HVM-v8 HVM-v4; do
	grep -q "^    hackbench-process-pipes $c: groups (1, 3, 5, 7, 12, 18, 24, 30, 32) x HT, noHT, csc\$" "$tmp/list" ||
		fail "--list-evals: the 2019 preset's hackbench $c table is not as expected: $(grep "hackbench-process-pipes $c:" "$tmp/list")"
done
for c in dom0 HVM-v8 HVM-v4 HVMx2-v8; do
	grep -q "^    mutilate $c: client threads (1, 3, 5, 7, 8) x HT, noHT, csc\$" "$tmp/list" ||
		fail "--list-evals: the 2019 preset's mutilate $c table is not as expected: $(grep "mutilate $c:" "$tmp/list")"
done
for c in dom0 HVM-v8 HVM-v4 HVMx2-v8; do
	grep -q "^    netperf-unix $c: send size (64, 256, 2048, 8192) x HT, noHT, csc\$" "$tmp/list" ||
		fail "--list-evals: the 2019 preset's netperf-unix $c table is not as expected: $(grep "netperf-unix $c:" "$tmp/list")"
done
for c in dom0 HVMx2-v8 HVM-v8 HVM-v4; do
	grep -q "^    stream $c: kernel (copy, scale, add, triad) x HT, noHT, csc\$" "$tmp/list" ||
		fail "--list-evals: the 2019 preset's stream $c table is not as expected: $(grep "stream $c:" "$tmp/list")"
done
# Its cells, run: in the plain build only (lib.sh, sanitized).  The
# sanitizer build runs a sample of the 2019 cells once in tests/validate.sh
# (--rows=first,-j8: every table, workload, scenario file and column),
# through the same preset; this block's checks are of the preset's layout, which
# no sanitizer changes (the block is not indented, for the diffs' sake).
if ! sanitized; then
run_ok --eval=2019-core-scheduling --iterations=1 --jobs=2 --format=json > "$tmp/2019.json" || exit 1
json_check "$tmp/2019.json" '
files = {"dom0": "dom0", "HVM-v8": "hvm-v8", "HVM-v4": "hvm-v4", "HVMx2-v8": "hvmx2-v8"}
guests = {"dom0": [], "HVM-v8": [8], "HVM-v4": [4], "HVMx2-v8": [8, 8]}
benches = (["kernbench"] * 4 + ["netperf-udp"] * 4 + ["netperf-tcp"] * 4 + ["mutilate"] * 4 +
           ["hackbench-process-pipes"] * 2 + ["stream"] * 2 +
           ["hackbench-process-pipes"] * 2 + ["stream"] * 2 + ["kernbench"] +
           ["netperf-unix"] * 4)
assert [t["config"] for t in doc["tables"]] == (list(files) * 4 + ["dom0", "HVMx2-v8"] * 2 +
                                                ["HVM-v8", "HVM-v4"] * 2 + ["BM"] +
                                                list(files)), doc["tables"]
assert [t["benchmark"] for t in doc["tables"]] == benches, [t["benchmark"] for t in doc["tables"]]
for t in doc["tables"][:24]:
    assert t["columns"] == ["HT", "noHT", "csc"], t["columns"]
    for r in t["rows"]:
        for k, c in enumerate(r["cells"]):
            noht = t["columns"][k] == "noHT"
            f = files[t["config"]] + ("-noht.xml" if noht else ".xml")
            assert c["scenario"].endswith("2019-core-scheduling/" + f), (t["config"], c["scenario"])
            run = doc["runs"][c["first_run"]]
            vcpus = [len(d["vcpus"]) for d in run["domains"]]
            assert vcpus == [4 if noht else 8] + guests[t["config"]], (t["config"], vcpus)
            pcpus = {p for d in run["domains"] for v in d["vcpus"] for p in v["pcpus"]}
            smt = sum(v["lost_ns"]["smt"] for d in run["domains"] for v in d["vcpus"])
            if noht:
                assert pcpus <= {0, 1, 2, 3} and smt == 0, (t["config"], r["name"], pcpus, smt)
            elif (t["columns"][k] == "HT" and t["config"] != "HVM-v4" and
                  r["name"] in ("-j8", "-j16")):
                assert max(pcpus) >= 4, (t["config"], r["name"], t["columns"][k], pcpus)
for net in doc["tables"][4:12]:
    assert [r["name"] for r in net["rows"]] == ["send-64", "send-256", "send-2048", "send-8192"], net["rows"]
    assert (net["unit"], net["better"], net["center"]) == ("Mbit/s", "higher", "hmean"), net
    test = ":test=TCP_STREAM" if net["benchmark"] == "netperf-tcp" else ""
    assert [c["workload"] for c in net["rows"][3]["cells"]] == ["netperf%s:size=8192:time=1s" % test] * 3, net["rows"][3]
for mut in doc["tables"][12:16]:
    assert [r["name"] for r in mut["rows"]] == ["1", "3", "5", "7", "8"], mut["rows"]
    assert (mut["unit"], mut["better"], mut["center"]) == ("req/s", "higher", "hmean"), mut
    assert [c["workload"] for c in mut["rows"][4]["cells"]] == ["mutilate:threads=8"] * 3, mut["rows"][4]
for hb in doc["tables"][20:22]:
    assert [c["workload"] for c in hb["rows"][8]["cells"]] == ["hackbench:groups=32"] * 3, hb["rows"][8]
for st in doc["tables"][22:24]:
    assert [c["workload"] for c in st["rows"][3]["cells"]] == ["stream:figure=triad"] * 3, st["rows"][3]
assert doc["tables"][24]["columns"] == ["BM-HT", "BM-noHT"]
# netperf-unix: STREAM_STREAM over a Unix socket, noHT on the -noht.xml files
for net in [t for t in doc["tables"] if t["benchmark"] == "netperf-unix"]:
    assert net["columns"] == ["HT", "noHT", "csc"], net["columns"]
    assert [r["name"] for r in net["rows"]] == ["64", "256", "2048", "8192"], net["rows"]
    assert (net["unit"], net["better"], net["center"]) == ("Mbit/s", "higher", "hmean"), net
    assert ([c["workload"] for c in net["rows"][0]["cells"]] ==
            ["netperf:test=STREAM_STREAM:size=64:time=1s"] * 3), net["rows"][0]
    assert net["rows"][0]["cells"][1]["scenario"].endswith(files[net["config"]] + "-noht.xml")
'
run_ok --scenario="$SCHEDSIM_EXAMPLES/2019-core-scheduling/hvm-v8-noht.xml" \
	--sched=credit2:era=4.17:reset=skipped:load_continue=off --workload=kernbench:jobs=8 \
	--iterations=1 --format=json > "$tmp/noht-by-hand.json" || exit 1
[ "$(jq -c '.summary[0].values' "$tmp/noht-by-hand.json")" = \
  "$(jq -c '.tables[1].rows[2].cells[1].values' "$tmp/2019.json")" ] ||
	fail "the preset's HVM-v8 -j8 noHT cell differs from the experiment of hvm-v8-noht.xml"
# ... and stream's: the host's memory bandwidth is the file's, not the preset's
run_ok --scenario="$SCHEDSIM_EXAMPLES/2019-core-scheduling/dom0.xml" \
	--sched=credit2:era=4.17:reset=skipped:load_continue=off --workload=stream:figure=copy \
	--iterations=1 --format=json > "$tmp/stream-by-hand.json" || exit 1
[ "$(jq -c '.summary[0].values' "$tmp/stream-by-hand.json")" = \
  "$(jq -c '.tables[18].rows[0].cells[0].values' "$tmp/2019.json")" ] ||
	fail "the preset's stream dom0 copy HT cell differs from the experiment of dom0.xml"
fi

# The text form, with the HTML page and the plots of the same runs.
plots=""
command -v gnuplot > /dev/null 2>&1 && plots="--plot=$tmp/plots"
# shellcheck disable=SC2086  # $plots is one option or none
run_ok --eval=2012-numa-placement --iterations=3 --jobs=2 --report="$tmp/eval.html" $plots \
	> "$tmp/numa.txt" || exit 1
grep -q '^make-xen -j4 VM#1 (build_time, s; Amean: lower is better)$' "$tmp/numa.txt" ||
	fail "no table title: $(cat "$tmp/numa.txt")"
json_check "$tmp/numa.json" "
import re
blocks = open('$tmp/numa.txt').read().split('\\n\\n')
for t in doc['tables']:
    block = [b for b in blocks if b.startswith(t['benchmark'] + ' ' + t['config'] + ' (')]
    assert len(block) == 1, t['benchmark']
    lines = block[0].splitlines()
    assert len(lines) == 2 + len(t['rows']), lines
    for r, line in zip(t['rows'], lines[2:]):
        op = 'Hmean' if t['center'] == 'hmean' else 'Amean'
        assert line.startswith(op + ' ' + r['name'] + ' '), (line, r['name'])
        cells = re.findall(r' ([0-9.]+) ([(*]) *(-?[0-9.]+)%([)*])', line)
        assert len(cells) == len(r['cells']), line
        for k, ((v, o, g, c), cell) in enumerate(zip(cells, r['cells'])):
            assert abs(float(v) - cell['center']) <= 0.005 * cell['center'], (v, cell)
            if k == 0:
                assert (o, float(g), c) == ('(', 0.0, ')'), line
            else:
                assert abs(float(g) - cell['gain_pct']) <= 0.006, (g, cell)
                assert (o, c) == (('*', '*') if cell['significant'] else ('(', ')')), line
"
python3 "${srcdir:-.}/tests/report/html_check.py" --page "$tmp/eval.html" || fail "the --report page"
[ "$(grep -o '<svg' "$tmp/eval.html" | wc -l)" -eq 1 ] || fail "not a chart per table in the page"
grep -q '<td>Amean</td><td>worst case</td>' "$tmp/eval.html" || fail "no worst case row in the page"
if [ -n "$plots" ]; then
	p=eval-make-xen_-j4_VM_1
	[ -s "$tmp/plots/$p.png" ] && [ -s "$tmp/plots/$p.dat" ] || fail "--plot: no $p.png or .dat"
	[ "$(grep -vc '^#' "$tmp/plots/$p.dat")" -eq 8 ] || fail "--plot: not one line per cell"
fi

# Markdown and CSV (a small preset of the examples).
run_ok --eval=2016-schedbench-pool --iterations=2 --format=markdown > "$tmp/sb.md" || exit 1
grep -q '^| Amean | A workers |' "$tmp/sb.md" || grep -q '^| Hmean | A workers |' "$tmp/sb.md" ||
	fail "markdown: no A workers row: $(cat "$tmp/sb.md")"
run_ok --eval=2016-schedbench-pool --iterations=2 --format=csv > "$tmp/sb.csv" || exit 1
[ "$(wc -l < "$tmp/sb.csv")" -eq 5 ] || fail "csv: not a header and four cells"
grep -q '^2016-schedbench-pool,schedbench,4a+4b,B workers,credit2,run_share,share,higher,hmean,2,' \
	"$tmp/sb.csv" || fail "csv: no B workers credit2 line: $(cat "$tmp/sb.csv")"

# Bad input: one line, exit 2.
expect_error "'nosuch' is not a named evaluation (valid: 2019-core-scheduling, 2016-credit2-series" --eval=nosuch
for opt in --sched=credit2 --workload=iperf --dom0-load=on --host=nodes=1 \
	   --scenario=examples/2016-headline-host/scenario.xml --duration=1s \
	   --trace="$tmp/t.xen" --shard=1/2; do
	expect_error "--eval=2016-credit2-series: ${opt%%=*}" --eval=2016-credit2-series "$opt"
done
if command -v gnuplot > /dev/null 2>&1; then
	expect_error "--eval=2016-credit2-series: --plot-timeline" --eval=2016-credit2-series \
		--plot="$tmp/p" --plot-window=1s:2s
fi
expect_error "--iterations:" --eval=2016-credit2-series --iterations=0
SCHEDSIM_EXAMPLES=/nonexistent
expect_error "SCHEDSIM_EXAMPLES=/nonexistent: not a readable folder" --eval=2016-schedbench-pool
SCHEDSIM_EXAMPLES="${srcdir:-.}/examples"
expect_error "--report: cannot write" --eval=2016-schedbench-pool --report=/nonexistent/x.html

[ $failures -eq 0 ] || exit 1
echo "eval: ok"
