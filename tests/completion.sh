#!/bin/sh
# Bash completion (contrib/completion/schedsim): what TAB offers after a
# line typed so far.  The line is split into words as bash does with its
# default COMP_WORDBREAKS (at blanks, '=' and ':'), COMP_WORDS[0] is the
# schedsim under test, and the candidates are what COMPREPLY holds, which
# bash puts in place of the last word it split off.  Scheduler names,
# parameters and values come from the binary's --list-schedulers, so the
# expected words here also catch a change of that listing's layout.
# Then a real interactive bash on a pseudo-terminal completes a few lines
# (tests/completion_pty.py).  SKIP (77) without bash.
command -v bash > /dev/null 2>&1 || { echo "no bash: SKIP"; exit 77; }
# The sanitizer build (SCHEDSIM_SANITIZED, tests/scenarios/lib.sh): the
# schedsim commands the completion runs are --help (tests/man.sh),
# --list-schedulers, --list-workloads (tests/scenarios/cli.sh) and
# --list-evals (tests/eval.sh), run there by those; the rest is bash's.
if [ -n "${SCHEDSIM_SANITIZED:-}" ]; then
	echo "SKIP: in the sanitizer build tests/man.sh, tests/scenarios/cli.sh and tests/eval.sh run these commands for memory errors; the completion is checked in the plain build"
	exit 77
fi
srcdir=${srcdir:-.}
SCHEDSIM=${SCHEDSIM:-./schedsim}
export SCHEDSIM
bash -s "$srcdir/contrib/completion/schedsim" "$srcdir/contrib/completion/schedsim-xen-module" <<'BASH'
set -u
source "$1"
source "$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fn=_schedsim
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'

# complete LINE [FUNCTION]: sets COMPREPLY as bash would for LINE with the
# cursor at its end (FUNCTION: the completion function, _schedsim).
complete_line() {
	local line="$SCHEDSIM${1#schedsim}" rest w
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMP_WORDS=()
	rest=$line
	# words: runs of non-break characters, and each '=' or ':' alone
	while [[ -n $rest ]]; do
		if [[ $rest =~ ^[[:space:]]+ ]]; then
			rest=${rest:${#BASH_REMATCH[0]}}
			[[ -z $rest ]] && COMP_WORDS+=("")
		elif [[ $rest =~ ^[=:] ]]; then
			COMP_WORDS+=("${BASH_REMATCH[0]}")
			rest=${rest:1}
			[[ -z $rest ]] && COMP_WORDS+=("")
		else
			[[ $rest =~ ^[^[:space:]=:]+ ]]
			COMP_WORDS+=("${BASH_REMATCH[0]}")
			rest=${rest:${#BASH_REMATCH[0]}}
		fi
	done
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	${2:-_schedsim}
}

# expect LINE WORD...: every WORD is among the candidates.
expect() {
	local line=$1 w c found
	shift
	complete_line "$line" $fn
	for w in "$@"; do
		found=0
		for c in "${COMPREPLY[@]}"; do [[ $c == "$w" ]] && found=1; done
		[[ $found == 1 ]] || { echo "FAIL: '$line' TAB: no '$w' in: ${COMPREPLY[*]}"; failures=$((failures + 1)); }
	done
}

# expect_only LINE WORD...: exactly these candidates, in any order.
expect_only() {
	local line=$1 got want
	shift
	complete_line "$line" $fn
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[[ $got == "$want" ]] || { echo "FAIL: '$line' TAB: got '$got', want '$want'"; failures=$((failures + 1)); }
}

# Options (from --help), with '=' for those taking a value; subcommands.
expect "schedsim --sc" --scenario= --sched=
expect_only "schedsim --dom" --domain= --dom0-load=
expect "schedsim --li" --list-schedulers --list-workloads --list-host --list-runs
expect "schedsim --" --check --report= --host= --plot-credit= --trace-window= --version
expect_only "schedsim " compare merge report validate replay
expect_only "schedsim re" report replay
expect_only "schedsim repl" replay
expect_only "schedsim va" validate
expect_only "schedsim validate --f" --format=
expect_only "schedsim validate --format=" text json
expect "schedsim validate --only=2016-cr" 2016-credit2-series
expect_only "schedsim validate --ro" --rows=
expect_only "schedsim validate --rows=fi" first
expect "schedsim --eval=" 2016-credit2-series 2012-numa-placement
expect_only "schedsim --eval=2015" 2015-credit1-kick-away
expect "schedsim --li" --list-evals
expect_only "schedsim report --" --output= --alpha=
expect_only "schedsim compare --format=" text markdown csv

# Schedulers, their parameters, their values; in a comma list, its last item.
expect "schedsim --sched=" credit1 credit2 null credit
expect_only "schedsim --sched=nu" null
expect_only "schedsim --sched=credit1,cr" credit1,credit2 credit1,credit1 credit1,credit
expect "schedsim --sched=credit2:" runqueue= ratelimit_us= era= soft_affinity=
expect_only "schedsim --sched=credit2:runq" runqueue=
expect "schedsim --sched=credit1:" gran= ratelimit_us=
expect_only "schedsim --sched=credit2:gra" gran=
expect_only "schedsim --sched=credit2:gran=" cpu core socket
expect_only "schedsim --sched=null:gran=c" cpu core
expect_only "schedsim --sched=credit2:runqueue=" auto cpu core socket node all
expect_only "schedsim --sched=credit2:runqueue=so" socket
expect_only "schedsim --sched=credit1,credit2:era=" 2015 2016 2016-socket 2016-p20 2016-p21 2016-full 4.17 4.22 current
expect_only "schedsim --sched=credit:era=2" 2015-kick-bug 2015 2016-pre 2016 2017
expect_only "schedsim --sched=credit2:ratelimit_us=" 
expect_only "schedsim --sched=credit2:runqueue=core:tickle_" tickle_ratelimit= tickle_mark= tickle_idle_first=
expect_only "schedsim --sched=null:" era= gran= offline_deassign=

# Workloads and the other value lists.
expect_only "schedsim --workload=" cpu-hog phases make-xen iperf kernbench netperf mutilate hackbench stream
expect_only "schedsim --workload=make-xen,ip" make-xen,iperf
# a workload's parameters and an enum's values, as a scheduler's
expect "schedsim --workload=iperf:dir" direction=
expect_only "schedsim --workload=iperf:direction=" to-dom0 from-dom0
expect_only "schedsim --workload=make-xen,iperf:direction=f" from-dom0
expect_only "schedsim --workload=netperf:te" test=
expect_only "schedsim --workload=netperf:test=TCP_" TCP_STREAM TCP_RR
expect_only "schedsim --workload=iperf,netperf:size=64:fig" figure=
expect_only "schedsim --dom0-load=off," off,off off,on
expect_only "schedsim --format=" text json markdown csv
expect_only "schedsim --plot-format=p" png pdf
expect_only "schedsim --trace-format=" xentrace perfetto
expect "schedsim --host=" lscpu: xl-info: smt= threads-per-core= remote-penalty=
expect_only "schedsim --host=sm" smt=
expect_only "schedsim --host=smt=" on off
expect_only "schedsim --hw=" model ideal
expect_only "schedsim --hw=i" ideal
expect_only "schedsim replay t.xt --mode=" open closed
expect "schedsim replay t.xt --" --mode= --cpu-khz= --sched= --scenario=

# Files: by kind, relative to the current directory.
cd "$tmp"
mkdir sub
touch a.xml b.xml g.cfg host.lscpu r.json notes.txt
expect_only "schedsim --scenario=" a.xml b.xml sub
expect_only "schedsim --scenario=b" b.xml
expect_only "schedsim --domain=" g.cfg sub
expect_only "schedsim --host=lscpu:ho" host.lscpu
expect_only "schedsim --plot=" sub
expect "schedsim --report=" notes.txt r.json sub
expect_only "schedsim compare r.json " r.json sub
expect_only "schedsim report " r.json sub
expect_only "schedsim replay " a.xml b.xml g.cfg host.lscpu notes.txt r.json sub
expect_only "schedsim replay r.json --scenario=" a.xml b.xml sub
# scheduler modules' files in --sched, after a '/' or a '.'
touch rr.so credit2.c
expect_only "schedsim --sched=credit2,./" credit2,./rr.so credit2,./sub/
expect_only "schedsim --sched=./r" ./rr.so

# schedsim-xen-module: Xen files, the module, the tree
fn=_schedsim_xen_module
expect_only "schedsim-xen-module " credit2.c sub
expect_only "schedsim-xen-module credit2.c -o " rr.so sub
expect_only "schedsim-xen-module --x" --xen-tree=
expect_only "schedsim-xen-module --xen-tree=s" sub
expect_only "schedsim-xen-module credit2.c --output=" rr.so sub

[[ $failures == 0 ]] || { echo "$failures completion check(s) failed"; exit 1; }
BASH
status=$?
if command -v python3 > /dev/null 2>&1; then
	dir=$(cd "$(dirname "$SCHEDSIM")" && pwd)
	python3 "$srcdir/tests/completion_pty.py" "$srcdir/contrib/completion/schedsim" "$dir" ||
		status=1
fi
exit $status
