# Sourced by the tests that run the `$ lockstep …` lines of a manual's
# ```console blocks (fuzz_docs_examples.sh, scene.sh).
#   doc_examples_setup LOCKSTEP SRCROOT NAME: skips (77) without the shim or
#     r300_dri.so; sets L (absolute), ROOT, T (a scratch directory with tests/
#     and examples/ of the source tree linked in, removed on exit), rc=0, n=0.
#   doc_examples_run CHECK < LINES: runs each line "$ lockstep ARGS [# exits N]"
#     in $T, requires exit N (default 0), counts it in n, sets rc=1 on a
#     failure; CHECK (a function name or :) is called with cmd, want, got after
#     each, its stdout and stderr in $T/out and $T/err.
doc_examples_setup() {
  L=$1 ROOT=$2
  case $L in /*) ;; *) L=$PWD/$L ;; esac
  if [ -z "${LOCKSTEP_MESA_SHIM:-}" ] || [ ! -r "${LOCKSTEP_MESA_SHIM}" ]; then
    echo "skip: the r300 shim is not built (libdrm-dev libegl-dev libgl-dev absent)"; exit 77
  fi
  if ! ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
    echo "skip: r300_dri.so (libgl1-mesa-dri) is not installed"; exit 77
  fi
  T=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-$3-XXXXXX") && trap 'rm -rf "$T"' EXIT
  ln -s "$ROOT/tests" "$T/tests"
  ln -s "$ROOT/examples" "$T/examples"
  rc=0 n=0
}

doc_examples_run() {
  local check=$1 line cmd want got
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
    "$check" "$cmd" "$want" "$got"
  done
}
