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
edges | sed -E 's|/[^/ ]+ | |; s|/[^/]+$||' | sort -u | awk '$1 != $2' | tee /dev/stderr | tsort >/dev/null || exit 1
echo "== files (x.c and x.h one node)"
edges | sed -E 's/\.[ch]( |$)/\1/g' | sort -u | tsort >/dev/null || exit 1
echo "== the model names nothing of the accelerator"
if grep -rnE 'pp5/accel|PP5_FAST|pp5_igc_fast|pp5_emc_' src/pp5/model --include='*.[ch]' | grep -v 'pp5_emc_ref'; then
  echo "layers: the model refers to the accelerator (above)"
  exit 1
fi
echo "ok: no include cycle among the PP5 files; the model does not depend on the accelerator"
