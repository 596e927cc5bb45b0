#!/bin/bash
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
# One task of a schedsim sweep under Slurm, submitted by schedsim-slurm.sh:
#
#   schedsim-slurm-task.sh shard DIR          (an array task: its slice)
#   schedsim-slurm-task.sh merge DIR FORMAT   (after the array: the tables)
#
# DIR holds the options (args), the binary (schedsim) and the number of
# tasks (tasks); the parts are DIR/part-ID.json, the tables DIR/result.FORMAT.
# A shard runs as many worker processes as Slurm gave it CPUs.
set -eu

mode=$1 dir=$2
schedsim=$(cat "$dir/schedsim")
tasks=$(cat "$dir/tasks")
mapfile -d '' args < "$dir/args"

case $mode in
shard)
	id=${SLURM_ARRAY_TASK_ID:?not an array task}
	exec "$schedsim" "${args[@]}" --shard="$id/$tasks" --jobs="${SLURM_CPUS_PER_TASK:-1}" \
		--output="$dir/part-$id.json"
	;;
merge)
	exec "$schedsim" merge --format="${3:-text}" --output="$dir/result.${3:-text}" \
		"$dir"/part-*.json
	;;
*)
	echo "schedsim-slurm-task: mode is shard or merge, not '$mode'" >&2
	exit 2
	;;
esac
