#!/usr/bin/env bash
# Install what is missing (Debian 12 packages) and build fricbench into build/.
# Root installs directly; other users need sudo.  CI=true builds with -Werror.
# --asan: also build build-asan/, the same with -Db_sanitize=address,undefined (the tests'
# sanitizer configuration: meson test -C build-asan).
set -euo pipefail
asan=0
[ "${1:-}" = "--asan" ] && asan=1
cd "$(dirname "$0")/.."
pkgs=(gcc libgsl-dev libcriterion-dev gnuplot-nox meson ninja-build pkg-config parallel
      libinih-dev libjansson-dev zlib1g-dev python3-numpy python3-pandas python3-pytest
      libode-dev libbullet-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "bootstrap: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -f build/build.ninja ]; then
  opts=(--buildtype=debugoptimized)
  [ "${CI:-}" = "true" ] && opts+=(--werror)
  meson setup build "${opts[@]}" >/dev/null
fi
ninja -C build >/dev/null
if [ "$asan" = 1 ]; then
  if [ ! -f build-asan/build.ninja ]; then
    opts=(--buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false)
    [ "${CI:-}" = "true" ] && opts+=(--werror)
    meson setup build-asan "${opts[@]}" >/dev/null
  fi
  ninja -C build-asan >/dev/null
fi
