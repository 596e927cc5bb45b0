#!/bin/sh
# examples/2011-planetlab-consolidation/plot.py: its bad inputs (a file that
# is missing, not JSON, not a schedsim run, a run without the demand table,
# no gnuplot) are one line naming the file, exit 2, no traceback; with
# gnuplot and the PlanetLab traces (../shared/traces beside the tree), two
# short runs of the example (20 s of the day, as tests/examples.sh runs it)
# make a non-empty PNG (and SVG with --svg) and the gnuplot data beside it.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
ex="${srcdir:-.}/examples/2011-planetlab-consolidation"
plot="$ex/plot.py"
# The interpreter itself (not a wrapper that looks for it in PATH: the
# missing gnuplot is checked with an empty PATH).
py=$(python3 -c 'import sys; print(sys.executable)' 2> /dev/null) || py=
if [ -z "$py" ]; then
	echo "SKIP: no python3"
	exit 77
fi

# plot_error TEXT ARGS...: plot.py exits 2 with one line on stderr that
# holds TEXT (a file name, a reason) and no traceback; with path=DIRS set,
# under PATH=DIRS.
path=$PATH
plot_error() {
	want=$1
	shift
	env PATH="$path" "$py" "$plot" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
	rc=$?
	[ $rc -eq 2 ] || fail "plot.py $*: exit $rc, not 2"
	[ "$(wc -l < "$tmp/stderr")" -eq 1 ] || fail "plot.py $*: stderr is not one line: $(cat "$tmp/stderr")"
	grep -qF -- "$want" "$tmp/stderr" || fail "plot.py $*: '$(cat "$tmp/stderr")' lacks '$want'"
	grep -q Traceback "$tmp/stderr" && fail "plot.py $*: a traceback"
	[ -s "$tmp/stdout" ] && fail "plot.py $*: printed on stdout"
}

# A single run without a trace workload: no demand table.
"$SCHEDSIM" --scenario="${srcdir:-.}/examples/2016-schedbench-pool/4a4b.xml" --sched=credit2 \
	--duration=100ms --format=json --output="$tmp/nodemand.json" 2> "$tmp/err" ||
	fail "4a4b.xml's short run: $(cat "$tmp/err")"
printf 'not json\n' > "$tmp/text.json"
printf '{"runs": [{"sim_ns": 1}]}\n' > "$tmp/other.json"
# A demand table written by hand, for the missing gnuplot.
cat > "$tmp/hand.json" <<'EOF'
{"version": "0", "seed": 1, "runs": [{"sim_ns": 1000, "domains": [
 {"name": "vm0", "demand": {"demand_ns": 100, "delivered_ns": 90},
  "vcpus": [{"wakeups": 3, "wake_latency_ns": {"p50": 1000, "p99": 5000}, "pcpus": [0]}]}]}]}
EOF
# An experiment's JSON (two runs): one run a file, as table.py reads it.
tr -d '\n' < "$tmp/hand.json" | sed 's/"runs": \[\(.*\)\]}$/"runs": [\1, \1]}/' > "$tmp/two.json"
plot_error "$tmp/two.json: 2 runs, one single run wanted" --output="$tmp/x.png" a="$tmp/two.json"
plot_error "$tmp/nodemand.json: no demand table" --output="$tmp/x.png" a="$tmp/nodemand.json"
plot_error "$tmp/text.json: not JSON" --output="$tmp/x.png" a="$tmp/text.json"
plot_error "$tmp/other.json: not a schedsim" --output="$tmp/x.png" a="$tmp/other.json"
plot_error "$tmp/absent.json" --output="$tmp/x.png" a="$tmp/absent.json"
plot_error "'$tmp/hand.json' is not LABEL=RUN.json" --output="$tmp/x.png" "$tmp/hand.json"
plot_error "not a .png" --output="$tmp/x.jpg" a="$tmp/hand.json"
# The input is read first: a bad file is named even without gnuplot.
PATH=/nonexistent "$py" "$plot" --output="$tmp/x.png" a="$tmp/text.json" 2> "$tmp/stderr" > /dev/null
grep -q "text.json: not JSON" "$tmp/stderr" || fail "without gnuplot, a bad file: $(cat "$tmp/stderr")"
path=/nonexistent
plot_error "gnuplot not found" --output="$tmp/x.png" a="$tmp/hand.json"
path=$PATH
[ -e "$tmp/x.png" ] && fail "plot.py wrote a PNG after an error"

traces="${srcdir:-.}/../shared/traces/planetlab/20110303"
if ! command -v gnuplot > /dev/null; then
	echo "no gnuplot: the picture is not drawn"
elif [ ! -d "$traces" ]; then
	echo "no $traces: the picture is not drawn"
else
	for s in credit1 credit2; do
		"$SCHEDSIM" --scenario="$ex/host.xml" --sched=$s --duration=20s --format=json \
			--output="$tmp/host-$s.json" 2> "$tmp/err" || fail "host.xml $s: $(cat "$tmp/err")"
	done
	mkdir "$tmp/out"
	"$py" "$plot" --output="$tmp/out/c.png" --svg "host, credit1=$tmp/host-credit1.json" \
		"host, credit2=$tmp/host-credit2.json" > "$tmp/stdout" 2> "$tmp/stderr" ||
		fail "plot.py on two runs: $(cat "$tmp/stderr")"
	[ -s "$tmp/stderr" ] && fail "plot.py on two runs wrote on stderr: $(cat "$tmp/stderr")"
	for f in c.png c.svg c.dat c.gp; do
		[ -s "$tmp/out/$f" ] || fail "plot.py on two runs: no $f (or empty)"
	done
	head -c 8 "$tmp/out/c.png" | od -An -c | grep -q 'P   N   G' || fail "c.png is not a PNG"
	# Each run: 100 VMs ranked by delivered / demand, then its p99 CDF.
	[ "$(grep -c '^[0-9]' "$tmp/out/c.dat")" -ge 300 ] || fail "c.dat: fewer than 300 data lines"
	echo "ok: plot.py drew two runs"
fi
finish
