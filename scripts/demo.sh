#!/usr/bin/env bash
# make demo: run the bundled demos and say where their outputs are.
set -u
build=${1:-build}
out=demo-out
mkdir -p "$out"
echo "demo: outputs go to $(pwd)/$out"

# --- R500: a Mandelbrot escape-time loop (data-dependent loop trip counts and
# breaks) run at 512x512 in threads of 48 pixels (RV530), with a second image
# of the instructions each pixel executed while active.
r500_prog=examples/r500/mandelbrot.fs.asm
if [ -x "$build/tools/lockstep" ] && [ -f "$r500_prog" ]; then
  echo "demo: R500: lockstep r500 run $r500_prog --size 512x512 --input t0=uv --lanes rv530"
  if "$build/tools/lockstep" r500 run "$r500_prog" --size 512x512 --input t0=uv --lanes rv530 \
       -o "$out/r500_mandelbrot.png" --work "$out/r500_mandelbrot_work.png" \
       --stats "$out/r500_mandelbrot_stats.json"; then
    echo "demo: R500: image:             $(pwd)/$out/r500_mandelbrot.png"
    echo "demo: R500: work per pixel:    $(pwd)/$out/r500_mandelbrot_work.png"
    echo "demo: R500: statistics (JSON): $(pwd)/$out/r500_mandelbrot_stats.json"
  else
    echo "demo: R500: FAILED"
  fi
else
  echo "demo: R500: skipped ($build/tools/lockstep or $r500_prog missing)"
fi

# --- PP5: a scene of overlapping Gouraud triangles and discs rendered by the IGC
# model driving the 128x128 EMC array, clock by clock.
pp5_scene=examples/pp5/demo.scene
if [ -x "$build/tools/lockstep" ] && [ -f "$pp5_scene" ]; then
  echo "demo: PP5: lockstep pp5 render $pp5_scene"
  if "$build/tools/lockstep" pp5 render "$pp5_scene" -o "$out/pp5_scene.png" \
       --stats "$out/pp5_scene_stats.json"; then
    echo "demo: PP5: image:             $(pwd)/$out/pp5_scene.png"
    echo "demo: PP5: statistics (JSON): $(pwd)/$out/pp5_scene_stats.json"
  else
    echo "demo: PP5: FAILED"
  fi
else
  echo "demo: PP5: skipped ($build/tools/lockstep or $pp5_scene missing)"
fi

# --- Mesa r300 (docs/mesa.md "Scenes"): a GLSL program and geometry of
# lockstep's own (examples/mesa: a textured, lit floor and cube, an orange glass
# pane blended over them, depth-tested) compiled and submitted by Mesa's real
# r300 driver on a fake RV530, its command streams and buffer objects (the
# texture's upload included) executed by lockstep's whole R500 pipeline, and
# the same program drawn by llvmpipe for comparison.
scene=examples/mesa
if [ -x "$build/tools/lockstep" ] && [ -f "$scene/scene.frag" ] && [ -r "$build/liblockstep_r300_shim.so" ] &&
   ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  rm -rf "$out/mesa_scene_capture"
  echo "demo: Mesa r300: lockstep mesa check $scene/scene.frag --vert $scene/scene.vert --mesh ... --texture tex=checker --depth --blend src_alpha,one_minus_src_alpha --rgba8"
  "$build/tools/lockstep" mesa check "$scene/scene.frag" --vert "$scene/scene.vert" \
      --mesh "$scene/scene_opaque.mesh" --mesh "$scene/scene_glass.mesh" --texture tex=checker \
      --depth --blend src_alpha,one_minus_src_alpha --clear 0.1,0.1,0.15,1 --uniform angle=0.6 \
      --size 384x384 --rgba8 --tolerance 0.00785 -o "$out/mesa_scene_lockstep.png" \
      --reference "$out/mesa_scene_llvmpipe.png" --capture "$out/mesa_scene_capture" 2>"$out/mesa_scene.log"
  rc=$?
  if [ -s "$out/mesa_scene_lockstep.png" ] && [ -s "$out/mesa_scene_llvmpipe.png" ]; then
    sed -nE 's/^.*: ([0-9]+x[0-9]+), whole pipeline: (.*)$/demo: Mesa r300: lockstep ran \1: \2/p' "$out/mesa_scene.log"
    sed -nE 's/^.*: ([0-9]+)x([0-9]+) pixels, ([0-9]+) differ by more than ([0-9.e-]+) \(max \|diff\| ([0-9.e-]+)\)$/\1 \2 \3 \5/p' \
        "$out/mesa_scene.log" | awk '{ printf "demo: Mesa r300: against llvmpipe: %d of %d pixels differ by more than 2/255 (%.2f%%, max |diff| %s: triangle edges)\n", $3, $1 * $2, 100 * $3 / ($1 * $2), $4 }'
    echo "demo: Mesa r300: lockstep (r300's streams): $(pwd)/$out/mesa_scene_lockstep.png"
    echo "demo: Mesa r300: llvmpipe:                  $(pwd)/$out/mesa_scene_llvmpipe.png"
    echo "demo: Mesa r300: |difference| / (2/255):    $(pwd)/$out/mesa_scene_lockstep.png.diff.png"
    echo "demo: Mesa r300: r300's capture:            $(pwd)/$out/mesa_scene_capture (lockstep r500 draw DIR --cs 1)"
  else
    echo "demo: Mesa r300: FAILED (exit $rc):"; tail -3 "$out/mesa_scene.log"
  fi
else
  echo "demo: Mesa r300: skipped (the r300 shim or r300_dri.so is missing: scripts/deps.sh installs libgl1-mesa-dri)"
fi

# --- The viewer (docs/viewer.md): recordings of both demo frames and a
# self-contained page for each. The R500 recording has every thread's control
# flow, inputs and final outputs, and the register values of the threads
# covering the 32x32 pixels at the centre (the default of --record-values).
if [ -x "$build/tools/lockstep" ] && [ -f "$r500_prog" ] && [ -f "$pp5_scene" ]; then
  ok=1
  "$build/tools/lockstep" r500 run "$r500_prog" --size 512x512 --input t0=uv --lanes rv530 -q \
      --record "$out/r500_mandelbrot.lsr" && \
    "$build/tools/lockstep" view "$out/r500_mandelbrot.lsr" -o "$out/r500_mandelbrot_view.html" >/dev/null || ok=0
  "$build/tools/lockstep" pp5 render "$pp5_scene" -o "$out/pp5_scene.png" --record "$out/pp5_scene.lsr" >/dev/null && \
    "$build/tools/lockstep" view "$out/pp5_scene.lsr" -o "$out/pp5_scene_view.html" >/dev/null || ok=0
  if [ $ok = 1 ]; then
    mb() { awk -v b="$(wc -c <"$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
    echo "demo: viewer: R500 (512x512): $(pwd)/$out/r500_mandelbrot_view.html (recording $(mb "$out/r500_mandelbrot.lsr"))"
    echo "demo: viewer: PP5:            $(pwd)/$out/pp5_scene_view.html (recording $(mb "$out/pp5_scene.lsr"))"
    echo "demo: open either file in a browser (file://…; nothing is fetched from the network),"
    echo "demo: or serve one: $build/tools/lockstep view $out/pp5_scene.lsr   (prints its 127.0.0.1 URL)."
    echo "demo: keys: Right/Left step, j next jump, d next Done, t next thread, Space play."
    echo "demo: R500 register values are recorded for the threads covering the 32x32 pixels at the"
    echo "demo: centre; for others: --record-values X,Y,W,H or all (docs/viewer.md)."
  else
    echo "demo: viewer: FAILED"
  fi
fi
