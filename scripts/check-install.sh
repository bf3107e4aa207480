#!/usr/bin/env bash
# `meson install` into a temporary directory, then use the installed tree as a user would,
# from outside the sources (run by `meson test` as the test `install`, so CI's test command
# runs it):
#  - every file is there: binary, shared and static library, public headers (exactly those of
#    include/fricbench/, used as <fricbench/fricbench.h>), fricbench.pc,
#    the gnuplot scripts (all of scripts/*.gp), the docs the scenario pages quote
#    (docs/design.md, docs/scenarios/*.md), the man page, the bash completion;
#  - the shared library exports only fb_ symbols;
#  - examples/embed.c builds with `pkg-config --cflags --libs fricbench` (warnings as
#    errors, so the public headers compile cleanly in user code) and runs, found through
#    LD_LIBRARY_PATH and, built with an rpath to pkg-config's libdir, without it;
#  - examples/plugin_stribeck.c builds against the installed headers and the installed
#    fricbench lists and runs its model;
#  - the installed `fricbench suite --plan tests/plans/tiny.ini --no-plots` (the machinery
#    tests' plan: a few runs of several groups, so this check does not grow with the
#    default table) runs from /tmp, and once more with plots when gnuplot is installed:
#    its scripts are found through the prefix only;
#  - the bash completion completes model names (the plugin's too);
#  - the Python package (when meson found Debian's python3 with numpy and pandas) is
#    installed under the prefix's site directory, knows the installed library's path, and
#    loads the installed suite's results and runs a case.
# Usage: scripts/check-install.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: check-install.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/fricbench-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }

meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/dest" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "meson install failed"; }
opt() {
  meson introspect "$build" --buildoptions |
    python3 -c "import json, sys; print({o['name']: o['value'] for o in json.load(sys.stdin)}['$1'])"
}
prefix=$(opt prefix)
root=$tmp/dest$prefix
libdir=$root/$(opt libdir)
datadir=$root/$(opt datadir)
sov=$(sed -n "s/^fb_soversion = '\([0-9]*\)'.*/\1/p" "$src/meson.build") # = FB_ABI_VERSION
for f in "$root/$(opt bindir)/fricbench" "$libdir/libfricbench.so" "$libdir/libfricbench.so.$sov" \
         "$libdir/libfricbench.a" "$root/$(opt includedir)/fricbench/fricbench.h" \
         "$libdir/pkgconfig/fricbench.pc" "$root/$(opt mandir)/man1/fricbench.1" \
         "$datadir/bash-completion/completions/fricbench"; do
  [ -e "$f" ] || fail "not installed: ${f#"$tmp/dest"}"
done
# include/fricbench/ is the public API and nothing else: installed file for file
diff <(cd "$src/include/fricbench" && ls) <(cd "$root/$(opt includedir)/fricbench" && ls) >/dev/null ||
  fail "the installed headers differ from include/fricbench/"
for gp in "$src"/scripts/*.gp; do
  [ -f "$datadir/fricbench/$(basename "$gp")" ] ||
    fail "scripts/$(basename "$gp") is not installed: add it to install_data in meson.build"
done
# the scenario pages quote the docs (bench/report/report_pages.c)
for doc in "$src"/docs/design.md "$src"/docs/scenarios/*.md; do
  [ -f "$datadir/fricbench/docs/${doc#"$src"/docs/}" ] ||
    fail "docs/${doc#"$src"/docs/} is not installed under share/fricbench/docs (meson.build)"
done
extra=$(nm -D --defined-only "$libdir/libfricbench.so" | awk '$3 !~ /^fb_/ {print $3}')
[ -z "$extra" ] || fail "libfricbench.so exports more than the fb_ API: $extra"

# A user's build: the installed tree relocated under $tmp/dest, so pkg-config is told the
# prefix; nothing from the sources or the build directory is on any path.
export PKG_CONFIG_PATH=$libdir/pkgconfig
pc=(pkg-config --define-variable=prefix="$root")
cd "$tmp"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$src/examples/embed.c" \
  $("${pc[@]}" --cflags --libs fricbench) -o embed
LD_LIBRARY_PATH=$libdir ./embed >embed.out || { cat embed.out >&2; fail "embed did not hold the joint"; }
# README "Where things land": or an rpath to pkg-config's libdir, no LD_LIBRARY_PATH
cc -std=c11 "$src/examples/embed.c" $("${pc[@]}" --cflags --libs fricbench) \
  -Wl,-rpath,"$("${pc[@]}" --variable=libdir fricbench)" -o embed-rpath
env -u LD_LIBRARY_PATH ./embed-rpath >embed.out || fail "embed built with the rpath did not run"
grep -q "relay step (implicit Euler) *held" embed.out || fail "embed: unexpected output"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -shared -fPIC "$src/examples/plugin_stribeck.c" \
  $("${pc[@]}" --cflags fricbench) -o plugin_stribeck.so

fricbench=$root/$(opt bindir)/fricbench
unset FRICBENCH_SCRIPTS FRICBENCH_PLUGINS
"$fricbench" --version >/dev/null
"$fricbench" --plugin ./plugin_stribeck.so list models | grep -q "^  drake-stribeck " ||
  fail "the installed fricbench does not list the plugin's model"
"$fricbench" --plugin ./plugin_stribeck.so run -s inclined-block -m drake-stribeck --samples 3 \
  >/dev/null 2>run.err || { cat run.err >&2; fail "run with the plugin failed"; }
# The completion offers the installed binary's models, the plugin's included.
words=$(bash -c 'source "$1"; COMP_WORDS=("$2" --plugin ./plugin_stribeck.so run --model "");
                 COMP_CWORD=5; _fricbench; echo "${COMPREPLY[*]}"' _ \
          "$datadir/bash-completion/completions/fricbench" "$fricbench")
[[ " $words " == *" kikuuwe "* && " $words " == *" drake-stribeck "* ]] ||
  fail "bash completion of --model gave: $words"
plan=$src/tests/plans/tiny.ini
"$fricbench" suite --plan "$plan" --no-plots --out q >suite.log 2>&1 ||
  { tail suite.log >&2; fail "suite --plan tiny.ini failed"; }
[ -s q/runs.csv ] || fail "suite --plan tiny.ini wrote no runs.csv"
if command -v gnuplot >/dev/null; then
  "$fricbench" suite --plan "$plan" --out qp >suite-plots.log 2>&1 ||
    { tail suite-plots.log >&2; fail "suite --plan tiny.ini with plots failed"; }
  [ -s qp/report.html ] || fail "suite --plan tiny.ini wrote no report.html"
  # every plot the report names was drawn, through the installed scripts
  for png in $(grep -o 'src="plots/[^"]*\.png"' qp/report.html | sed 's/^src="//; s/"$//'); do
    [ -s "qp/$png" ] || fail "the installed suite did not draw $png"
  done
  grep -q 'src="plots/conv_' qp/report.html || fail "the report has no convergence plot"
fi
pyinit=$(find "$root" -path '*/fricbench/__init__.py' | head -1)
if [ -n "$pyinit" ]; then
  pysite=$(dirname "$(dirname "$pyinit")")
  # the relocated tree: the library at the path _config.py names, under $tmp/dest
  PYTHONPATH=$pysite FRICBENCH_LIBRARY=$libdir/libfricbench.so.$sov /usr/bin/python3 - \
      "$prefix/$(opt libdir)/libfricbench.so.$sov" >py.out 2>&1 <<'PY' ||
import sys
import fricbench
from fricbench import _config
assert _config.LIBRARY == sys.argv[1], (_config.LIBRARY, sys.argv[1])
assert "kikuuwe" in fricbench.models()
res = fricbench.load("q")
assert len(res.runs) > 20 and res.verdicts is not None
traj, m = fricbench.run("inclined-block", "kikuuwe", samples=11)
assert len(traj) == 11 and m["status"] == "ok"
PY
    { cat py.out >&2; fail "the installed Python package failed"; }
fi
echo "check-install: ok (installed under $prefix via DESTDIR, used from $tmp)"
