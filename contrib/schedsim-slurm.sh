#!/bin/bash
# Submits a schedsim experiment matrix to Slurm as a job array, one shard
# per array task, and a merge job that runs when every task has succeeded
# (see doc/sweeps.md).
#
#   schedsim-slurm.sh [-n TASKS] [-d DIR] [-f FORMAT] -- SCHEDSIM-OPTIONS...
#
#   -n TASKS    array tasks, each a slice of the matrix (default: one per run)
#   -d DIR      a directory every node sees (default: schedsim-sweep.XXXX here)
#   -f FORMAT   format of the merged tables, DIR/result.FORMAT (default text)
#
# Partition, time limit, account...: sbatch's own environment variables
# (SBATCH_PARTITION, SBATCH_TIMELIMIT, SBATCH_ACCOUNT).  $SCHEDSIM names
# the binary (default: schedsim from PATH); the nodes run the same file.
# Prints the two job ids.
set -eu

schedsim=${SCHEDSIM:-schedsim}
tasks= dir= format=text
here=$(cd "$(dirname "$0")" && pwd)

usage() {
	sed -n '5,15p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while getopts n:d:f:h opt; do
	case $opt in
	n) tasks=$OPTARG ;;
	d) dir=$OPTARG ;;
	f) format=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage
schedsim=$(command -v "$schedsim") || { echo "schedsim-slurm: no schedsim binary" >&2; exit 2; }
case $schedsim in
/*) ;;
*) schedsim=$PWD/$schedsim ;;
esac

runs=$("$schedsim" "$@" --list-runs | wc -l)
[ "$runs" -gt 0 ] || exit 2
[ -n "$tasks" ] || tasks=$runs
[ "$tasks" -le "$runs" ] || tasks=$runs
[ -n "$dir" ] || dir=$(mktemp -d schedsim-sweep.XXXX)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
rm -f "$dir"/part-*.json

# What every task needs, kept in DIR: the options NUL-separated, so that
# spaces and {a,b} axes reach schedsim untouched on the nodes.
printf '%s\0' "$@" > "$dir/args"
printf '%s\n' "$schedsim" > "$dir/schedsim"
printf '%s\n' "$tasks" > "$dir/tasks"

array=$(sbatch --parsable --job-name=schedsim-sweep --array=0-$((tasks - 1)) \
	--output="$dir/task-%a.out" "$here/schedsim-slurm-task.sh" shard "$dir")
array=${array%%;*}
merge=$(sbatch --parsable --job-name=schedsim-merge --dependency=afterok:"$array" \
	--output="$dir/merge.out" "$here/schedsim-slurm-task.sh" merge "$dir" "$format")
echo "array job $array ($tasks tasks), merge job ${merge%%;*}: $dir/result.$format"
