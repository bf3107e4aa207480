#!/usr/bin/env bash
# The main job until `fricbench suite` exists: a documented set of `fricbench run` cases
# (every ODE model on the three foundation scenarios) written under results/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=results/demo
mkdir -p "$out"
fb=./build/fricbench
for s in inclined-block stick-slip drift; do
  for m in naive-sign smooth-sign kikuuwe lugre dahl elastoplastic; do
    $fb run --scenario "$s" --model "$m" --out "$out/${s}__${m}.csv" 2>>"$out/summary.txt" || true
  done
done
echo "demo: $(ls "$out"/*.csv | wc -l) trajectories and summary.txt written to $out/" >&2
