#!/bin/sh
# Checks the direction of use between the layers of the source tree
# (sim/README.md): every #include "DIR/..." of a project header in sim/,
# schedulers/, workloads/ and xen-shim/ must name a header of the file's
# own layer or of a layer below it, and a header that exists.
#
#   0 helpers     sim/*.[ch] (errors, allocation, parameters)
#   1 engine      sim/engine/
#   2 schedulers  schedulers/, xen-shim/ (Xen's own scheduler code)
#   2 workloads   workloads/ (schedulers and workloads do not use each other)
#   3 input       sim/input/
#   4 experiment  sim/experiment/
#   5 output      sim/output/
#   6 cli         sim/main.c, which ties experiment and output together
#
# Tests, fuzzers and benchmarks (tests/, fuzz/, bench/) use any layer.  A
# folder under sim/ that is not a layer is itself an error, so that a new
# one is given its place here.
#
# usage: check-layers.sh [ROOT]   (default: the source tree around this
# script).  Prints one line per violation, FILE:LINE: what is wrong, and
# exits 1 when there is one, 0 when there is none.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || { echo "check-layers: no folder $root" >&2; exit 2; }
[ -d sim ] || { echo "check-layers: $root has no sim/" >&2; exit 2; }

files=$(find sim schedulers workloads xen-shim -path xen-shim/include -prune -o \
	-type f \( -name '*.c' -o -name '*.h' \) -print 2>/dev/null | LC_ALL=C sort)
[ -n "$files" ] || { echo "check-layers: no sources under $root" >&2; exit 2; }

# shellcheck disable=SC2086
awk -v root="$root" '
function layer(p,   rest) {
	if (p == "sim/main.c") return "cli"
	if (p ~ /^sim\/engine\//) return "engine"
	if (p ~ /^sim\/input\//) return "input"
	if (p ~ /^sim\/experiment\//) return "experiment"
	if (p ~ /^sim\/output\//) return "output"
	if (p ~ /^sim\/[^\/]+$/) return "helpers"
	if (p ~ /^(schedulers|xen-shim)\//) return "schedulers"
	if (p ~ /^workloads\//) return "workloads"
	return ""
}
BEGIN {
	rank["helpers"] = 0; rank["engine"] = 1; rank["schedulers"] = 2
	rank["workloads"] = 2; rank["input"] = 3; rank["experiment"] = 4
	rank["output"] = 5; rank["cli"] = 6
	bad = 0
}
FNR == 1 {
	from = layer(FILENAME)
	if (from == "") {
		printf "%s:1: not in a layer (sim/ holds engine/, input/, experiment/, output/, the helpers and main.c)\n", FILENAME
		bad = 1
	}
}
from != "" && /^[ \t]*#[ \t]*include[ \t]*"/ {
	hdr = $0
	sub(/^[^"]*"/, "", hdr)
	sub(/".*/, "", hdr)
	if (hdr !~ /^(sim|schedulers|workloads|xen-shim)\//)
		next    # config.h, generated or Xen files: not a layer of ours
	to = layer(hdr)
	if (to == "") {
		printf "%s:%d: includes %s, which is not in a layer\n", FILENAME, FNR, hdr
		bad = 1
		next
	}
	if ((getline line < (root "/" hdr)) < 0) {
		printf "%s:%d: includes %s, which does not exist\n", FILENAME, FNR, hdr
		bad = 1
		next
	}
	close(root "/" hdr)
	if (to == from || rank[to] < rank[from])
		next
	printf "%s:%d: includes %s: the layer %s is %s the layer %s\n", FILENAME, FNR,
	       hdr, to, rank[to] == rank[from] ? "beside" : "above", from
	bad = 1
}
END { exit bad }
' $files
