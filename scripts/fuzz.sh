#!/usr/bin/env bash
# Fuzz fricbench's parsers with libFuzzer (clang from Debian): the number, --set and
# option parsing (fuzz/fuzz_parse.c), the suite journal that --resume reads back
# (fuzz/fuzz_journal.c), and the parts' files that `merge` reads back with the CSV and
# JSON readers and the report's verdicts under it (fuzz/fuzz_merge.c).
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]     default: 600 s, every harness
#
# Installs clang and libclang-rt-14-dev with apt-get when missing (sudo when not root),
# builds build-fuzz/ (clang, -fsanitize=fuzzer,address,undefined with UB fatal, the
# library instrumented with -fsanitize=fuzzer-no-link), then runs the harnesses side by
# side for SECONDS each, starting from the seed corpus fuzz/corpus/<harness>/ (new inputs
# go to build-fuzz/corpus/<harness>/, not into the repository).  A crash, leak or failed
# property stops that harness and leaves its input in build-fuzz/crash-<harness>-*;
# reproduce it with build-fuzz/fuzz/<harness> FILE.  Prints the executions of each
# harness; exits 1 when any harness failed.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_parse fuzz_journal fuzz_merge)

need=()
command -v clang >/dev/null 2>&1 || need+=(clang)
dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
if ((${#need[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "fuzz: installing ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
./scripts/bootstrap.sh # the other packages (GSL, meson, ...)

if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang meson setup build-fuzz --buildtype=debugoptimized -Dfuzz=true -Dtests=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" >/dev/null
fi
ninja -C build-fuzz >/dev/null

status=0
pids=()
for h in "${harnesses[@]}"; do
  mkdir -p "build-fuzz/corpus/$h"
  "build-fuzz/fuzz/$h" -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
    -artifact_prefix="build-fuzz/crash-$h-" "build-fuzz/corpus/$h" "fuzz/corpus/$h" \
    >"build-fuzz/$h.log" 2>&1 &
  pids+=($!)
done
for i in "${!harnesses[@]}"; do
  h=${harnesses[$i]}
  if wait "${pids[$i]}"; then res=ok; else res=FAILED; status=1; fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$h.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "build-fuzz/$h.log" | tail -1 || true)
  echo "fuzz: $h: $res, ${execs:-?} executions in ${secs} s, ${cov:-cov: ?}, corpus" \
    "$(ls "build-fuzz/corpus/$h" | wc -l) inputs (log: build-fuzz/$h.log)"
done
exit $status
