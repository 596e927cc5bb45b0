#!/bin/sh
# The cross-scheduler error of xentrace replay (issue 35, doc/traces.md
# "Replayed under another scheduler"): a scenario S run under scheduler A
# with --trace, its trace replayed under scheduler B (open and closed), set
# against S simulated directly under B.
#
#   bench/replay-cross.sh [--scheds=A,B,...] [--modes=open,closed]
#                         [--host=HOST.xml] [--format=markdown|json] -- SCHEDSIM-ARGS...
#
#   bench/replay-cross.sh -- --scenario=tests/scenarios/xentrace.xml
#   bench/replay-cross.sh -- --workload=make-xen --dom0-load=on
#
# SCHEDSIM-ARGS make one run of S (a --scenario, or a --workload with
# --dom0-load; --seed, --duration, --hw as wanted).  The replay's host is
# --host's, else --scenario's, else the embedded scenario's (2 sockets x 4
# cores x 2 threads, 2 nodes: the host of --workload runs); a --hw= and a
# --host= among them (smt=off, lscpu:FILE, ...: one of each) are given to
# the replays too, so that they run on the host S ran on.  SCHEDSIM is the
# binary (default ./schedsim, then schedsim on PATH).
#
# For every A and B of --scheds (default credit1,credit2) and every mode,
# one row per domain:
#   rec_ms       the domain's run time in A's run (what the trace holds)
#   direct_ms    its run time in S's run under B (the reference)
#   replay_ms    its run time in the replay under B, over the direct run's
#                length (a make-xen build ends when it is done, so B's
#                direct run is not A's length)
#   err          replay_ms against direct_ms, per cent
#   rec_err      rec_ms against direct_ms, per cent: the error of taking the
#                trace's figures as B's without replaying
#   p50/p99      wake-to-run latency (us) of the domain's median vCPU (the
#                median over its vCPUs with 10 or more wake-ups of their p50,
#                and of their p99), direct under B and replayed
# and one row per (A, B, mode) with the direct run's figure of merit where
# it has one (build_time, throughput, ...) and the replay's finish_time: when
# the last burst of the domain that has the figure (all domains' when none
# has) ended, replayed with 4 times the trace's length to run in.
# A replay has no figure of merit of its own: it replays CPU time, not
# builds or bytes; finish_time is comparable with a figure that is the time
# the recorded work took (build_time) and with nothing else.
set -u
scheds=credit1,credit2
modes=open,closed
host=
format=markdown
while [ $# -gt 0 ]; do
	case $1 in
	--scheds=*) scheds=${1#*=} ;;
	--modes=*) modes=${1#*=} ;;
	--host=*) host=${1#*=} ;;
	--format=*) format=${1#*=} ;;
	--) shift; break ;;
	*) echo "replay-cross.sh: unknown option '$1' (then -- and schedsim's arguments)" >&2; exit 2 ;;
	esac
	shift
done
case $format in markdown|json) ;; *)
	echo "replay-cross.sh: --format: '$format' is not markdown or json" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || { echo "replay-cross.sh: give schedsim's arguments for the scenario after --" >&2; exit 2; }
if [ -z "${SCHEDSIM:-}" ]; then
	if [ -x ./schedsim ]; then SCHEDSIM=./schedsim; else SCHEDSIM=schedsim; fi
fi
command -v jq > /dev/null || { echo "replay-cross.sh: needs jq" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/replay-cross.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

die() { echo "replay-cross.sh: $*" >&2; exit 1; }

hw=
hostarg=
for a in "$@"; do
	case $a in
	--scenario=*) [ -n "$host" ] || host=${a#--scenario=} ;;
	--hw=*) hw=$a ;;
	--host=*)
		[ -z "$hostarg" ] || { echo "replay-cross.sh: give schedsim one --host= (the replays take it too)" >&2; exit 2; }
		hostarg=$a ;;
	esac
done
if [ -z "$host" ]; then
	host=$work/host.xml
	cat > "$host" <<XML
<scenario><host sockets="2" cores-per-socket="4" threads-per-core="2" nodes="2" autoballoon="on"/><domain name="dom0"/></scenario>
XML
fi

scheds=$(echo "$scheds" | tr , ' ')
modes=$(echo "$modes" | tr , ' ')
for s in $scheds; do
	"$SCHEDSIM" --sched="$s" "$@" --format=json --trace="$work/$s.xt" > "$work/direct-$s.json" ||
		die "the run of S under $s failed"
done
rows=$work/rows.json
: > "$rows"
for a in $scheds; do
	for b in $scheds; do
		for m in $modes; do
			len=$(jq '.runs[0].sim_ns' "$work/direct-$b.json")
			rlen=$(jq '.runs[0].sim_ns' "$work/direct-$a.json")
			case $len$rlen in *[!0-9]*|'') die "no run length (runs[0].sim_ns) in direct-$a.json or direct-$b.json" ;; esac
			"$SCHEDSIM" replay "$work/$a.xt" --sched="$b" --mode="$m" --scenario="$host" \
				--duration="${len}ns" ${hw:+"$hw"} ${hostarg:+"$hostarg"} --format=json > "$work/rep.json" ||
				die "the replay of $a's trace under $b ($m) failed"
			"$SCHEDSIM" replay "$work/$a.xt" --sched="$b" --mode="$m" --scenario="$host" \
				--duration="$((4 * rlen))ns" ${hw:+"$hw"} ${hostarg:+"$hostarg"} --format=json > "$work/fin.json" ||
				die "the long replay of $a's trace under $b ($m) failed"
			jq -c -n --arg a "$a" --arg b "$b" --arg m "$m" \
				--slurpfile rec "$work/direct-$a.json" --slurpfile dir "$work/direct-$b.json" \
				--slurpfile rep "$work/rep.json" --slurpfile fin "$work/fin.json" '
				def run(d): [d.vcpus[].run_ns] | add;
				def med(xs): (xs | sort) as $s | if ($s | length) == 0 then null
					else $s[(($s | length) - 1) / 2 | floor] end;
				def lat(d; p): med([d.vcpus[] | select(.wakeups >= 10) | .wake_latency_ns[p]])
					| if . == null then null else . / 1000 end;
				def pct(x; y): if y == 0 then null else 100 * (x - y) / y end;
				def byid(r): [r.runs[0].domains[] | {key: "\(.domid)", value: .}] | from_entries;
				def rid(d): if d.name == "dom0" then "0" else d.name[1:] end;
				byid($rec[0]) as $rc | byid($dir[0]) as $dr |
				([$rep[0].runs[0].domains[] | {key: rid(.), value: .}] | from_entries) as $rp |
				($dr | keys | sort_by(tonumber)[]) as $k |
				$dr[$k] as $d | $rp[$k] as $p | $rc[$k] as $r |
				{a: $a, b: $b, mode: $m, domain: $d.name, domid: ($k | tonumber),
				 rec_ms: (if $r then run($r) / 1e6 else null end),
				 direct_ms: (run($d) / 1e6),
				 replay_ms: (if $p then run($p) / 1e6 else 0 end),
				 p50_direct: lat($d; "p50"), p50_replay: (if $p then lat($p; "p50") else null end),
				 p99_direct: lat($d; "p99"), p99_replay: (if $p then lat($p; "p99") else null end)}
				| .err = pct(.replay_ms; .direct_ms)
				| .rec_err = (if .rec_ms then pct(.rec_ms; .direct_ms) else null end)' >> "$rows" ||
				die "comparing $a's replay under $b ($m) failed"
			jq -c -n --arg a "$a" --arg b "$b" --arg m "$m" \
				--slurpfile dir "$work/direct-$b.json" --slurpfile fin "$work/fin.json" '
				def rid(d): if d.name == "dom0" then 0 else (d.name[1:] | tonumber) end;
				$dir[0].runs[0].metric as $fm |
				([$dir[0].runs[0].domains[] | select(.metric != null) | .domid] | first) as $fd |
				[$fin[0].runs[0].domains[] | select($fd == null or rid(.) == $fd)] as $fdoms |
				{a: $a, b: $b, mode: $m, figure: ($fm.name // null),
				 unit: ($fm.unit // null), direct: ($fm.value // null),
				 finish_domain: (if $fd == null then "all" else ($fdoms[0].name // null) end),
				 finish_s: ([$fdoms[].metric.value // empty] |
					    if length > 0 and length == ($fdoms | length) then max else null end),
				 length_s: ($dir[0].runs[0].sim_ns / 1e9)}
				| .finish_err = (if .figure == "build_time" and .finish_s != null
					then 100 * (.finish_s - .direct) / .direct else null end)' >> "$rows" ||
				die "comparing $a's replay under $b ($m) failed"
		done
	done
done

if [ "$format" = json ]; then
	jq -s '{domains: [.[] | select(has("domain"))], figures: [.[] | select(has("figure"))]}' "$rows"
	exit 0
fi
echo "schedsim $(printf '%s ' "$@")| trace under A, replayed under B, against S under B"
echo
echo "| A | B | mode | domain | under A (ms) | under B (ms) | replay (ms) | replay err | trace err | p50 B / replay (us) | p99 B / replay (us) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
jq -r -s '
	def f(x; n): if x == null then "-" else (x * pow(10; n) | round) / pow(10; n) | tostring end;
	def pc(x): if x == null then "-" else (if x >= 0 then "+" else "" end) + f(x; 2) + " %" end;
	.[] | select(has("domain")) |
	"| \(.a) | \(.b) | \(.mode) | \(.domain) | \(f(.rec_ms; 1)) | \(f(.direct_ms; 1)) | \(f(.replay_ms; 1)) | \(pc(.err)) | \(pc(.rec_err)) | \(f(.p50_direct; 0)) / \(f(.p50_replay; 0)) | \(f(.p99_direct; 0)) / \(f(.p99_replay; 0)) |"' "$rows"
echo
echo "| A | B | mode | figure under B | replay finish_time (s) | of | error |"
echo "|---|---|---|---|---|---|---|"
jq -r -s '
	def f(x; n): if x == null then "-" else (x * pow(10; n) | round) / pow(10; n) | tostring end;
	.[] | select(has("figure")) |
	"| \(.a) | \(.b) | \(.mode) | \(if .figure then "\(.figure) \(f(.direct; 3)) \(.unit)" else "none (length \(f(.length_s; 3)) s)" end) | \(f(.finish_s; 3)) | \(.finish_domain) | \(if .finish_err == null then "-" else f(.finish_err; 2) + " %" end) |"' "$rows"
