#!/usr/bin/env bash
# Runs the Kubernetes and Slurm examples on this machine, as their schedulers would, and checks that the
# shards together produce exactly what one run produces.
# Usage: deploy/try-locally.sh PATH/TO/redline DIR-WITH-DOCX [SHARDS]
set -euo pipefail
redline=$(realpath "$1"); archive=$(realpath "$2"); shards=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/data"
ln -s "$redline" "$work/bin/redline"
printf '#!/bin/sh\nexec "$@"\n' > "$work/bin/srun"; chmod +x "$work/bin/srun"
export PATH="$work/bin:$PATH"
ln -s "$archive" "$work/data/archive"
archive=$work/data/archive

echo "one run"
redline convert "$archive" -o "$work/one" --to md --include '*.docx' -q --report "$work/one.jsonl" || [ $? -le 1 ]

echo "Kubernetes Indexed Job: $shards pods"
script=$(python3 -c 'import sys,yaml; print(yaml.safe_load(open(sys.argv[1]))["spec"]["template"]["spec"]["containers"][0]["args"][0])' \
  "$here/kubernetes/redline-indexed-job.yaml" | sed "s|/data|$work/data|g")
for ((i = 0; i < shards; i++)); do
  JOB_COMPLETION_INDEX=$i SHARDS=$shards sh -c "$script" 2>>"$work/k8s.log" &
done
wait
redline report merge "$work"/data/reports/shard-*.jsonl -o "$work/k8s.jsonl"

echo "Slurm array: $shards tasks"
sed "s/^SHARDS=.*/SHARDS=$shards/" "$here/slurm/redline-array.sbatch" > "$work/array.sbatch"
for ((k = 1; k <= shards; k++)); do
  (cd "$work" && SLURM_ARRAY_TASK_ID=$k SLURM_CPUS_PER_TASK=1 ARCHIVE="$archive" OUT="$work/slurm-out" \
     bash "$work/array.sbatch" 2>>"$work/slurm.log") &
done
wait
redline report merge "$work"/reports/shard-*.jsonl -o "$work/slurm.jsonl"

strip() { sed -e 's/"seconds":[0-9.e+-]*//g' -e "s|$work/data/out/||g" -e "s|$work/[a-z-]*/||g" "$1"; }
for run in k8s slurm; do
  outdir=$work/data/out; [ $run = slurm ] && outdir=$work/slurm-out
  diff -r -x .redline "$work/one" "$outdir" >/dev/null && echo "  $run: outputs identical to one run" \
    || { echo "  $run: outputs DIFFER"; exit 1; }
  diff <(strip "$work/one.jsonl" | head -n -1) <(strip "$work/$run.jsonl" | head -n -1) >/dev/null \
    && echo "  $run: merged report matches one run's" || { echo "  $run: reports DIFFER"; exit 1; }
done
