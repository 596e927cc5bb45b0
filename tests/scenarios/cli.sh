#!/bin/sh
# The command line end to end: bad flags exit 2 with one line, the null
# scheduler's behaviour through a scenario file and JSON, same seed same
# bytes, and the default scenario under the invariant checker.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"

expect_error "unknown scheduler" --sched=bogus
expect_error "unknown scheduler 'bogus' (valid: " --sched=null,bogus
expect_error "--format: 'xml' is not valid (valid: text, json" --format=xml
expect_error "--duration:" --duration=5parsecs
expect_error "not valid or lacks its value" --no-such-flag
expect_error "unexpected argument 'extra'" extra
expect_error "/nonexistent.xml" --scenario=/nonexistent.xml
expect_error "null" --sched=null:foo=1

out=$(run_ok --version) && case "$out" in "schedsim "*) ;; *) fail "--version printed '$out'";; esac
run_ok --list-schedulers | grep -q '^null' || fail "--list-schedulers does not list null"
run_ok --list-workloads | grep -q '^cpu-hog' || fail "--list-workloads does not list cpu-hog"

# Three one-vCPU hogs on two pCPUs under null for 2 s: two run 2 s, the third 0 s.
cat > "$tmp/three.xml" <<'XML'
<scenario duration="2s" seed="4">
  <host sockets="1" cores-per-socket="2" threads-per-core="1"/>
  <domain name="a"><workload type="cpu-hog"/></domain>
  <domain name="b"><workload type="cpu-hog"/></domain>
  <domain name="c"><workload type="cpu-hog"/></domain>
</scenario>
XML
# Through lib.sh's run_json and check_run, and jq_dom for expect's filters.
run_json null "$tmp/three.xml" && check_run null '
t = [d["vcpus"][0]["run_ns"] for d in run["domains"]]
assert abs(t[0] - 2e9) < 1e6 and abs(t[1] - 2e9) < 1e6, t
assert t[2] == 0, t
assert dom("c") is run["domains"][2] and spec == "null", (dom("c")["name"], spec)
'
[ "$(jq -c "[$(jq_dom c) | .vcpus[0].run_ns]" "$tmp/out.json")" = "[0]" ] ||
	fail "jq_dom c does not select the one domain c: $(jq -c "[$(jq_dom c)]" "$tmp/out.json")"

# expect_error returns 1, and counts a failure, when schedsim does not fail.
failures_here=$failures
expect_error "unknown scheduler" --version 2> /dev/null
rc=$? counted=$((failures - failures_here))
failures=$failures_here
if [ $rc -eq 0 ] || [ $counted -eq 0 ]; then
	fail "expect_error on a run that exits 0 returned $rc and counted $counted failure(s)"
fi

# Same seed, same bytes; another seed, other bytes.
run_ok --sched=null --format=json --duration=2s --seed=9 > "$tmp/a.json"
run_ok --sched=null --format=json --duration=2s --seed=9 > "$tmp/b.json"
run_ok --sched=null --format=json --duration=2s --seed=10 > "$tmp/c.json"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "same seed gave different output"
cmp -s "$tmp/a.json" "$tmp/c.json" && fail "different seeds gave the same output"

# The embedded default scenario under the invariant checker, and --output.
run_ok --sched=null --duration=1s --check --output="$tmp/out.txt" > /dev/null
grep -q "^dom0" "$tmp/out.txt" || fail "--output did not receive the report"
ls "$tmp" | grep -q '\.tmp\.' && fail "--output left a temporary file"

finish
