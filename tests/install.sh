#!/bin/sh
# make install DESTDIR=...: the installed tree has the binary, the schema,
# the plot scripts, the examples, the man pages and the bash completion
# where they belong; the installed schedsim says its version, runs, runs an
# installed example (whose xl files sit beside it), and draws with the
# installed plot scripts (SCHEDSIM_PLOTS); the installed schema checks the
# installed examples; the man pages name the installed paths and render;
# bash-completion, told where the tree's share/ is (XDG_DATA_DIRS, as it
# searches /usr/local/share by default), loads the completion by itself.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
: "${MAKE:=make}" "${abs_top_builddir:?}" "${install_bindir:?}" "${install_pkgdatadir:?}"
: "${install_mandir:?}" "${install_bashcompletiondir:?}" "${install_datarootdir:?}"
dest=$tmp/dest
(unset MAKEFLAGS MFLAGS MAKELEVEL; $MAKE -C "$abs_top_builddir" install DESTDIR="$dest") \
	> "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install failed"; finish; }

bin=$dest$install_bindir/schedsim
data=$dest$install_pkgdatadir
[ -x "$bin" ] || fail "no $install_bindir/schedsim"
out=$("$bin" --version) || fail "the installed schedsim --version failed"
case $out in "schedsim "[0-9]*) ;; *) fail "--version printed '$out'" ;; esac
cmp -s "$data/scenario.rng" "${srcdir:-.}/sim/input/scenario.rng" || fail "the installed schema differs"
for gp in "${srcdir:-.}"/plots/*.gp; do
	cmp -s "$gp" "$data/plots/${gp##*/}" || fail "plots/${gp##*/} not installed as it is"
done
"$bin" --sched=credit2 --duration=200ms --check > "$tmp/run.txt" || fail "an installed run failed"
grep -q '^dom0' "$tmp/run.txt" || fail "the installed run printed no report"
"$bin" --scenario="$data/examples/2015-credit1-kick-away/shared.xml" --sched=credit1 \
	--duration=300ms --check --format=json > "$tmp/ex.json" || fail "an installed example failed"
json_check "$tmp/ex.json" '
assert [d["name"] for d in doc["runs"][0]["domains"]] == ["dom0", "VM-IO", "VM-CPU"]'
if command -v xmllint > /dev/null 2>&1; then
	for f in "$data"/examples/*/*.xml; do
		xmllint --noout --nonet --relaxng "$data/scenario.rng" "$f" 2> /dev/null ||
			fail "${f#"$data"/} does not match the installed schema"
	done
fi
if command -v gnuplot > /dev/null 2>&1; then
	SCHEDSIM_PLOTS=$data/plots "$bin" --sched=credit2 --duration=1200ms --iterations=1 \
		--plot="$tmp/plots" > /dev/null 2> "$tmp/plot.err" || fail "plotting with the installed scripts: $(cat "$tmp/plot.err")"
	[ -s "$tmp/plots/comparison.png" ] || [ -s "$tmp/plots/timeline-run0.png" ] ||
		fail "no picture drawn with the installed scripts"
fi
for page in man1/schedsim.1 man5/schedsim-scenario.5 man1/schedsim-xen-module.1; do
	[ -f "$dest$install_mandir/$page" ] || { fail "no $install_mandir/$page"; continue; }
	sed 's/\\://g; s/\\-/-/g' "$dest$install_mandir/$page" | grep -qF "$install_pkgdatadir/" ||
		fail "$page does not name $install_pkgdatadir"
	if command -v man > /dev/null 2>&1; then
		man --warnings=w -l "$dest$install_mandir/$page" > /dev/null 2> "$tmp/man.err"
		[ -s "$tmp/man.err" ] && fail "$page: $(head -2 "$tmp/man.err")"
	fi
done
comp=$dest$install_bashcompletiondir/schedsim
[ -f "$comp" ] || fail "no completion in $install_bashcompletiondir"
case $install_bashcompletiondir in
"$install_datarootdir"/bash-completion/completions) ;;
*) fail "the completion is in $install_bashcompletiondir, outside $install_datarootdir/bash-completion" ;;
esac
loader=/usr/share/bash-completion/bash_completion
if [ -f "$loader" ] && command -v bash > /dev/null 2>&1; then
	got=$(XDG_DATA_DIRS="$dest$install_datarootdir" bash --norc --noprofile -c \
		". '$loader' && __load_completion schedsim && complete -p schedsim" 2>&1)
	case $got in *"-F _schedsim schedsim"*) ;;
	*) fail "bash-completion did not load the installed completion: $got" ;;
	esac
	got=$(XDG_DATA_DIRS="$dest$install_datarootdir" bash --norc --noprofile -c \
		". '$loader' && __load_completion schedsim-xen-module && complete -p schedsim-xen-module" 2>&1)
	case $got in *"-F _schedsim_xen_module schedsim-xen-module"*) ;;
	*) fail "bash-completion did not load schedsim-xen-module's completion: $got" ;;
	esac
fi
# schedsim-xen-module and the shim it builds with (tests/xen-diff/xen-module.sh uses them)
"$dest$install_bindir/schedsim-xen-module" --version > /dev/null 2>&1 ||
	fail "no working $install_bindir/schedsim-xen-module"
[ -f "$data/xen-shim/glue.c" ] && [ -f "$data/xen-shim/include/xen/sched.h" ] ||
	fail "the shim is not installed in $install_pkgdatadir/xen-shim"
finish
