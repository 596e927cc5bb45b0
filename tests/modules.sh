#!/bin/sh
# Scheduler modules built outside the tree (doc/modules.md): after a make
# install DESTDIR=..., the template contrib/modules/roundrobin.c, copied
# into a clean folder and compiled with `pkg-config --cflags schedsim` of
# the installed tree only, runs a short default evaluation beside credit2
# under the invariant checker, with parameters and {a,b} axes, at
# sched-gran=core, in a <pool>, in a trace, from SCHEDSIM_MODULE_PATH and
# in --list-schedulers (schedsim exports what the built-in schedulers call:
# schedulers/module.syms); its shards merge, and merge refuses a part of
# another build of it.  Bad modules, each made from the template by one
# change (not a module, not a schedsim module, another ABI version, a
# missing symbol, other headers' layout, a crash, an invariant broken),
# are refused with one line naming the module, exit 2.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
: "${MAKE:=make}" "${abs_top_builddir:?}" "${install_bindir:?}" "${install_includedir:?}"
: "${install_libdir:?}" "${install_pkgdatadir:?}" "${module_cc:=cc}"
command -v pkg-config > /dev/null 2>&1 || { echo "SKIP: no pkg-config"; exit 77; }
dest=$tmp/dest
(unset MAKEFLAGS MFLAGS MAKELEVEL; $MAKE -C "$abs_top_builddir" install DESTDIR="$dest") \
	> "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install failed"; finish; }
SCHEDSIM=$dest$install_bindir/schedsim
# A crash is to kill the run with its signal, also under AddressSanitizer.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0
export ASAN_OPTIONS

# --- what schedsim exports: every function of ours a built-in scheduler calls

if command -v nm > /dev/null 2>&1; then
	b=$abs_top_builddir
	nm -D --defined-only "$SCHEDSIM" | awk '{print $NF}' | sort -u > "$tmp/exported"
	nm --defined-only -g "$b"/sim/*.o "$b"/sim/engine/*.o "$b"/schedulers/sched_common.o |
		awk 'NF == 3 {print $3}' | sort -u > "$tmp/ours"
	for o in credit1 credit2 null rtds arinc653; do
		nm -u "$b/schedulers/$o.o" | awk '{print $NF}'
	done | sort -u | comm -12 - "$tmp/ours" | comm -23 - "$tmp/exported" > "$tmp/missing"
	[ -s "$tmp/missing" ] && fail "schedulers/module.syms lacks what the built-in schedulers" \
		"call: $(tr '\n' ' ' < "$tmp/missing")"
fi

# --- the template, built from the installed headers only -------------------

mod=$tmp/mod
mkdir "$mod"
cp "$dest$install_pkgdatadir/modules/roundrobin.c" "$mod/" ||
	fail "the template is not installed in $install_pkgdatadir/modules"
cflags=$(PKG_CONFIG_PATH=$dest$install_libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest \
	pkg-config --cflags schedsim) || fail "pkg-config --cflags schedsim failed"
cflags=$(echo $cflags)
[ "$cflags" = "-I$dest$install_includedir/schedsim" ] || fail "pkg-config --cflags: '$cflags'"
# build SOURCE OUT [FLAGS]: a module compiled in the clean folder, warnings as errors.
build() {
	(cd "$mod" && $module_cc -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter -shared \
		-fPIC $cflags ${3:-} "$1" -o "$2") > "$tmp/cc.log" 2>&1 ||
		fail "cc $1: $(head -5 "$tmp/cc.log")"
}
build roundrobin.c rr.so
top=$(cd "${srcdir:-.}" && pwd)
cd "$mod" || exit 1

# Two iterations a cell; one in the sanitizer build (lib.sh, sanitized),
# where the second is the same code on the next seed (an iperf run is its
# benchmark's 11 s whatever --duration says: 3.5 s of CPU there) and the
# statistics of several iterations run in shard.sh, experiment.sh and
# report.sh.
it=2
sanitized && it=1
short="--workload=make-xen,iperf --dom0-load=off,on --iterations=$it --duration=1s --jobs=2"
# shellcheck disable=SC2086
run_ok --sched=credit2,./rr.so $short --check --format=json > "$tmp/eval.json"
json_check "$tmp/eval.json" '
labels = sorted({r["label"] for r in doc["runs"]})
assert labels == ["./rr.so", "credit2"], labels
rr = [r for r in doc["runs"] if r["label"] == "./rr.so"]
assert len(rr) == 4 * '$it' and all(r["scheduler"] == "roundrobin" for r in rr), rr[0]["scheduler"]
assert not any(r.get("check_error") for r in doc["runs"])
assert all(r["metric"]["value"] > 0 for r in rr if r["workload"] == "iperf")'
run_ok --sched=./rr.so:slice=30ms --check > "$tmp/one.txt" --duration=300ms &&
	grep -q '^scheduler ./rr.so:slice=30ms' "$tmp/one.txt" || fail "a single run of the module: $(head -2 "$tmp/one.txt")"
run_ok --sched='./rr.so:slice={5ms,20ms}' --workload=iperf:warmup=100ms:time=200ms --iterations=1 \
	--check --format=csv > "$tmp/axes.csv" &&
	grep -q 'slice=5ms' "$tmp/axes.csv" && grep -q 'slice=20ms' "$tmp/axes.csv" ||
	fail "an axis of the module's parameter: $(cat "$tmp/axes.csv")"
expect_error "roundrobin: unknown parameter 'slic'" --sched=./rr.so:slic=1ms
run_ok --sched=./rr.so:gran=core --duration=300ms --check > /dev/null
cat > pools.xml <<EOF
<scenario duration="300ms" seed="3">
  <host sockets="1" cores-per-socket="4" threads-per-core="2" nodes="1"/>
  <pool name="rr" cpus="4-7" sched="$mod/rr.so"/>
  <domain name="dom0" vcpus="4"><workload type="cpu-hog"/></domain>
  <domain name="a" vcpus="6" pool="rr"><affinity hard="4-6"/><workload type="cpu-hog"/></domain>
</scenario>
EOF
run_ok --scenario=pools.xml --sched=credit2 --check --format=json > "$tmp/pools.json"
# a relative name in a <pool> is taken from the current folder, as in --sched
sed "s|sched=\"$mod/rr.so\"|sched=\"./rr.so\"|" pools.xml > pools-rel.xml
grep -q 'sched="./rr.so"' pools-rel.xml || fail "pools-rel.xml: the edit did not apply"
run_ok --scenario=pools-rel.xml --sched=credit2 --check --format=json > "$tmp/pools-rel.json"
cmp -s "$tmp/pools.json" "$tmp/pools-rel.json" || fail "the pool's ./rr.so is not the pool's $mod/rr.so"
json_check "$tmp/pools.json" '
a = [d for d in doc["runs"][0]["domains"] if d["name"] == "a"][0]
assert all(set(v["pcpus"]) <= {4, 5, 6} for v in a["vcpus"]), a
assert sum(v["run_ns"] for v in a["vcpus"]) > 0.95 * 3 * 300e6, a'
run_ok --sched=./rr.so --duration=100ms --trace="$tmp/rr.trace" > /dev/null
[ -s "$tmp/rr.trace" ] || fail "no trace of the module's run"
SCHEDSIM_MODULE_PATH=/nonexistent:$mod run_ok --sched=rr --duration=100ms --check > /dev/null
SCHEDSIM_MODULE_PATH=$mod run_ok --list-schedulers > "$tmp/list.txt"
grep -q "^rr - one FIFO run queue" "$tmp/list.txt" &&
	grep -qF "    (module $mod/rr.so, scheduler roundrobin)" "$tmp/list.txt" &&
	grep -q "^    slice " "$tmp/list.txt" && grep -q '^credit2 ' "$tmp/list.txt" ||
	fail "--list-schedulers with SCHEDSIM_MODULE_PATH: $(grep -A2 '^rr' "$tmp/list.txt")"
run_ok --sched=./rr.so --list-schedulers | grep -q '^\./rr\.so - ' || fail "--list-schedulers --sched=./rr.so"
SCHEDSIM_MODULE_PATH=$mod expect_error "no nosuch.so in SCHEDSIM_MODULE_PATH ($mod)" --sched=nosuch

# --- shards: the parts merge; a part of another build of the module is refused

# (iperf's own time and warm-up: --duration does not shorten a benchmark,
# whose run is its warm-up and measured time, 11 s by default.)
sweep="--sched=credit2,./rr.so --workload=iperf:warmup=100ms:time=200ms --iterations=$it"
# shellcheck disable=SC2086
{ run_ok $sweep --shard=0/2 --output=p0.json && run_ok $sweep --shard=1/2 --output=p1.json &&
  run_ok $sweep --format=json --jobs=1 > whole.json &&
  run_ok merge --format=json p0.json p1.json > merged.json; } || true
cmp -s whole.json merged.json || fail "the merged parts differ from the whole run"
json_check p0.json '
import re
assert [re.sub("[0-9a-f]{16}$", "D", m) for m in doc["matrix"]["modules"]] == ["./rr.so D"]'
sed 's/"10ms"/"11ms"/' roundrobin.c > rr11.c
build rr11.c rr.so
# shellcheck disable=SC2086
run_ok $sweep --shard=1/2 --output=p1b.json
expect_error "p1b.json: not the same matrix as p0.json: modules is" merge p0.json p1b.json
build roundrobin.c rr.so

# --- bad modules: one line naming the module, exit 2 -----------------------

echo "not a module" > text.so
expect_error "scheduler module ./text.so: not a module (" --sched=./text.so
# in SCHEDSIM_MODULE_PATH, --list-schedulers lists it with why, and the others
SCHEDSIM_MODULE_PATH=$mod run_ok --list-schedulers > "$tmp/list.txt"
grep -q "^text - not loaded: .*not a module (" "$tmp/list.txt" && grep -q "^rr - " "$tmp/list.txt" ||
	fail "--list-schedulers with a bad module in SCHEDSIM_MODULE_PATH: $(grep '^text\|^rr' "$tmp/list.txt")"
expect_error "scheduler module ./none.so: cannot read it" --sched=./none.so
printf 'int f(void);\nint f(void) { return 1; }\n' > plain.c
build plain.c plain.so
expect_error "scheduler module ./plain.so: not a schedsim module (no symbol schedsim_module_abi" \
	--sched=./plain.so
# refused NAME SED MESSAGE [ARGS...]: the template changed by SED, built as
# NAME.so, is refused with "scheduler module ./NAME.so: MESSAGE" (ARGS:
# schedsim's, --sched=./NAME.so by default).
refused() {
	n=$1 script=$2 want=$3
	shift 3
	[ $# -gt 0 ] || set -- --sched="./$n.so"
	sed "$script" roundrobin.c > "$n.c"
	build "$n.c" "$n.so" -Wno-unused
	expect_error "scheduler module ./$n.so: $want" "$@"
}
refused abi 's/^SCHEDSIM_MODULE(rr_ops);/#undef SCHEDSIM_MODULE_ABI\n#define SCHEDSIM_MODULE_ABI 999\n&/' \
	"module ABI version 999, this schedsim loads version"
refused nosym 's/^SCHEDSIM_MODULE(rr_ops);/const unsigned schedsim_module_abi = SCHEDSIM_MODULE_ABI;/' \
	"missing symbol schedsim_module" --sched=credit2,./nosym.so
refused undef 's/^static void rr_deinit(struct scheduler \*s) { free(s->priv); }/void schedsim_no_such(void);\nstatic void rr_deinit(struct scheduler *s) { schedsim_no_such(); free(s->priv); }/' \
	"missing symbol: it needs undefined symbol: schedsim_no_such"
refused layout 's/^SCHEDSIM_MODULE(rr_ops);/const unsigned schedsim_module_abi = SCHEDSIM_MODULE_ABI;\nconst struct schedsim_module schedsim_module = { \&rr_ops, 1, 2, 3, 4, 5, 6, 7, 8 };/' \
	"built against other schedsim headers (struct sched_ops is 1 bytes there"
refused nohook 's/^\t\.do_schedule = rr_do_schedule,//' "its ops table has no do_schedule"
# a crash 50 ms in: named with the run and its seed, alone and in a worker
sed 's/^\tint cpu = s->sim->this_cpu;/&\n\tif (now > 50000000)\n\t\t*(volatile int *)out->next = 0;/' \
	roundrobin.c > crash.c
build crash.c crash.so
expect_error "scheduler module ./crash.so crashed: ./crash.so (seed 7): the run was killed by signal 11" \
	--sched=./crash.so --seed=7 --duration=200ms
expect_error "./crash.so iperf dom0-load=off iteration 0 (seed" \
	--sched=credit2,./crash.so --workload=iperf --dom0-load=off --iterations=1 --duration=200ms
grep -q "the run was killed by signal 11" "$tmp/stderr" || fail "the worker's crash: $(cat "$tmp/stderr")"
# hard affinity ignored: it runs vCPUs pinned to pCPUs 0-1 on 2-3
sed '/if (!cpumask_test(v->hard, (unsigned)cpu))/,+1d; s/if (cpumask_test(v->hard, cpu) \&\& /if (/' \
	roundrobin.c > unpinned.c
build unpinned.c unpinned.so
expect_error "scheduler module ./unpinned.so breaks an invariant under --check: ./unpinned.so: " \
	--sched=./unpinned.so --scenario="$top/tests/scenarios/credit2_hard.xml" --duration=100ms --check
grep -q "hard affinity" "$tmp/stderr" || fail "the violation: $(cat "$tmp/stderr")"
expect_error "scheduler module ./unpinned.so breaks an invariant under --check: ./unpinned.so  " \
	--sched=./unpinned.so --scenario="$top/tests/scenarios/credit2_hard.xml" --duration=100ms \
	--check --iterations=1 --format=csv
finish
