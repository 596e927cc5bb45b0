#!/bin/sh
# examples/: every scenario file says what it reproduces and where that was
# published, matches the schema, and is run by its directory's run file;
# every command there runs under the invariant checker (an experiment with
# two iterations, printing the mailing-list boxes; a single run, printing its
# report).  Every file of every example is installed
# (listed in examples/local.am).  A run file's "# needs: PATH" (from the
# source tree's top) skips its commands when PATH is absent (data kept
# outside the tree); "# check-args: ARGS" adds ARGS to each command here
# (a shorter --duration for a long example).  In the sanitizer build, a run
# file's "# sanitizer-covered-by: TEST ..." names the test that simulates
# the same cells there: the experiments after that line are listed
# (--list-runs: the scenario, its xl files and the options read, nothing
# simulated).
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
ex="${srcdir:-.}/examples"
rng="${srcdir:-.}/sim/input/scenario.rng"

iterations=2
sanitized && iterations=1
n=0
for d in "$ex"/*/; do
	d=${d%/}
	name=${d##*/}
	[ -f "$d/run" ] || { fail "$name: no run file"; continue; }
	for f in "$d"/*.xml; do
		grep -q 'Reproduces: ' "$f" || fail "$name/${f##*/}: no 'Reproduces:' in its comment"
		grep -q 'Published: ' "$f" || fail "$name/${f##*/}: no 'Published:' in its comment"
		grep -q "examples/$name/${f##*/}" "$d/run" || fail "$name/${f##*/}: not run by $name/run"
		if command -v xmllint > /dev/null 2>&1; then
			xmllint --noout --nonet --relaxng "$rng" "$f" 2> "$tmp/lint" ||
				fail "$name/${f##*/} does not match the schema: $(cat "$tmp/lint")"
		fi
	done
	for f in "$d"/*; do
		grep -q "examples/$name/${f##*/}" "${srcdir:-.}/examples/local.am" ||
			fail "$name/${f##*/} is not installed (examples/local.am)"
	done
	needs=$(sed -n 's/^# needs: //p' "$d/run")
	extra=$(sed -n 's/^# check-args: //p' "$d/run")
	covered=
	if [ -n "$needs" ] && [ ! -e "${srcdir:-.}/$needs" ]; then
		echo "$name: no ${srcdir:-.}/$needs: its commands skipped"
		continue
	fi
	while read -r line; do
		case $line in
		'# sanitizer-covered-by: '*)
			if sanitized; then
				covered=${line#\# sanitizer-covered-by: }
				echo "$name: the experiments that follow are listed, not run: $covered"
			fi
			continue ;;
		'#'*|'') continue ;;
		esac
		case $line in schedsim\ *) ;; *) fail "$name/run: not a schedsim command: $line"; continue ;; esac
		# From the source tree's top, with the paths of this tree.
		args=$(printf '%s\n' "${line#schedsim }" | sed "s|examples/|$ex/|g")${extra:+ $extra}
		# An experiment (a benchmark given) runs two iterations and prints the
		# mailing-list boxes; a single run (no benchmark: the scenario's own
		# workloads) runs as written and prints the run report.  In the
		# sanitizer build an experiment runs one iteration: the second is
		# the same code on the next seed, and the statistics of several
		# iterations run there in report.sh, validate.sh and the others.
		case " $args " in
		*" --workload="*)
			if [ -n "$covered" ]; then
				# shellcheck disable=SC2086
				"$SCHEDSIM" $args --list-runs > "$tmp/out" 2> "$tmp/err"
				rc=$? want='^0	' what='run list'
			else
				# shellcheck disable=SC2086  # the command's words, as written in run
				"$SCHEDSIM" $args --iterations=$iterations --jobs=2 --check > "$tmp/out" 2> "$tmp/err"
				rc=$? want='^+---' what='mailing-list box'
			fi ;;
		*)
			# shellcheck disable=SC2086
			"$SCHEDSIM" $args --check > "$tmp/out" 2> "$tmp/err"
			rc=$? want='^domain  *vcpu  *run(s)' what='run report' ;;
		esac
		[ $rc -eq 0 ] || fail "$line: exit $rc: $(cat "$tmp/err")"
		grep -q "$want" "$tmp/out" || fail "$line: no $what in its output"
		[ -s "$tmp/err" ] && fail "$line: wrote on stderr: $(cat "$tmp/err")"
		n=$((n + 1))
	done < "$d/run"
done
[ $n -ge 4 ] || fail "only $n example commands ran"
finish
