#!/bin/bash
# Every ```console block of docs/mesa-fuzz.md runs: each line "$ lockstep ARGS
# [# exits N]" is run in a scratch directory (with tests/ and examples/ of the
# source tree linked into it) and must exit with N (default 0). Skips (77)
# when the shim is not built or r300_dri.so is not installed.
# usage: fuzz_docs_examples.sh LOCKSTEP SRCROOT
set -u
L=$1 ROOT=$2
case $L in /*) ;; *) L=$PWD/$L ;; esac
if [ -z "${LOCKSTEP_MESA_SHIM:-}" ] || [ ! -r "${LOCKSTEP_MESA_SHIM}" ]; then
  echo "skip: the r300 shim is not built (libdrm-dev libegl-dev libgl-dev absent)"; exit 77
fi
if ! ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  echo "skip: r300_dri.so (libgl1-mesa-dri) is not installed"; exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-fuzz-docs-XXXXXX") && trap 'rm -rf "$T"' EXIT
ln -s "$ROOT/tests" "$T/tests"
ln -s "$ROOT/examples" "$T/examples"
rc=0 n=0
while IFS= read -r line; do
  cmd=${line#\$ lockstep }
  want=0
  case $cmd in *"# exits "*) want=${cmd##*# exits }; cmd=${cmd%%#*} ;; esac
  n=$((n + 1))
  (cd "$T" && eval "\"\$L\" $cmd" >"$T/out" 2>"$T/err")
  got=$?
  if [ "$got" != "$want" ]; then
    echo "FAILED: lockstep $cmd: exit $got, expected $want"; tail -5 "$T/err"; rc=1
  else
    echo "ok: lockstep $cmd (exit $got)"
  fi
done < <(awk '/^ *```console$/ { on = 1; next } /^ *```/ { on = 0 } on && /^ *\$ lockstep / { sub(/^ */, ""); print }' \
           "$ROOT/docs/mesa-fuzz.md")
echo "$n examples run"
[ "$n" -ge 5 ] || { echo "FAILED: fewer than 5 examples found"; rc=1; }
exit $rc
