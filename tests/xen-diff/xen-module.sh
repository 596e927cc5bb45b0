#!/bin/sh
# Xen's scheduler files built into modules by schedsim-xen-module from a
# make install DESTDIR=... alone (doc/modules.md): a copy of 4.17.5's
# credit2.c, and the same with one line patched (credit2_balance_over's
# default, -3, made 0: balance_load moves work between runqueues of an
# overloaded host only when their loads differ by a whole vCPU, not by an
# eighth), each built in a clean folder and run through the xen-diff
# machinery against xen-credit2@4.17.5 (or, in a build without that tree,
# against the unpatched module):
#  - the copy decides as xen-credit2@4.17.5 on random scenarios;
#  - the patch changes nothing with runqueue=all (one runqueue: nothing
#    to balance), and with runqueues per socket it diverges on scenarios
#    with two sockets and overload only, and on the hand-written
#    over-phases-smt.xml, not on the one-socket ones;
#  - the module names its scheduler, tree and interface in
#    --list-schedulers and its runs' "scheduler";
#  - a file of the vcpu interface (2017's sched_credit.c) is built from
#    its own tree, found above it;
#  - bad inputs: one line, exit 2, no module written.
# SKIP without ../shared/xen-src (or $SCHEDSIM_XEN_TREES) holding 4.17.5.
. "${srcdir:-.}/tests/xen-diff/common.sh"
: "${MAKE:=make}" "${abs_top_builddir:?}" "${install_bindir:?}"
trees=${SCHEDSIM_XEN_TREES:-$srcdir/../shared/xen-src}
tree=$trees/4.17.5
[ -f "$tree/xen/common/sched/credit2.c" ] ||
	{ echo "SKIP: no Xen tree $tree (../shared/xen-src or \$SCHEDSIM_XEN_TREES)"; exit 77; }
tree=$(cd "$tree" && pwd)
for tool in make objcopy; do
	command -v $tool > /dev/null 2>&1 || { echo "SKIP: no $tool"; exit 77; }
done
top=$(cd "$srcdir" && pwd)
RANDOM_DRIVER=$(cd "$(dirname "$RANDOM_DRIVER")" && pwd)/$(basename "$RANDOM_DRIVER")
XEN_DIFF=$(cd "$(dirname "$XEN_DIFF")" && pwd)/$(basename "$XEN_DIFF")

dest=$tmp/dest
(unset MAKEFLAGS MFLAGS MAKELEVEL; $MAKE -C "$abs_top_builddir" install DESTDIR="$dest") \
	> "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install failed"; finish; }
SCHEDSIM=$dest$install_bindir/schedsim
XM=$dest$install_bindir/schedsim-xen-module
[ -x "$XM" ] || { fail "schedsim-xen-module is not installed in $install_bindir"; finish; }
# CC as the build's (module_cc, tests/local.am)
CC=${module_cc:-cc}
export CC
mod=$tmp/mod
mkdir "$mod" && cd "$mod" || exit 1

# xm ARGS...: schedsim-xen-module, which must succeed; its line in xm.out.
xm() {
	"$XM" "$@" > xm.out 2> xm.err || fail "schedsim-xen-module $*: $(cat xm.err)"
}
# xm_refused TEXT ARGS...: it must exit 2 with one line holding TEXT, write no module.
xm_refused() {
	want=$1
	shift
	rm -f out.so
	"$XM" "$@" > xm.out 2> xm.err
	rc=$?
	[ $rc -eq 2 ] || fail "schedsim-xen-module $*: exit $rc, not 2"
	[ "$(wc -l < xm.err)" -eq 1 ] || fail "schedsim-xen-module $*: not one line: $(cat xm.err)"
	grep -qF -- "$want" xm.err || fail "schedsim-xen-module $*: '$(cat xm.err)' lacks '$want'"
	[ ! -e out.so ] || fail "schedsim-xen-module $*: wrote out.so"
}

cp "$tree/xen/common/sched/credit2.c" credit2-same.c
sed 's/^\(static int __read_mostly opt_overload_balance_tolerance = \)-3;/\10;/' \
	credit2-same.c > credit2-over0.c
[ "$(diff credit2-same.c credit2-over0.c | grep -c '^>')" = 1 ] ||
	fail "the patch does not change one line of credit2.c"
xm credit2-same.c -o credit2-same.so --xen-tree="$tree"
xm credit2-over0.c -o credit2-over0.so --xen-tree="$tree"
grep -qF "credit2-over0.so: scheduler xen-credit2@4.17.5+credit2-over0, credit2-over0.c of Xen 4.17.5 (interface unit, Xen 4.13 to 4.22)" xm.out ||
	fail "what it built: $(cat xm.out)"
"$SCHEDSIM" --sched=./credit2-over0.so --list-schedulers > list.txt 2>&1
grep -qF "./credit2-over0.so - Xen's own credit2.c of $mod/credit2-over0.c, built by schedsim-xen-module against the Xen tree $tree (Xen 4.17.5, interface unit)" list.txt &&
	grep -qF "(module ./credit2-over0.so, scheduler xen-credit2@4.17.5+credit2-over0)" list.txt &&
	grep -q "^    runqueue " list.txt ||
	fail "--list-schedulers: $(grep -A3 '^\./credit2' list.txt)"

if "$SCHEDSIM" --list-schedulers | grep -q '^xen-credit2@4\.17\.5 '; then
	ref=xen-credit2@4.17.5
	"$RANDOM_DRIVER" --pair=$ref,./credit2-same.so --count=100 --jobs=2 > same.txt 2>&1 ||
		fail "the unpatched credit2.c as a module: $(sed -n 3p same.txt)"
	echo "ok: ./credit2-same.so decides as $ref: $(sed -n 3p same.txt)"
else
	ref=./credit2-same.so
	echo "note: no xen-credit2@4.17.5 in this build; the patch is compared with the unpatched module"
fi
"$RANDOM_DRIVER" --pair=$ref:runqueue=all,./credit2-over0.so:runqueue=all --count=100 --jobs=2 \
	> all.txt 2>&1 || fail "the patch with one runqueue: $(sed -n 3p all.txt)"
"$RANDOM_DRIVER" --pair=$ref,./credit2-over0.so --count=100 --jobs=2 > socket.txt 2>&1
rc=$?
[ $rc -eq 1 ] || fail "the patch with runqueues per socket: exit $rc, not 1: $(cat socket.txt)"
n=$(sed -n 's/.*: \([0-9]*\) of 100 diverge.*/\1/p' socket.txt)
python3 - "$n" socket.txt <<'EOF' || fail "where the patch diverges: $(grep 'by feature' socket.txt)"
import re, sys
n = int(sys.argv[1] or 0)
feat = dict((k, (int(a), int(b))) for k, a, b in
            re.findall(r"(\w+) (\d+)/(\d+)", open(sys.argv[2]).read().split("by feature:")[1]))
# divergent only where it balances an overloaded host's runqueues
assert 0 < n < feat["sockets"][1], (n, feat["sockets"])
assert feat["sockets"][0] == n and feat["over"][0] == n, (n, feat)
EOF
echo "ok: the patch diverges on $n of 100, each with two sockets and overload: $(grep 'by feature' socket.txt)"
for f in iperf make-xen over-hogs under-phases over-phases-smt; do
	"$XEN_DIFF" --no-dump "$top/tests/xen-diff/scenarios/$f.xml" $ref ./credit2-over0.so > diff.txt 2>&1
	rc=$?
	want=0
	[ $f = over-phases-smt ] && want=1
	[ $rc -eq $want ] || fail "xen-diff $f.xml $ref ./credit2-over0.so: exit $rc, not $want: $(head -1 diff.txt)"
done

# in an experiment: the runs name the module's scheduler
# (iperf's own warm-up and time: --duration does not shorten a benchmark's run, 11 s by default)
"$SCHEDSIM" --sched=$ref,./credit2-over0.so --workload=iperf:warmup=100ms:time=200ms --dom0-load=on \
	--iterations=1 --check --format=json > eval.json 2> eval.err || fail "the experiment: $(cat eval.err)"
python3 - eval.json <<'EOF' || fail "the experiment's runs: $(head -c 300 eval.json)"
import json, sys
doc = json.load(open(sys.argv[1]))
s = {r["label"]: r["scheduler"] for r in doc["runs"]}
assert s["./credit2-over0.so"] == "xen-credit2@4.17.5+credit2-over0", s
assert not any(r.get("check_error") for r in doc["runs"])
EOF

# a file of the vcpu interface, in its own tree (found above it)
old=$trees/2017-08-credit2-full/xen/common/sched_credit.c
if [ -f "$old" ]; then
	xm "$old" -o credit-2017.so --name=mine
	grep -qF "credit-2017.so: scheduler xen-credit@mine, sched_credit.c of Xen 4.10-unstable (interface vcpu, Xen 4.5 to 4.12)" xm.out ||
		fail "the 2017 sched_credit.c: $(cat xm.out)"
	if "$SCHEDSIM" --list-schedulers | grep -q '^xen-credit@2017-08-credit2-full '; then
		"$RANDOM_DRIVER" --pair=xen-credit@2017-08-credit2-full,./credit-2017.so --count=30 \
			--jobs=2 > old.txt 2>&1 || fail "the 2017 sched_credit.c as a module: $(sed -n 3p old.txt)"
	else
		"$SCHEDSIM" --sched=./credit-2017.so --duration=300ms --check > /dev/null 2> old.err ||
			fail "the 2017 sched_credit.c as a module: $(cat old.err)"
	fi
	xm_refused "$mod/credit2-same.c: a scheduler file of the sched_unit interface (Xen 4.13 on), not of the tree's: give the tree it comes from, --xen-tree=DIR (the Xen tree $(cd "$trees/2017-08-credit2-full" && pwd): Xen 4.10-unstable, interface vcpu, Xen 4.5 to 4.12)" \
		credit2-same.c -o out.so --xen-tree="$trees/2017-08-credit2-full"
fi

# --- bad inputs ----------------------------------------------------------------

xm_refused "credit2-same.c: no module file given: -o NAME.so" credit2-same.c
xm_refused "-o out: a module's file name ends in .so" credit2-same.c -o out
xm_refused "$mod/credit2-same.c: not inside a Xen source tree (no xen/Makefile above it): give the tree whose headers it is built with, --xen-tree=DIR" \
	credit2-same.c -o out.so
printf 'int main(void) { return 0; }\n' > plain.c
xm_refused "$mod/plain.c: not a Xen scheduler file (it defines none of sched_null_def, sched_credit_def, sched_credit2_def, sched_rtds_def and sched_arinc653_def, or several) (the Xen tree $tree: Xen 4.17.5, interface unit" \
	plain.c -o out.so --xen-tree="$tree"
line=$(grep -n '^runq_tickle(' credit2-same.c | cut -d: -f1)
sed "${line}s/^runq_tickle(/runq_tickle(int no_such_type x, /" credit2-same.c > broken.c
xm_refused "$mod/broken.c does not build with the shim (the Xen tree $tree: Xen 4.17.5, interface unit, Xen 4.13 to 4.22): $mod/broken.c:$line:" \
	broken.c -o out.so --xen-tree="$tree"
grep -q ": error: " xm.err || fail "the compiler's error: $(cat xm.err)"
xm_refused "--xen-tree=$mod: not a Xen source tree (no xen/Makefile)" credit2-same.c -o out.so --xen-tree="$mod"
xm_refused "unknown option --bogus" credit2-same.c -o out.so --bogus
xm_refused "nothing.c: cannot read it" nothing.c -o out.so
finish
