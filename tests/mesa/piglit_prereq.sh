# Sourced by the tests that run piglit's own python runner under the shim
# (piglit_runner.sh, shader_runner_glsl.sh).
#   piglit_runner_prereq LOCKSTEP CACHE_DIR PROFILE NAME: skips (77) without
#     the shim, r300_dri.so, /usr/bin/python3 with mako and six, waffle-utils
#     or the piglit package (fetched into CACHE_DIR by listing one test of
#     PROFILE); sets work (a scratch directory lockstep-NAME.XXXXXX, removed
#     on exit).
piglit_runner_prereq() {
  local L=$1 cache=$2 profile=$3
  if [ -z "${LOCKSTEP_MESA_SHIM:-}" ] || [ ! -r "${LOCKSTEP_MESA_SHIM}" ]; then
    echo "SKIP: the r300 shim is not built (libdrm-dev libegl-dev libgl-dev absent)"; exit 77
  fi
  if ! ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
    echo "SKIP: r300_dri.so (libgl1-mesa-dri) is not installed"; exit 77
  fi
  if ! /usr/bin/python3 -c 'import mako, six' 2>/dev/null; then
    echo "SKIP: piglit's runner needs /usr/bin/python3 with python3-mako and python3-six"; exit 77
  fi
  if ! command -v wflinfo >/dev/null || ! ls /usr/lib/*/libwaffle-1.so.0 >/dev/null 2>&1; then
    echo "SKIP: piglit's runner needs waffle-utils (wflinfo) and libwaffle-1-0"; exit 77
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-$4.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  if ! "$L" mesa piglit --cache "$cache" --profile "$profile" \
      --list 'glsl-1.10@execution@glsl-fs-if-greater$' >"$work/out" 2>&1; then
    echo "SKIP: the piglit package could not be fetched or its runner not extracted:"
    cat "$work/out"; exit 77
  fi
}

#   piglit_find_deb CACHE_DIR: sets deb to Debian's piglit package, found in
#     $LOCKSTEP_PIGLIT_CACHE, CACHE_DIR or ~/.cache/lockstep/piglit, or fetched
#     into CACHE_DIR with apt-get download; deb is empty when neither works.
piglit_find_deb() {
  local cache=$1 d f
  deb=""
  for d in "${LOCKSTEP_PIGLIT_CACHE:-}" "$cache" "$HOME/.cache/lockstep/piglit"; do
    [ -n "$d" ] && f=$(ls "$d"/piglit_*.deb 2>/dev/null | head -1) && [ -n "$f" ] && { deb=$f; return 0; }
  done
  if [ -n "$cache" ] && mkdir -p "$cache" &&
     (cd "$cache" && timeout 120 apt-get download -q piglit >/dev/null 2>&1); then
    deb=$(ls "$cache"/piglit_*.deb 2>/dev/null | head -1)
  fi
}
