#!/bin/sh
# The man pages: all three render with man -l without a single groff warning
# (a page with an unknown macro, as a control, does give one), and
# tests/man_check.py finds every --help option and subcommand in
# schedsim(1) and every schema element and attribute in its section of
# schedsim-scenario(5); schedsim-xen-module(1) has every option of its
# --help.  SKIP (77) without man (Debian's man-db).
command -v man > /dev/null 2>&1 || { echo "no man: SKIP"; exit 77; }
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
export MANWIDTH=80 LC_ALL=C.UTF-8

printf '.TH T 1\n.SH NAME\nt \\- t\n.XX unknown\n' > "$tmp/control.1"
man --warnings=w -l "$tmp/control.1" > /dev/null 2> "$tmp/control.err"
[ -s "$tmp/control.err" ] || fail "man --warnings shows no warning for an unknown macro"

for page in doc/schedsim.1 doc/schedsim-scenario.5 doc/schedsim-xen-module.1; do
	[ -f "$page" ] || { fail "$page was not built"; continue; }
	man --warnings=w -l "$page" > "$tmp/out" 2> "$tmp/err" || fail "man -l $page failed"
	[ -s "$tmp/err" ] && fail "man -l $page: $(head -3 "$tmp/err")"
	[ "$(wc -l < "$tmp/out")" -gt 50 ] || fail "man -l $page rendered $(wc -l < "$tmp/out") lines"
done
# A long installation prefix (distcheck's, a home directory's) wraps at a
# '/' without a warning and reads back as the path itself.
long=/opt/a-very-long-prefix/for-a-build-made-in-a-deep-home-directory/of-someone/with-long-names
for in in schedsim.1 schedsim-scenario.5 schedsim-xen-module.1; do
	sh "${srcdir:-.}/doc/man-subst.sh" "$long/share/schedsim" "$long/share/bash-completion/completions" 0.0 \
		< "${srcdir:-.}/doc/$in.in" > "$tmp/long-$in" || fail "doc/man-subst.sh failed"
	man --warnings=w -l "$tmp/long-$in" > /dev/null 2> "$tmp/err" || fail "man -l $in (long prefix) failed"
	[ -s "$tmp/err" ] && fail "man -l $in with a long prefix: $(head -3 "$tmp/err")"
	want=$long/share/schedsim/scenario.rng
	[ $in = schedsim-xen-module.1 ] && want=$long/share/schedsim/xen-shim/
	MANWIDTH=2000 man --nh --nj -l "$tmp/long-$in" 2> /dev/null | grep -qF "$want" ||
		fail "$in with a long prefix does not show $want"
done
# Plain text without hyphenation or justification, long lines: whole option names.
MANWIDTH=2000 man --nh --nj -l doc/schedsim.1 > "$tmp/schedsim.txt" 2> /dev/null
MANWIDTH=2000 man --nh --nj -l doc/schedsim-scenario.5 > "$tmp/scenario.txt" 2> /dev/null
grep -q '@[a-z]*@' doc/schedsim.1 doc/schedsim-scenario.5 doc/schedsim-xen-module.1 &&
	fail "an @variable@ left in a page"
# schedsim-xen-module(1) has every option of its --help.
MANWIDTH=2000 man --nh --nj -l doc/schedsim-xen-module.1 > "$tmp/xen-module.txt" 2> /dev/null
sh ./schedsim-xen-module --help > "$tmp/xm-help.txt" || fail "schedsim-xen-module --help failed"
for o in $(grep '^  -' "$tmp/xm-help.txt" | grep -o -- '--*[a-z][a-z-]*' | sort -u); do
	grep -qF -- "$o" "$tmp/xen-module.txt" || fail "schedsim-xen-module(1) lacks $o"
done
"$SCHEDSIM" --help > "$tmp/help.txt" || fail "schedsim --help failed"
python3 "${srcdir:-.}/tests/man_check.py" "$tmp/help.txt" "$tmp/schedsim.txt" \
	"${srcdir:-.}/sim/input/scenario.rng" "$tmp/scenario.txt" || fail "the pages miss something"
finish
