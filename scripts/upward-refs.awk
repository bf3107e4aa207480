# upward-refs.awk — reads "see DIR SEEN" lines (the folders each folder may see,
# check-layers.sh rule 1), "api NAME" lines (the public API, include/fricbench/: seen by
# every folder) and functions.awk's lines, and prints every use of a name (a function or a
# file-scope object, not static) in a folder that does not see the folder defining it: a
# reference upward, which the include rule misses when the name is declared in a header of
# the lower folder itself (an `extern` of the table above).  A name the using file defines
# itself, or gets as a static inline from a header it includes (two folders may each keep
# their own streq), is its own.
function dir_of(f,    d) { d = f; sub(/\/[^\/]*$/, "", d); return d }
function from_header(f, x,    nh, hs, i) {
  if (!(x in inl)) return 0
  nh = split(inl[x], hs, " ")
  for (i = 1; i <= nh; i++) if ((f SUBSEP hs[i]) in inc) return 1
  return 0
}
$1 == "see" { sees[$2, $3] = 1; next }
$1 == "api" { api[$2] = 1; next }
$1 == "inc" { inc[$2, $3] = 1; next }
$1 == "def" {
  own[$2, $3] = 1
  if ($2 ~ /\.h$/) { h = $2; sub(/.*\//, "", h); inl[$3] = inl[$3] " " h }
  else if ($4 == "extern") home[$3] = $2
  next
}
$1 == "obj" { own[$2, $3] = 1; if ($2 !~ /\.h$/) home[$3] = $2; next }
$1 == "use" { nu++; uf[nu] = $2; un[nu] = $3 }
END {
  for (i = 1; i <= nu; i++) {
    f = uf[i]; x = un[i]
    if (!(x in home) || (x in api) || ((f, x) in own) || from_header(f, x)) continue
    d = dir_of(f); e = dir_of(home[x])
    if (d == e || ((d, e) in sees)) continue
    key = f " " x
    if (key in done) continue
    done[key] = 1
    printf "upward: %s uses %s, defined in %s (%s does not see %s)\n", f, x, home[x], d, e
  }
}
