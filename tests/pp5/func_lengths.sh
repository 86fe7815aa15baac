#!/usr/bin/env bash
# The length of every function in the PP5 library (src/pp5), longest first,
# and a failure when one is 200 lines or more (issue 18: the largest PP5
# function under 200 lines).
#   tests/pp5/func_lengths.sh [SOURCE_ROOT] [LIMIT]     (prints the 10 longest)
# A function is counted from the first line of its signature to the "}" that
# closes it at column 0 (the house style: the body's braces at column 0).
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
limit=${2:-200}
lengths=$(find "$root/src/pp5" -name '*.[ch]' -print0 | sort -z | xargs -0 awk '
  FNR == 1 { sig = 0; infn = 0 }
  !infn && /^$/ { sig = 0; text = "" }
  !infn && /^[A-Za-z_]/ && !/;[ \t]*$/ && !/^(typedef|struct|enum|union)[ \t]/ && !sig { sig = FNR; text = "" }
  !infn && sig { text = text " " $0 }
  !infn && /^\{/ && sig { infn = 1 }
  infn && /^\}/ {
    t = text; gsub(/__attribute__\(\([^)]*\)\)/, "", t)
    name = t; sub(/\(.*/, "", name); n = split(name, w, /[ \t*]+/)
    printf "%d %s:%d %s\n", FNR - sig + 1, FILENAME, sig, w[n]; infn = 0; sig = 0 }' |
  sed "s|$root/||" | sort -rn)
[ -n "$lengths" ] || { echo "func_lengths: no functions found under $root/src/pp5"; exit 1; }
echo "$lengths" | head -10
over=$(echo "$lengths" | awk -v l="$limit" '$1 >= l')
if [ -n "$over" ]; then
  echo "func_lengths: PP5 functions of $limit lines or more:"
  echo "$over"
  exit 1
fi
