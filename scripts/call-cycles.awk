# call-cycles.awk — reads functions.awk's lines and prints every call between files that
# lies on a cycle ("A uses B's f, and B reaches A back"): a file must only call files
# below it, so that each part can be read, tested and moved without the ones above it.
# A name counts as a call to file B when B defines it as a non-static function and the
# calling file neither defines it itself nor includes a header defining it (static
# inline: two folders may each have their own streq).
$1 == "inc" { h = $3; inc[$2, h] = 1; next }
$1 == "def" {
  if ($2 ~ /\.h$/) { h = $2; sub(/.*\//, "", h); inl[$3] = inl[$3] " " h }
  else { own[$2 SUBSEP $3] = 1; if ($4 == "extern") home[$3] = $2 }
  files[$2] = 1
  next
}
$1 == "use" { nu++; uf[nu] = $2; un[nu] = $3; files[$2] = 1 }
function from_header(f, x,    nh, hs, i) {
  if (!(x in inl)) return 0
  nh = split(inl[x], hs, " ")
  for (i = 1; i <= nh; i++) if ((f SUBSEP hs[i]) in inc) return 1
  return 0
}

END {
  n = 0
  for (f in files) if (f !~ /\.h$/) { n++; fid[f] = n; fname[n] = f }
  for (i = 1; i <= nu; i++) {
    f = uf[i]; x = un[i]
    if (!(x in home) || ((f SUBSEP x) in own) || from_header(f, x)) continue
    g = home[x]
    if (g == f || !(f in fid) || !(g in fid)) continue
    a = fid[f]; b = fid[g]
    reach[a, b] = 1
    what[a, b] = ((a, b) in what) ? what[a, b] " " x : x
  }
  for (k = 1; k <= n; k++)
    for (i = 1; i <= n; i++) {
      if (!((i, k) in reach)) continue
      for (j = 1; j <= n; j++)
        if ((k, j) in reach) reach[i, j] = 1
    }
  for (key in what) {
    split(key, ab, SUBSEP)
    if ((ab[2], ab[1]) in reach)
      print "call cycle: " fname[ab[1]] " calls " fname[ab[2]] " (" what[key] \
            ") which calls back into it"
  }
}
