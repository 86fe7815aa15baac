#!/bin/bash
# The scene options of `mesa run|check` (docs/mesa.md "Scenes"):
#  1. every ```console line of that section runs with the exit status it shows
#     (in a scratch directory with tests/ and examples/ of the source tree);
#  2. its capture holds the texture upload: a blit draw in cs_0000 whose
#     source buffer object carries the checker texels, then cs_0001 with
#     the clear and the two meshes;
#  3. the demo scene (examples/mesa, what `make demo` shows): lockstep's
#     picture against llvmpipe's, every channel of every pixel within 2/255
#     except at most 2% of the pixels (triangle edges, where the two
#     rasterizers' sample positions and the texture's edge texels differ).
# Skips (77) when the shim is not built or r300_dri.so is not installed.
# usage: scene.sh LOCKSTEP SRCROOT
set -u
. "$(dirname "$0")/doc_examples.sh"
doc_examples_setup "$1" "$2" scene
# an error is one line naming what is wrong (after the uniforms summary)
one_error_line() {
  if [ "$2" != 0 ] && [ "$(grep -c 'lockstep mesa run: .*\(error\|expected\|run through\)' "$T/err")" != 1 ]; then
    echo "FAILED: lockstep $1: not one error line:"; cat "$T/err"; rc=1
  fi
}
doc_examples_run one_error_line < <(awk '/^## Scenes/ { sec = 1; next } /^## / { sec = 0 }
              sec && /^ *```console$/ { on = 1; next } /^ *```/ { on = 0 }
              sec && on && /^ *\$ lockstep / { sub(/^ */, ""); print }' "$ROOT/docs/mesa.md")
echo "$n examples run"
[ "$n" -ge 4 ] || { echo "FAILED: fewer than 4 examples found"; rc=1; }
for f in scene.png scene-replay.png; do
  [ -s "$T/$f" ] || { echo "FAILED: the examples wrote no $f"; rc=1; }
done

# 2. the capture: the upload blit alone in cs_0000, its staging buffer holds
# the checker's first texels (230, 230, 220, 255); cs_0001 draws 3 times
C=$T/scene-capture
if [ -d "$C" ]; then
  "$L" r500 draw "$C" --cs 0 --stats "$T/s0.json" -q >/dev/null 2>&1
  "$L" r500 draw "$C" --cs 1 --stats "$T/s1.json" -q >/dev/null 2>&1
  grep -q '"draws": 1,' "$T/s0.json" || { echo "FAILED: cs_0000 is not one (upload) draw"; rc=1; }
  grep -q '"draws": 3,' "$T/s1.json" || { echo "FAILED: cs_0001 is not the clear and two meshes"; rc=1; }
  found=0
  for b in "$C"/cs_0000.bo_*; do
    [ "$(od -An -tu1 -N8 "$b" | tr -s ' ')" = " 230 230 220 255 230 230 220 255" ] && found=1
  done
  [ $found = 1 ] || { echo "FAILED: no buffer object of cs_0000 holds the checker texels"; rc=1; }
else
  echo "FAILED: no capture directory"; rc=1
fi

# 3. lockstep against llvmpipe on the demo scene
args=(examples/mesa/scene.frag --vert examples/mesa/scene.vert
      --mesh examples/mesa/scene_opaque.mesh --mesh examples/mesa/scene_glass.mesh
      --texture tex=checker --depth --blend src_alpha,one_minus_src_alpha
      --clear 0.1,0.1,0.15,1 --uniform angle=0.6 --size 128x128 --rgba8)
(cd "$T" && "$L" mesa check "${args[@]}" --tolerance 0.00785 -o check.png >"$T/out" 2>"$T/err")
got=$?
cat "$T/err"
read -r total bad < <(sed -nE 's/.*: ([0-9]+)x([0-9]+) pixels, ([0-9]+) differ by more than.*/\1 \2 \3/p' "$T/err" |
                      awk '{ print $1 * $2, $3 }')
if [ -z "${total:-}" ]; then
  echo "FAILED: mesa check printed no comparison (exit $got)"; rc=1
elif [ "$got" != 0 ] && [ "$got" != 1 ]; then
  echo "FAILED: mesa check exited $got"; rc=1
elif [ $((bad * 50)) -gt "$total" ]; then
  echo "FAILED: $bad of $total pixels differ from llvmpipe by more than 2/255 (bound: 2%)"; rc=1
else
  echo "ok: $bad of $total pixels beyond 2/255 of llvmpipe (bound 2%)"
fi
exit $rc
