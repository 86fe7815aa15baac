#!/bin/bash
# Every ```console block of docs/mesa-fuzz.md runs: each line "$ lockstep ARGS
# [# exits N]" is run in a scratch directory (with tests/ and examples/ of the
# source tree linked into it) and must exit with N (default 0). Skips (77)
# when the shim is not built or r300_dri.so is not installed.
# usage: fuzz_docs_examples.sh LOCKSTEP SRCROOT
set -u
. "$(dirname "$0")/doc_examples.sh"
doc_examples_setup "$1" "$2" fuzz-docs
doc_examples_run : < <(awk '/^ *```console$/ { on = 1; next } /^ *```/ { on = 0 } on && /^ *\$ lockstep / { sub(/^ */, ""); print }' \
           "$ROOT/docs/mesa-fuzz.md")
echo "$n examples run"
[ "$n" -ge 5 ] || { echo "FAILED: fewer than 5 examples found"; rc=1; }
exit $rc
