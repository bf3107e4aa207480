# functions.awk FILE... — the functions of C files, for scripts/check-layers.sh.
# Prints one line per function definition and per use of a name:
#   def FILE NAME static|extern FIRST LAST   (FIRST: the line the signature starts on)
#   obj FILE NAME                            (a file-scope object it defines, not static)
#   inc FILE HEADER                          (a project header it includes)
#   use FILE NAME                            (an identifier in code, outside comments
#                                             and literals; check-layers keeps those
#                                             that name another file's function)
# It reads the project's layout (clang-format: a definition's signature starts in column
# 0, its body closes with '}' in column 0), not arbitrary C; plain POSIX awk, so that the
# test runs wherever the build does.

# The line with comments, string and character literals blanked (the state of a block
# comment carries over lines in `incomment`).
function strip(s,    out, i, c, n, q) {
  out = ""
  n = length(s)
  i = 1
  while (i <= n) {
    c = substr(s, i, 1)
    if (incomment) {
      if (c == "*" && substr(s, i + 1, 1) == "/") { incomment = 0; i += 2; out = out "  " }
      else { i++; out = out " " }
      continue
    }
    if (c == "/" && substr(s, i + 1, 1) == "*") { incomment = 1; i += 2; out = out "  "; continue }
    if (c == "/" && substr(s, i + 1, 1) == "/") break
    if (c == "\"" || c == "'") {
      q = c
      out = out " "
      i++
      while (i <= n) {
        c = substr(s, i, 1)
        if (c == "\\") { i += 2; out = out "  "; continue }
        i++
        out = out " "
        if (c == q) break
      }
      continue
    }
    out = out c
    i++
  }
  return out
}

function count(s, ch,    t) { t = s; return gsub(ch, "", t) }

function uses(s,    t, id) {
  t = s
  # a member (after . or ->) is not a use of a function of that name
  gsub(/(\.|->)[ \t]*[A-Za-z_][A-Za-z0-9_]*/, " ", t)
  while (match(t, /[A-Za-z_][A-Za-z0-9_]*/)) {
    id = substr(t, RSTART, RLENGTH)
    t = substr(t, RSTART + RLENGTH)
    if (!(id in seen)) { seen[id] = 1; print "use", FILENAME, id }
  }
}

FNR == 1 {
  incomment = 0; depth = 0; hdr = ""; hdrline = 0; infn = 0; inpp = 0
  split("", seen)
}

{
  raw = $0
  line = strip(raw)
  if (raw ~ /^#include "/) { h = raw; sub(/^#include "/, "", h); sub(/".*/, "", h); print "inc", FILENAME, h }
  # preprocessor lines (and their continuations) are neither signatures nor bodies
  if (inpp || line ~ /^[ \t]*#/) { inpp = (line ~ /\\[ \t]*$/); next }
  if (depth == 0) {
    if (line ~ /^[A-Za-z_]/) { hdr = line; hdrline = FNR }
    # a file-scope object defined with an initializer (a registry's table, a type record):
    # "obj FILE NAME" unless static (check-layers.sh rule 7 reads where names live)
    if (line ~ /^[A-Za-z_]/ && line !~ /^(static|typedef|extern)[ \t]/ && line ~ /=/) {
      pre = line
      sub(/=.*/, "", pre)
      if (pre !~ /\(/) {
        sub(/[ \t]+$/, "", pre)
        while (pre ~ /\[[^]]*\]$/) sub(/\[[^]]*\]$/, "", pre)
        sub(/[ \t]+$/, "", pre)
        name = pre
        sub(/.*[^A-Za-z0-9_]/, "", name)
        if (name != "") print "obj", FILENAME, name
      }
    }
    else if (hdrline && line !~ /^[ \t]*$/) hdr = hdr " " line
    opens = count(line, "{")
    if (opens > 0 && hdrline) {
      pre = hdr
      sub(/\{.*/, "", pre)
      # a definition: a parameter list before the brace, no initializer or type body
      if (pre ~ /\(/ && pre !~ /=/ && pre !~ /^(typedef|struct|union|enum)[ \t]/) {
        name = pre
        sub(/\(.*/, "", name)
        sub(/[ \t*]+$/, "", name)
        sub(/.*[^A-Za-z0-9_]/, "", name)
        fnname = name
        fnstatic = (pre ~ /^static[ \t]/) ? "static" : "extern"
        fnfirst = hdrline
        infn = 1
      }
    }
  }
  if (infn || depth > 0) uses(line)
  else if (line ~ /=/ || depth > 0) uses(line) # file-scope initializers: callback tables
  depth += count(line, "{") - count(line, "}")
  if (depth <= 0) {
    depth = 0
    if (infn && line ~ /\}/) {
      print "def", FILENAME, fnname, fnstatic, fnfirst, FNR
      infn = 0
    }
    if (line ~ /[;}]/) hdrline = 0
  }
}
