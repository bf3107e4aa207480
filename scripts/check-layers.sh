#!/usr/bin/env bash
# check-layers.sh SRCDIR — the architecture rules of README "Layout", as a test:
#  1. each folder includes only the headers it may see, the include path meson compiles it
#     with (meson.build, bench/meson.build: the compiler refuses the rest; this is the second
#     guard, and the rules' one written list): include/fricbench/ (the public API) by every
#     folder; core/ its own; integrators/ core's; models/ core's and the integrators';
#     contact/ (normal contact) those and the models'; scenarios/ core's; engines/ those of
#     contact/; bench/ is layered
#     harness < analysis < report < suite < cli, each seeing every folder below bench, its
#     own headers and those of the bench folders before it; a public header includes only
#     public headers (it is installed alone);
#  2. the top-level folders core, models, contact, integrators, scenarios and bench include each
#     other without a cycle, apart from the one recorded below;
#  3. no .c or .h file of the project exceeds 1,200 lines;
#  4. no call cycle between the library's .c files: a file calls functions of files below
#     it only (a shared helper lives in a file of its own below its callers), so any file
#     can be read and tested without those above it (scripts/call-cycles.awk);
#  5. no function of the library is longer than 120 lines (a longer one is split into
#     named steps), apart from those recorded below with the reason;
#  6. include/fricbench/ declares only what the shared library exports: every function or
#     object declared there is FB_API (or a static inline), and every fb_ function a public
#     inline calls is itself public; the library's own declarations live in the private
#     headers of the lowest folder that uses them (core/fb_plant_int.h, core/fb_parse.h,
#     core/fb_model_int.h, integrators/fb_integrator_int.h, models/fb_contact_step_int.h);
#  7. no folder uses a function or file-scope object defined in a folder it does not see
#     (rule 1's table), whatever header declares it (scripts/upward-refs.awk).
# Prints every violation and exits 1 when there is one.
set -euo pipefail
src=${1:-$(dirname "$0")/..}
cd "$src"
fail=0

# where a header lives: include/fricbench, its top-level folder, or bench/<layer>
declare -A home
for f in include/fricbench/*.h core/*.h models/*.h contact/*.h integrators/*.h scenarios/*.h engines/*.h \
         bench/*/*.h \
         bench/*/*.h.in; do
  [ -e "$f" ] || continue
  b=$(basename "$f" .in)
  d=$(dirname "$f")
  home[$b]=$d
done
# fb_version.h is generated from bench/suite/fb_version.h.in
includes() { grep -o '^#include "[A-Za-z0-9_]*\.h"' "$1" | sed 's/#include "//; s/"$//'; }

# 1. what each folder sees (besides include/fricbench, seen by all): meson's include paths
below_bench="core integrators models contact scenarios engines"
declare -A sees=(
  [include/fricbench]=""
  [core]="core"
  [integrators]="core integrators"
  [models]="core integrators models"
  [contact]="core integrators models contact"
  [engines]="core integrators models contact engines"
  [scenarios]="core scenarios"
  [bench/harness]="$below_bench bench/harness"
  [bench/analysis]="$below_bench bench/harness bench/analysis"
  [bench/report]="$below_bench bench/harness bench/analysis bench/report"
  [bench/suite]="$below_bench bench/harness bench/analysis bench/report bench/suite"
  [bench/cli]="$below_bench bench/harness bench/analysis bench/report bench/suite bench/cli"
  [bench/peers]="$below_bench bench/harness"
)
for f in include/fricbench/*.h core/*.[ch] integrators/*.[ch] models/*.[ch] contact/*.[ch] \
         scenarios/*.[ch] engines/*.[ch] bench/*/*.[ch]; do
  [ -e "$f" ] || continue
  dir=$(dirname "$f")
  if [ -z "${sees[$dir]+x}" ]; then
    echo "layer: $f is in $dir, a folder without a rule: add it to sees in $0 and to meson" >&2
    fail=1
    continue
  fi
  for h in $(includes "$f"); do
    d=${home[$h]:-}
    [ -n "$d" ] || continue
    [ "$d" = include/fricbench ] && continue
    case " ${sees[$dir]} " in
      *" $d "*) ;;
      *) echo "layer: $f includes $h of $d, which $dir does not see" >&2; fail=1 ;;
    esac
  done
done

# 2. top-level folders: edges, then a cycle search
declare -A edge
top_of() { case "$1" in bench/*) echo bench ;; *) echo "${1%%/*}" ;; esac; }
for f in core/*.[ch] models/*.[ch] contact/*.[ch] integrators/*.[ch] scenarios/*.[ch] engines/*.[ch] \
         bench/*/*.[ch]; do
  [ -e "$f" ] || continue
  from=$(top_of "$f")
  for h in $(includes "$f"); do
    d=${home[$h]:-}
    [ -n "$d" ] && [ "$d" != include/fricbench ] || continue
    to=$(top_of "$d")
    [ "$to" != "$from" ] && edge["$from>$to"]=1
  done
done
# None allowed: the model contract (include/fricbench/fb_model.h) is below both models/ and
# integrators/, so the model-owned schemes (models/) may use the integrators' driver
# while the generic integrators see only the contract.
allowed=""
folders=(core models contact integrators scenarios engines bench)
for a in "${folders[@]}"; do
  for b in "${folders[@]}"; do
    [ "$a" \< "$b" ] || continue
    if [ -n "${edge[$a>$b]:-}" ] && [ -n "${edge[$b>$a]:-}" ]; then
      case " $allowed " in
        *" $a>$b "*) ;;
        *) echo "cycle: $a and $b include each other" >&2; fail=1 ;;
      esac
    fi
  done
done
# longer cycles through three folders
for a in "${folders[@]}"; do for b in "${folders[@]}"; do for c in "${folders[@]}"; do
  [ "$a" != "$b" ] && [ "$b" != "$c" ] && [ "$a" != "$c" ] || continue
  if [ -n "${edge[$a>$b]:-}" ] && [ -n "${edge[$b>$c]:-}" ] && [ -n "${edge[$c>$a]:-}" ]; then
    echo "cycle: $a > $b > $c > $a" >&2
    fail=1
  fi
done; done; done

# 3. file length
while read -r n f; do
  [ "$f" = total ] && continue
  if [ "$n" -gt 1200 ]; then
    echo "length: $f has $n lines (at most 1,200)" >&2
    fail=1
  fi
done < <(wc -l include/fricbench/*.h core/*.[ch] models/*.[ch] contact/*.[ch] integrators/*.[ch] scenarios/*.[ch] engines/*.[ch] bench/*/*.[ch] \
           tests/*.[ch] examples/*.c fuzz/*.[ch])
# 4. and 5. read every function of the library (scripts/functions.awk)
lib_sources=(core/*.[ch] models/*.[ch] contact/*.[ch] integrators/*.[ch] scenarios/*.[ch] engines/*.[ch] bench/*/*.[ch])
fns=$(awk -f scripts/functions.awk "${lib_sources[@]}")
cycles=$(printf '%s\n' "$fns" | awk -f scripts/call-cycles.awk | sort)
if [ -n "$cycles" ]; then
  printf '%s\n' "$cycles" >&2
  fail=1
fi

# 7. no reference upward by name: a function or file-scope object is used only in the
# folders that see the folder defining it (the table of rule 1).  Rule 1 reads includes; a
# lower folder could still declare an upper one's table itself (`extern const ...[]` in its
# own header) and use it: models/registry.c once searched the engines' models that way.
# The public API (FB_API, include/fricbench/) is seen by every folder, as its headers are:
# scenarios select normal treatments by name through it, as a plugin's scenario does.
upward=$( { for d in "${!sees[@]}"; do
              for e in ${sees[$d]}; do echo "see $d $e"; done
            done
            grep -hoE '^FB_API [^(;=[]*\bfb_[a-z0-9_]+' include/fricbench/*.h |
              grep -oE 'fb_[a-z0-9_]+$' | sed 's/^/api /'
            printf '%s\n' "$fns"; } | awk -f scripts/upward-refs.awk | sort)
if [ -n "$upward" ]; then
  printf '%s\n' "$upward" >&2
  fail=1
fi

# 5. function length: the functions still longer than 120 lines, each to be split into
# named steps; the list may only shrink.  Left because issue 25's other items rewrite them:
# the stepping loops and the integrators' Jacobian (item 1, the stepper contract: evolve,
# run, fb_system_jac, fb_reference_run_opts' reference run, glowinski's workspace), the
# default table built from the models' suite data (item 2) and the plant's assembly
# (item 3, opaque plant internals).
long_ok=" bench/suite/matrix.c:fb_table_default bench/harness/reference.c:fb_reference_run_opts
  models/glowinski.c:glow_alloc
  integrators/system.c:fb_system_jac "
long_ok=$(echo $long_ok)
still_long=" "
while read -r _ f name _ first last; do
  len=$((last - first + 1))
  if [ "$len" -gt 120 ]; then
    case " $long_ok " in
      *" $f:$name "*) still_long+="$f:$name " ;;
      *) echo "function: $f: $name has $len lines (at most 120: split it into named steps)" >&2
         fail=1 ;;
    esac
  fi
done < <(printf '%s\n' "$fns" | grep '^def ')
# an entry whose function was split, renamed or removed leaves the list, so that it shrinks
for e in $long_ok; do
  case "$still_long" in
    *" $e "*) ;;
    *) echo "function: $e is no longer over 120 lines: remove it from long_ok in $0" >&2
       fail=1 ;;
  esac
done

# 6. the public headers declare only what is exported
pub=include/fricbench/*.h
while IFS= read -r line; do
  echo "public: $line is declared in a public header without FB_API: export it or move it to a private header" >&2
  fail=1
done < <(grep -nE '^(extern |const |void |int |double |size_t |unsigned |long |char |fb_[a-z_]+ )' $pub |
         grep -v 'FB_API' | grep -vE ':[0-9]+:(static|typedef)' || true)
declared=$(grep -hoE '^(FB_API .*|static inline .*)\bfb_[a-z0-9_]+\(' $pub | grep -oE 'fb_[a-z0-9_]+\($' | sort -u)
# calls in code, not in comments
for name in $(cat $pub | perl -0pe 's{/\*.*?\*/}{}gs' | grep -oE '\bfb_[a-z0-9_]+\(' | sort -u); do
  case " $(echo $declared) " in
    *" $name "*) ;;
    *) echo "public: $name) is used in a public header but is not a public function" >&2
       fail=1 ;;
  esac
done

exit $fail
