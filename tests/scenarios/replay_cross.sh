#!/bin/sh
# bench/replay-cross.sh (doc/traces.md, "Replayed under another
# scheduler"): tests/scenarios/xentrace_roundtrip.xml traced under credit1
# and credit2, each trace replayed under both, open and closed, against the
# scenario run under the replaying scheduler.  What must hold whatever the
# schedulers do: the output has a row for every (A, B, mode) and domain,
# with numbers where numbers belong; with A = B the reference is the
# recorded run itself and the replay gives every domain its run time within
# 1 % (the round trip of tests/scenarios/xentrace.sh); no replay gives a
# domain more run time than its trace holds (a replay asks for the recorded
# work and no more); a scenario without a figure of merit has no
# finish-time error; the markdown tables have as many cells on every line as
# in their header.  The size of the cross-scheduler error is not tested:
# nothing bounds it (doc/traces.md says where it comes from).
. "${srcdir:-.}/tests/scenarios/lib.sh"
cross="${srcdir:-.}/bench/replay-cross.sh"
rt="${srcdir:-.}/tests/scenarios/xentrace_roundtrip.xml"
export SCHEDSIM

if sh "$cross" --format=json -- --scenario="$rt" > "$tmp/report.json" 2> "$tmp/stderr"; then
	expect "a row per (A, B, mode) and domain: 2 x 2 x 2 x 4" \
		'[.domains[] | "\(.a) \(.b) \(.mode) \(.domain)"] | (length == 32) and (unique | length == 32)' \
		'.domains | length'
	expect "a figure row per (A, B, mode)" \
		'[.figures[] | "\(.a) \(.b) \(.mode)"] | unique | length == 8' '.figures | length'
	expect "every domain row has its run times as numbers" \
		'[.domains[] | [.rec_ms, .direct_ms, .replay_ms, .err, .rec_err] | map(type == "number") | all] | all' \
		'[.domains[] | select([.rec_ms, .direct_ms, .replay_ms, .err, .rec_err] | map(type == "number") | all | not)]'
	expect "latencies are numbers or null (a vCPU with fewer than 10 wake-ups)" \
		'[.domains[] | [.p50_direct, .p50_replay, .p99_direct, .p99_replay] | map(. == null or type == "number") | all] | all' \
		'[.domains[] | [.p50_direct, .p50_replay, .p99_direct, .p99_replay]]'
	# (both figures come from one direct run: this checks the script's
	# wiring of A and B, not the model)
	expect "A = B: the reference is the recorded run" \
		'[.domains[] | select(.a == .b) | .rec_ms == .direct_ms] | all' \
		'[.domains[] | select(.a == .b and .rec_ms != .direct_ms)]'
	expect "A = B: every domain's run time within 1 % (the round trip)" \
		'[.domains[] | select(.a == .b) | .err | fabs <= 1] | all' \
		'[.domains[] | select(.a == .b and (.err | fabs) > 1)]'
	expect "no replay gives a domain more than its trace holds" \
		'[.domains[] | .replay_ms <= .rec_ms * 1.001 + 0.01] | all' \
		'[.domains[] | select(.replay_ms > .rec_ms * 1.001 + 0.01)]'
	expect "no figure of merit, no finish-time error; every replay finished" \
		'[.figures[] | .figure == null and .finish_err == null and .finish_domain == "all" and (.finish_s | type) == "number"] | all' \
		'.figures'
	[ -s "$tmp/stderr" ] && fail "replay-cross.sh wrote on stderr: $(cat "$tmp/stderr")"
else
	fail "replay-cross.sh --format=json failed: $(cat "$tmp/stderr")"
fi

# the markdown tables, on a short run: as many cells on each line as in its header
if sh "$cross" --scheds=credit2 --modes=open -- --scenario="$rt" --duration=1s \
   > "$tmp/table.md" 2> "$tmp/stderr"; then
	awk -F'|' '/^\|/ { if ($2 ~ /^ A $/) n = NF; else if (NF != n) bad++; rows++ }
		END { exit !(rows == 9 && !bad) }' "$tmp/table.md" ||
		fail "replay-cross.sh's markdown is not well formed: $(cat "$tmp/table.md")"
	grep -q '^| credit2 | credit2 | open | web | ' "$tmp/table.md" ||
		fail "no row of the web domain: $(cat "$tmp/table.md")"
else
	fail "replay-cross.sh (markdown) failed: $(cat "$tmp/stderr")"
fi

# its own bad usage: one line, exit 2
for args in "--format=html -- --scenario=$rt" "--bogus" ""; do
	# shellcheck disable=SC2086
	sh "$cross" $args > "$tmp/stdout" 2> "$tmp/stderr"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l < "$tmp/stderr")" -eq 1 ] && [ ! -s "$tmp/stdout" ] ||
		fail "replay-cross.sh $args: exit $rc, stderr '$(cat "$tmp/stderr")'"
done
finish
