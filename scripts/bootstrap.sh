#!/usr/bin/env bash
# Install what is missing (Debian 12 packages) and build fricbench into build/.
# Root installs directly; other users need sudo.  CI=true builds with -Werror.
# --asan: also build build-asan/, the same with -Db_sanitize=address,undefined (the tests'
# sanitizer configuration: meson test -C build-asan).
# --sundials: also install SUNDIALS (libsundials-dev: CVODE and ARKODE, the integrators of
# docs/integrators/sundials.md), an optional dependency since Debian 12's package pulls
# about 140 others (OpenMPI, PETSc, Trilinos, HDF5; ~550 MB, about 1.5 minutes); a build
# configured without it is set up again.  The options combine (--asan --sundials).
set -euo pipefail
asan=0
sundials=0
for a in "$@"; do
  case "$a" in
    --asan) asan=1 ;;
    --sundials) sundials=1 ;;
    *) echo "bootstrap: unknown option '$a' (allowed: --asan, --sundials)" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
pkgs=(gcc libgsl-dev libcriterion-dev gnuplot-nox meson ninja-build pkg-config parallel
      libinih-dev libjansson-dev zlib1g-dev python3-numpy python3-pandas python3-pytest
      libode-dev libbullet-dev nodejs npm)
optional=(libsundials-dev)
# node and npm count as present when the commands are there: a machine with NodeSource's
# nodejs (which ships npm) cannot take Debian's npm package beside it (apt refuses: "held
# broken packages"), and needs neither
have() {
  case "$1" in
    nodejs) command -v node >/dev/null 2>&1 ;;
    npm) command -v npm >/dev/null 2>&1 ;;
    *) dpkg -s "$1" >/dev/null 2>&1 ;;
  esac
}
missing=()
for p in "${pkgs[@]}"; do
  have "$p" || missing+=("$p")
done
if [ "$sundials" = 1 ]; then
  for p in "${optional[@]}"; do
    have "$p" || missing+=("$p")
  done
fi
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
# a build configured before SUNDIALS was installed does not see it: set it up again
for d in build build-asan; do
  if [ "$sundials" = 1 ] && [ -f "$d/build.ninja" ] && ! grep -q FB_HAVE_SUNDIALS "$d/build.ninja"; then
    meson setup --wipe "$d" >/dev/null
  fi
done
ninja -C build >/dev/null
# The MuJoCo engine (docs/engines/mujoco.md): the pinned mujoco-js into build/node_modules,
# from the project's package.json and lock; no network: the engine is skipped, no failure.
if [ ! -f build/node_modules/mujoco-js/package.json ]; then
  cp engines/mujoco/package.json engines/mujoco/package-lock.json build/
  (cd build && npm install --no-audit --no-fund mujoco-js@0.0.7 >/dev/null 2>&1) ||
    echo "bootstrap: npm could not install mujoco-js 0.0.7: the MuJoCo engine is skipped" >&2
fi
if [ "$asan" = 1 ]; then
  if [ ! -f build-asan/build.ninja ]; then
    opts=(--buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false)
    [ "${CI:-}" = "true" ] && opts+=(--werror)
    meson setup build-asan "${opts[@]}" >/dev/null
  fi
  ninja -C build-asan >/dev/null
fi
