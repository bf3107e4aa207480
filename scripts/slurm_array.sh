#!/usr/bin/env bash
# Run the lines of a `fricbench suite --emit-jobs FILE` jobs file as a Slurm job array,
# one array task per line (task i runs line i), then merge once every task has ended:
#
#     fricbench suite --emit-jobs jobs.txt --out /shared/results/run1 [--quick] [--parts K]
#     scripts/slurm_array.sh jobs.txt            # submits the array and a merge job
#
# The output directory must be on a file system every node sees.  Extra sbatch options
# (partition, account, time limit) go in SBATCH_OPTS, e.g. SBATCH_OPTS="-p short -t 30".
# Inside an array task (SLURM_ARRAY_TASK_ID set) the script runs its own line.
set -euo pipefail
file=${1:?usage: scripts/slurm_array.sh JOBS_FILE}
if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
  line=$(sed -n "${SLURM_ARRAY_TASK_ID}p" "$file")
  [ -n "$line" ] || { echo "slurm_array: no line $SLURM_ARRAY_TASK_ID in $file" >&2; exit 2; }
  exec bash -c "$line"
fi
n=$(grep -c . "$file")
file=$(realpath "$file")
# the parts' directory: the --out of line 1, without its /part-1
out=$(sed -n '1s/.* --out '"'"'\([^'"'"']*\)\/part-1'"'"'.*/\1/p' "$file")
exe=$(sed -n "1s/^'\([^']*\)'.*/\1/p" "$file")
# shellcheck disable=SC2086
jid=$(sbatch --parsable ${SBATCH_OPTS:-} --array=1-"$n" --cpus-per-task=1 \
  --job-name=fricbench-part "$0" "$file")
# shellcheck disable=SC2086
sbatch ${SBATCH_OPTS:-} --dependency=afterok:"$jid" --job-name=fricbench-merge \
  --wrap="'$exe' merge '$out'"
echo "slurm_array: submitted $n parts as job $jid and a merge into $out" >&2
