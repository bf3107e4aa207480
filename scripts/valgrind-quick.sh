#!/usr/bin/env bash
# The quick suite (with plots and report) under valgrind's memcheck, plus a few short
# commands that take the other paths (a run that fails, a reference with its intervals,
# bad input, an interrupted and resumed suite, a suite in two parts and their merge): any
# memory error or leak (definite, indirect or possible) makes it exit 1.
#
#   scripts/valgrind-quick.sh [DIR]     results in DIR (default: a fresh /tmp directory)
#
# Installs valgrind with apt-get when missing; builds build/ with scripts/bootstrap.sh
# (FB_BUILD_DIR=DIR: use the fricbench already built in DIR instead).  Takes a few
# minutes (valgrind runs the code 20-50 times slower).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq valgrind >/dev/null
fi
[ -n "${FB_BUILD_DIR:-}" ] || ./scripts/bootstrap.sh
dir=${1:-$(mktemp -d /tmp/fricbench-valgrind.XXXXXX)}
mkdir -p "$dir"
fb=./${FB_BUILD_DIR:-build}/fricbench
vg=(valgrind -q --error-exitcode=1 --leak-check=full
    --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible
    --num-callers=30)

check() { # expected-exit command...
  local want=$1 rc=0
  shift
  "${vg[@]}" "$@" >"$dir/valgrind-cmd.out" 2>"$dir/valgrind-cmd.err" || rc=$?
  if [ "$rc" != "$want" ]; then
    echo "valgrind-quick: '$*' exited $rc, expected $want:" >&2
    cat "$dir/valgrind-cmd.err" >&2
    exit 1
  fi
}

check 0 $fb list
check 2 $fb run -s drift -m nosuch
check 2 $fb suite --jobs 0
check 1 $fb run -s drift -m lugre -i rk4 --h 0.1 --samples 11 -o "$dir/diverged.csv"
check 0 $fb run -s glowinski-2dof -m glowinski --h 1e-3 --samples 101 -o "$dir/g2.csv"
check 0 $fb reference -s stick-slip --samples 201 -o "$dir/ref.csv" --intervals "$dir/iv.csv"
echo "valgrind-quick: the quick suite into $dir/quick (a few minutes)" >&2
check 0 $fb suite --quick --jobs 2 --out "$dir/quick"
# interrupted after a few jobs, then resumed: the watcher thread, the journal, --resume
"${vg[@]}" $fb suite --quick --no-plots --jobs 2 --out "$dir/cut" \
  >"$dir/valgrind-cut.out" 2>"$dir/valgrind-cut.err" &
pid=$!
lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }
while [ "$(lines "$dir/cut/journal")" -lt 6 ]; do
  kill -0 $pid 2>/dev/null || break # ended before it could be interrupted: reported below
  sleep 0.2
done
kill -INT $pid
rc=0
wait $pid || rc=$?
if [ "$rc" != 130 ]; then
  echo "valgrind-quick: the interrupted suite exited $rc, expected 130:" >&2
  cat "$dir/valgrind-cut.err" >&2
  exit 1
fi
check 0 $fb suite --resume "$dir/cut" --no-plots --jobs 2
# the distributed path: two parts, then merge reading them back (plots and report too)
check 0 $fb suite --quick --emit-jobs "$dir/jobs" --parts 2 --out "$dir/parts"
while IFS= read -r line; do
  eval "check 0 $line"
done <"$dir/jobs"
check 0 $fb merge --jobs 2 "$dir/parts"
echo "valgrind-quick: no errors, no leaks (results in $dir)"
