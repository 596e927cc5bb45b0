#!/bin/bash
# Runs a schedsim experiment matrix as shards under GNU parallel, on this
# machine or on ssh hosts, then merges the parts into the tables that one
# process would have printed (see doc/sweeps.md).
#
#   schedsim-parallel.sh [-n SHARDS] [-j JOBS] [-d DIR] [-f FORMAT]
#                        [-S SSHLOGINFILE] -- SCHEDSIM-OPTIONS...
#
#   -n SHARDS   slices of the matrix (default: one per run)
#   -j JOBS     shards at a time on each host (parallel -j; default: its own)
#   -d DIR      where the parts go (default: a new directory schedsim-parts.XXXX)
#   -f FORMAT   format of the merged tables (text, markdown, csv, json)
#   -S FILE     run the shards on the hosts of FILE (parallel --sshloginfile);
#               schedsim must be in their PATH, and a --scenario file at the
#               same absolute path on every host (a shared file system)
#
# The tables go to stdout; the parts stay in DIR.  $SCHEDSIM names the
# binary (default: schedsim from PATH).  Each shard runs one worker
# process (--jobs=1): parallel decides how many run at a time.
set -eu

schedsim=${SCHEDSIM:-schedsim}
shards= jobs= dir= format=text sshlogin=

usage() {
	sed -n '5,15p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while getopts n:j:d:f:S:h opt; do
	case $opt in
	n) shards=$OPTARG ;;
	j) jobs=$OPTARG ;;
	d) dir=$OPTARG ;;
	f) format=$OPTARG ;;
	S) sshlogin=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage
command -v parallel > /dev/null || { echo "schedsim-parallel: GNU parallel is not installed (Debian package parallel)" >&2; exit 2; }

# Over ssh the parts are written in a scratch directory on each host and
# brought back by --return, so they have relative names there and the
# scenario an absolute one (the tables then name it so).
args=("$@")
if [ -n "$sshlogin" ]; then
	args=()
	for a in "$@"; do
		case $a in
		--scenario=/*) args+=("$a") ;;
		--scenario=*) args+=("--scenario=$PWD/${a#--scenario=}") ;;
		*) args+=("$a") ;;
		esac
	done
fi
case $sshlogin in
''|/*) ;;
*) sshlogin=$PWD/$sshlogin ;;
esac
case $schedsim in
*/*) schedsim=$(cd "$(dirname "$schedsim")" && pwd)/$(basename "$schedsim") ;;
esac

runs=$("$schedsim" "${args[@]}" --list-runs | wc -l)
[ "$runs" -gt 0 ] || exit 2
[ -n "$shards" ] || shards=$runs
[ "$shards" -le "$runs" ] || shards=$runs
[ -n "$dir" ] || dir=$(mktemp -d schedsim-parts.XXXX)
mkdir -p "$dir"
rm -f "$dir"/part-*.json
out=$dir/part-@@.json

popts=(--halt now,fail=1 -q -I @@)
[ -z "$jobs" ] || popts+=(-j "$jobs")
if [ -n "$sshlogin" ]; then
	cd "$dir"
	dir=. out=part-@@.json
	popts+=(--sshloginfile "$sshlogin" --workdir ... --return "$out" --cleanup)
fi
# -q: every argument reaches schedsim as it is ({a,b} axes included), no shell in between.
parallel "${popts[@]}" "$schedsim" "${args[@]}" --shard=@@/"$shards" --jobs=1 \
	--output="$out" ::: $(seq 0 $((shards - 1)))

"$schedsim" merge --format="$format" "$dir"/part-*.json
