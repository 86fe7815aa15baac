#!/usr/bin/env bash
# The PP5 sources in layers (issue 18): the include graph of src/pp5 has no
# cycle, between directories (pp5 → pp5/accel → pp5/model/igc → pp5/model) as
# between files (x.c and x.h one node), and the model names nothing of the
# accelerator. The graph is printed; tsort fails on a cycle.
#   tests/pp5/layers.sh [SOURCE_ROOT]
set -u
cd "${1:-$(dirname "$0")/../..}" || exit 1
edges() { grep -rHo '#include "pp5/[^"]*"' src/pp5 | sed -E 's|^src/||; s|:#include "| |; s|"$||'; }
echo "== directories (includer included)"
dirs=$(edges | sed -E 's|/[^/ ]+ | |; s|/[^/]+$||' | sort -u | awk '$1 != $2')
echo "$dirs"
echo "$dirs" | tsort >/dev/null || exit 1
echo "== files (x.c and x.h one node)"
edges | sed -E 's/\.[ch]( |$)/\1/g' | sort -u | tsort >/dev/null || exit 1
echo "== the model names nothing of the accelerator (its headers, its functions)"
syms=$(grep -hoE '^[a-z_][a-z0-9_ *]*[ *](pp5_[a-z0-9_]+)\(' src/pp5/accel/*.c | sed -E 's/.*[ *](pp5_[a-z0-9_]+)\($/\1/' | sort -u)
[ -n "$syms" ] || { echo "layers: no functions found in src/pp5/accel"; exit 1; }
if grep -rnE "#include \"pp5/accel/|\b($(echo $syms | tr ' ' '|'))\b" src/pp5/model --include='*.[ch]' |
   grep -vE '^[^:]+:[0-9]+: *(/?\*|//)'; then
  echo "layers: the model refers to the accelerator (above)"
  exit 1
fi
echo "ok: no include cycle among the PP5 files; the model does not depend on the accelerator"
