#!/bin/sh
# doc_output.sh EXE DOC HEADING: run EXE (a manual's example program, built
# from its ```c block) and require exit 0 and a stdout equal to the first
# ```output block of the section "## HEADING" of DOC.
set -u
dir=$(dirname "$0")
want=$(sh "$dir/doc_block.sh" "$2" "$3" output) || exit 1
got=$("$1") || { echo "FAIL: $1 exited $?"; printf '%s\n' "$got"; exit 1; }
if [ "$got" != "$want" ]; then
  echo "FAIL: the example's output is not the manual's ($2, \"$3\")"
  printf -- '--- the manual:\n%s\n--- the example:\n%s\n' "$want" "$got"
  exit 1
fi
printf '%s\n' "$got"
echo "ok: the example of $2 \"$3\" prints what the manual shows"
