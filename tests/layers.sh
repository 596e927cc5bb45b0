#!/bin/sh
# The source tree keeps its layers (sim/README.md): tests/check-layers.sh
# finds no include of a layer above the including file's, nor of a missing
# header, in the tree; and, so that the check cannot pass by finding
# nothing, a copy of the tree with one wrong include of each kind injected
# is refused, each with its file:line.
set -u
. "${srcdir:-.}/tests/scenarios/lib.sh"
src=$(cd "${srcdir:-.}" && pwd)
check="$src/tests/check-layers.sh"

out=$(sh "$check" "$src" 2>&1)
[ $? -eq 0 ] || fail "the tree breaks its layers:
$out"

for d in engine input experiment output; do
	[ -s "$src/sim/$d/README.md" ] || fail "sim/$d has no README.md saying what it holds"
done

# A copy of the layers' sources, then one violation at a time.
mkdir "$tmp/tree"
(cd "$src" && tar cf - --exclude='*.o' --exclude='.deps' --exclude='.dirstamp' \
	sim schedulers workloads xen-shim) | tar xf - -C "$tmp/tree" ||
	fail "cannot copy the sources"
sh "$check" "$tmp/tree" > "$tmp/out" 2>&1 || fail "the copy breaks its layers: $(cat "$tmp/out")"

# inject FILE HEADER WANT: appends #include "HEADER" to FILE in the copy;
# the check must exit 1 naming FILE:LINE and WANT; the file is put back.
inject() {
	f=$1 hdr=$2 want=$3
	cp "$tmp/tree/$f" "$tmp/saved"
	printf '#include "%s"\n' "$hdr" >> "$tmp/tree/$f"
	line=$(wc -l < "$tmp/tree/$f" | tr -d ' ')
	sh "$check" "$tmp/tree" > "$tmp/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "$f including $hdr: check-layers exited $rc, not 1"
	grep -qF "$f:$line: includes $hdr" "$tmp/out" || fail "$f including $hdr: not reported at $f:$line: $(cat "$tmp/out")"
	grep -qF "$want" "$tmp/out" || fail "$f including $hdr: '$want' not said: $(cat "$tmp/out")"
	[ "$(wc -l < "$tmp/out")" -eq 1 ] || fail "$f including $hdr: more than the one violation: $(cat "$tmp/out")"
	cp "$tmp/saved" "$tmp/tree/$f"
}
inject sim/engine/core.c sim/output/trace.h "the layer output is above the layer engine"
inject sim/engine/cpupool.c sim/experiment/build.h "the layer experiment is above the layer engine"
inject sim/engine/core.c schedulers/sched.h "the layer schedulers is above the layer engine"
inject sim/err.h sim/engine/sim.h "the layer engine is above the layer helpers"
inject workloads/axes.c sim/experiment/host_axis.h "the layer experiment is above the layer workloads"
inject workloads/tcp.c schedulers/sched.h "the layer schedulers is beside the layer workloads"
inject schedulers/credit2.c workloads/workload.h "the layer workloads is beside the layer schedulers"
inject sim/input/xlcfg.c sim/experiment/run.h "the layer experiment is above the layer input"
inject sim/experiment/run.c sim/output/json.h "the layer output is above the layer experiment"
inject sim/engine/hw.c sim/engine/no-such.h "which does not exist"
# Downward and sideways-within-a-layer includes are allowed.
printf '#include "sim/engine/sim.h"\n#include "sim/input/textfile.h"\n' >> "$tmp/tree/sim/output/json.c"
sh "$check" "$tmp/tree" > "$tmp/out" 2>&1 || fail "an include of lower layers was refused: $(cat "$tmp/out")"
# A folder under sim/ that is no layer.
mkdir "$tmp/tree/sim/misc" && echo 'int misc;' > "$tmp/tree/sim/misc/misc.c"
sh "$check" "$tmp/tree" > "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -qF "sim/misc/misc.c:1: not in a layer" "$tmp/out" ||
	fail "a file in sim/misc was not refused: $(cat "$tmp/out")"

[ $failures -eq 0 ] && echo "PASS: the layers hold; each kind of wrong include is refused"
[ $failures -eq 0 ]
