#!/usr/bin/env bash
# test-upward-refs.sh SRCDIR — check-layers.sh rule 7 (scripts/upward-refs.awk) on a planted
# violation, the shape of the one models/registry.c had: a lower folder (models/) declares
# the table of a folder above it (engines/) in its own header and uses it, which the
# include rule cannot see.  The planted tree must be refused, naming the file and the name;
# the same tree with the use removed, a use of a folder seen (core/), a use of the public
# API and of a header's own static inline must pass.  Milliseconds: two small trees.
set -euo pipefail
src=$(cd "${1:-$(dirname "$0")/..}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{core,models,engines}
cat > "$tmp/core/low.c" <<'C'
int fb_low(int x)
{
  return x + 1;
}
C
cat > "$tmp/engines/table.c" <<'C'
const int fb_table_up[] = {1, 2, 0};
int fb_api_up(void)
{
  return 2;
}
C
cat > "$tmp/models/fb_m.h" <<'C'
extern const int fb_table_up[];
static inline int streq_m(int a, int b)
{
  return a == b;
}
C
plant() { # $1: the body of models/m.c's function
  cat > "$tmp/models/m.c" <<C
#include "fb_m.h"
int fb_model_side(int i)
{
  $1
}
C
}
check() {
  ( cd "$tmp"
    { echo "see models core"; echo "see models models"; echo "see engines models"
      echo "see engines core"; echo "api fb_api_up"
      awk -f "$src/scripts/functions.awk" core/low.c engines/table.c models/fb_m.h models/m.c
    } | awk -f "$src/scripts/upward-refs.awk" )
}
plant 'return fb_table_up[i];'
got=$(check)
want="upward: models/m.c uses fb_table_up, defined in engines/table.c (models does not see engines)"
if [ "$got" != "$want" ]; then
  echo "planted upward reference not refused as expected: got '$got'" >&2
  exit 1
fi
plant 'return fb_low(i) + fb_api_up() + streq_m(i, 0);'
got=$(check)
if [ -n "$got" ]; then
  echo "a clean tree refused: $got" >&2
  exit 1
fi
echo "rule 7: the planted upward reference is refused, the clean tree passes"
