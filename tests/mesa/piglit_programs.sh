#!/bin/bash
# piglit programs (not shader tests) that once failed on the virtual R500
# because of lockstep, run unmodified under `lockstep mesa exec` on waffle's
# GBM platform (docs/mesa.md "A broader run"), each required to pass by its
# own probes:
#   - fbo-blit-d24s8: the GBM window is ARGB2101010; a later depth-only draw
#     keeps RB3D_COLORPITCH0 = ARGB2101010 with US_OUT_FMT_0 = C4_8 and
#     channel mask 0, which the back end once refused (draws stopped, depth
#     never written);
#   - arb_clip_control-clip-control: glClipControl(GL_ZERO_TO_ONE) reaches
#     the device as VAP_CNTL.DX_CLIP_SPACE_DEF, the 0 <= z <= w view volume;
#   - occlusion_query, occlusion-query-discard: GL_SAMPLES_PASSED of boxes
#     partly hidden by depth (counts the test computes from the boxes'
#     sizes) and of fragments the shader discards, through ZB_ZPASS_DATA /
#     ZB_ZPASS_ADDR (assumption rb-zpass), which once stayed 0.
# Skips (77) without the shim, r300_dri.so, libwaffle or the piglit package.
# usage: piglit_programs.sh LOCKSTEP PIGLIT_CACHE_DIR
set -u
L=$1
CACHE=${2:-}
if [ -z "${LOCKSTEP_MESA_SHIM:-}" ]; then
  echo "SKIP: the r300 shim is not built (libdrm-dev, libegl-dev, libgl-dev)"
  exit 77
fi
if ! ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  echo "SKIP: r300_dri.so (libgl1-mesa-dri) is not installed"
  exit 77
fi
if ! ls /usr/lib/*/libwaffle-1.so.0 >/dev/null 2>&1; then
  echo "SKIP: libwaffle-1-0 is not installed"
  exit 77
fi
. "$(dirname "$0")/piglit_prereq.sh"
piglit_find_deb "$CACHE"
if [ -z "$deb" ]; then
  echo "SKIP: no piglit package (apt-get download piglit failed)"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-pgp.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp"
export TMPDIR="$work/tmp"
P=./usr/lib/x86_64-linux-gnu/piglit
progs="fbo-blit-d24s8 arb_clip_control-clip-control occlusion_query occlusion-query-discard"
files=""
for p in $progs; do files="$files $P/bin/$p"; done
# shellcheck disable=SC2086
if ! dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" $files "$P/lib/libpiglitutil_gl.so.0" \
    "$P/lib/libpiglitutil.so.0" 2>/dev/null; then
  echo "FAIL: extracting the programs from $deb"
  exit 1
fi
P=$work/usr/lib/x86_64-linux-gnu/piglit
fail=0
for p in $progs; do
  env PIGLIT_PLATFORM=gbm LD_LIBRARY_PATH="$P/lib" timeout 120 "$L" mesa exec -- "$P/bin/$p" -auto \
    >"$work/out" 2>&1
  if grep -q 'PIGLIT: {"result": "pass" }' "$work/out" &&
     ! grep -q "refused\|lockup\|not executed" "$work/out"; then
    echo "$p: pass"
  else
    echo "FAIL: $p:"
    tail -15 "$work/out"
    fail=1
  fi
done
exit $fail
