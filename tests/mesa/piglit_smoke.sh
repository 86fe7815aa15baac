#!/bin/bash
# `lockstep mesa piglit` end to end on a fixed selection of piglit tests:
# multi-rectangle uniform tests, hexadecimal bit-pattern uniforms, loops with
# continue, R500 flow control (shadow-variables, nested-loop-combined: [FC]), branches, discard, gl_FragCoord, an `ortho`
# projection (glsl-fs-ceil), several shaders per stage (chain16-in), textures
# uploaded by r300 (`texture checkerboard` on two units, `shadow2D`/`shadow1D` with
# `texparameter`, `rgbw 1D`/`3D` with `draw rect tex`, `rgbw`) and `color`. Each must PASS, except
# glsl-fs-loop-300, which must FAIL in exactly the way R500 dictates (every
# r300 loop stops after KR = 255 iterations: spec/r500.md, docs/assumptions.md
# r500-loop-255), so the sum is 255 and the pixel red.
# Skips (77) when the shim is not built or piglit cannot be fetched.
# usage: piglit_smoke.sh LOCKSTEP CACHE_DIR
set -u
lockstep=$1 cache=$2
if [ -z "${LOCKSTEP_MESA_SHIM:-}" ] || [ ! -r "${LOCKSTEP_MESA_SHIM}" ]; then
  echo "skip: the r300 shim is not built (libdrm-dev libegl-dev libgl-dev absent)"; exit 77
fi
if [ ! -e /usr/lib/x86_64-linux-gnu/dri/r300_dri.so ] && ! ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  echo "skip: r300_dri.so (libgl1-mesa-dri) is not installed"; exit 77
fi
# lockstep's own shader_tests (no download needed): a varying driving a
# data-dependent loop, gl_Color over half the window, texture coordinates, and
# point sprites (gl_PointSize, gl_PointCoord)
data=$(dirname "$0")/data
own=$("$lockstep" mesa piglit "$data/varying_loop.shader_test" "$data/varying_color.shader_test" \
  "$data/texcoord.shader_test" "$data/point_sprite.shader_test" 2>&1)
echo "$own"
for f in varying_loop varying_color texcoord point_sprite; do
  if ! grep -qE "^PASS  $data/$f.shader_test( |$)" <<<"$own"; then echo "FAILED: $f"; exit 1; fi
done
grep -q "varying_loop.shader_test  \[FC\]" <<<"$own" || { echo "FAILED: varying_loop issued no FC instruction"; exit 1; }
# the r300 reproducers of docs/mesa.md "Results": each fails the r300 way, llvmpipe passes
# (gl_ClipVertex: r300 warns, draws, and clips the position against the plane: the
# left half keeps the clear colour)
rep=$("$lockstep" mesa piglit --llvmpipe --no-keep "$data/r300/clip-vertex-output.shader_test" \
  "$data/r300/predicate-counter-no-temp.shader_test" "$data/r300/nested-loops-crash.shader_test" 2>&1)
echo "$rep"
for want in "clip-vertex-output.shader_test  line 37: probe at \\(0, 0\\): expected \\(0, 1, 0, 1\\), observed \\(1, 0, 0, 1\\) \\(r300 warned: r300 VP: cannot handle clip vertex output" \
  "predicate-counter-no-temp.shader_test  r300 vertex-program compiler error \\(its draws are skipped\\): No free temporary" \
  "nested-loops-crash.shader_test  GL program killed by signal 6 under r300"; do
  grep -qE "^FAIL  .*$want.*\(llvmpipe: pass\)" <<<"$rep" || { echo "FAILED: reproducer: $want"; exit 1; }
done
if ! "$lockstep" mesa piglit --cache "$cache" --list fs-abs-vec2 >/dev/null 2>"$cache.err"; then
  echo "skip: the piglit package could not be fetched:"; cat "$cache.err"; exit 77
fi
pass_tests=(
  glsl-1.10/execution/builtins/glsl-fs-abs-01
  glsl-1.10/execution/built-in-functions/fs-abs-vec2
  glsl-1.10/execution/fs-sign-times-abs
  glsl-1.10/execution/loops/glsl-fs-loop-continue
  glsl-1.10/execution/loops/glsl-fs-loop-shadow-variables
  glsl-1.10/execution/temp-array-indexing/glsl-fs-vec4-indexing-temp-src-in-nested-loop-combined
  glsl-1.10/execution/discard/glsl-fs-discard-01
  glsl-1.10/execution/builtins/glsl-fs-ceil
  glsl-1.10/execution/glsl-fs-if-greater
  glsl-1.10/execution/function-calls/glsl-function-chain16-in
  glsl-1.10/execution/built-in-functions/vs-atan-float-float
  glsl-1.10/execution/fs-texture-select
  glsl-1.10/execution/samplers/glsl-fs-shadow2D-08
  glsl-1.10/execution/samplers/glsl-fs-shadow1D-05
  glsl-1.10/execution/texture1D
  glsl-1.10/execution/texture3D
  glsl-1.10/execution/glsl-fs-convolution-1
  glsl-1.10/execution/matrix-vector-multiply-lhs
)
json=$(mktemp "${TMPDIR:-/tmp}/lockstep-piglit-json-XXXXXX")
trap 'rm -f "$json"' EXIT
out=$("$lockstep" mesa piglit -j 2 --cache "$cache" --json "$json" "${pass_tests[@]}" glsl-fs-loop-300 2>&1)
echo "$out"
rc=0
# --json: piglit's results format (results_version 10, lowercase results, times)
grep -q '"results_version": 10' "$json" || { echo "FAILED: --json lacks results_version 10"; rc=1; }
grep -q '"spec@glsl-1.10@execution@loops@glsl-fs-loop-300": {"__type__": "TestResult", "result": "fail"' "$json" ||
  { echo "FAILED: --json lacks glsl-fs-loop-300 as a piglit fail"; rc=1; }
read -r ntests npass < <(sed -nE 's/^([0-9]+) tests: ([0-9]+) pass.*/\1 \2/p' <<<"$out")
[ "$(grep -c '"result": "pass"' "$json")" = "${npass:-x}" ] ||
  { echo "FAILED: --json: not the ${npass:-?} passes of the summary"; rc=1; }
[ "$(grep -c '"time": {"__type__": "TimeAttribute", "start": [0-9.]*, "end": [0-9.]*}' "$json")" = "${ntests:-x}" ] ||
  { echo "FAILED: --json: not ${ntests:-?} tests with their times"; rc=1; }
for t in "${pass_tests[@]}"; do
  if ! grep -qE "^PASS  $t( |$)" <<<"$out"; then echo "FAILED: $t did not pass"; rc=1; fi
done
if ! grep -q "^FAIL  glsl-1.10/execution/loops/glsl-fs-loop-300  line 36: probe at (1, 1): expected (0, 1, 0), observed (1, 0, 0)" <<<"$out"; then
  echo "FAILED: glsl-fs-loop-300 should fail with the R500 255-iteration result"; rc=1
fi
exit $rc
