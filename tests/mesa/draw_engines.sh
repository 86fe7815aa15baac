#!/bin/bash
# --engine interp and --engine jit give the same bytes (docs/r500-jit.md, "The
# vertex JIT"): r300 draws through three vertex programs — vf_transform.vert
# (straight-line: compiled by the vertex JIT), vs_a0.vert (a uniform array
# indexed per vertex: A0-relative constants, compiled) and vs_loop.vert (a
# loop with a per-vertex trip count: flow control, left to the interpreter) — captured
# under `lockstep mesa exec --engine jit`; every submission is replayed with
# `r500 draw --engine interp` and `--engine jit`, and every buffer object
# each leaves must be byte for byte what the other leaves and what the
# device left (the capture's .after_K). The JIT's counts must show both
# paths: vertex programs compiled and vertex runs given to the interpreter.
# usage: draw_engines.sh LOCKSTEP SRCROOT JIT(0|1)
set -u
L=$1 ROOT=$2
if [ "$3" != 1 ]; then echo "SKIP: built without the JIT (LLVM)"; exit 77; fi
if [ -z "${LOCKSTEP_MESA_SHIM:-}" ] || [ -z "${LOCKSTEP_MESA_GL:-}" ]; then
  echo "SKIP: the r300 shim is not built (libdrm-dev, libegl-dev, libgl-dev)"; exit 77
fi
if ! ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  echo "SKIP: r300_dri.so (libgl1-mesa-dri) is not installed"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-engines.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
D=$ROOT/tests/mesa/data
total=0 vs_compiled=0 vs_interp=0
for vs in vf_transform vs_a0 vs_loop; do
  cap=$work/$vs
  LOCKSTEP_SHIM_TRACE=1 "$L" mesa exec --engine jit --capture "$cap" -- "$LOCKSTEP_MESA_GL" \
    "$D/vf_transform.frag" --vert "$D/$vs.vert" --size 8x8 -o "$work/$vs.bin" \
    $([ $vs = vs_a0 ] && echo --uniform tab=0.5,0.25,1,2) >"$work/exec.out" 2>&1 ||
    { bad "$vs: mesa exec --engine jit failed"; tail -5 "$work/exec.out"; continue; }
  grep -q "engine jit: fragment programs [1-9]" "$work/exec.out" ||
    bad "$vs: the device did not run the JIT: $(grep 'engine jit' "$work/exec.out")"
  for ib in "$cap"/cs_*.ib; do
    N=${ib##*/cs_}
    N=${N%.ib}
    for e in interp jit; do
      mkdir -p "$work/$e"
      "$L" r500 draw "$cap" --cs $((10#$N)) --engine $e --buffers-out "$work/$e" \
        --stats "$work/$e.json" -q >"$work/draw.out" 2>&1 ||
        bad "$vs cs $N: r500 draw --engine $e: $(head -c 300 "$work/draw.out")"
    done
    if grep -q '"jit"' "$work/interp.json"; then bad "$vs cs $N: --engine interp ran the JIT"; fi
    c=$(grep -o '"vs_compiled": [0-9]*' "$work/jit.json" | grep -o '[0-9]*$')
    i=$(grep -o '"vs_interp_runs": [0-9]*' "$work/jit.json" | grep -o '[0-9]*$')
    vs_compiled=$((vs_compiled + ${c:-0})) vs_interp=$((vs_interp + ${i:-0}))
    for a in "$cap"/cs_"$N".after_*; do
      [ -e "$a" ] || continue
      k=${a##*/}
      cmp -s "$work/interp/$k" "$work/jit/$k" || bad "$vs: $k: --engine jit differs from --engine interp"
      cmp -s "$a" "$work/jit/$k" || bad "$vs: $k: r500 draw --engine jit differs from the device's"
      total=$((total + 1))
    done
    rm -rf "$work/interp" "$work/jit"
  done
done
[ $total -ge 4 ] || bad "only $total buffer objects compared"
[ $vs_compiled -ge 3 ] || bad "the vertex JIT compiled $vs_compiled programs (expected both streams')"
[ $vs_interp -ge 1 ] || bad "no vertex run went to the interpreter (vs_loop's flow control)"
# engine auto, the default (docs/r500-jit.md): a run of 1024x1024 pixels or
# more goes to the JIT, a smaller one to the interpreter; the same bits.
EX=$ROOT/examples/r500/nested_if.fs.asm
"$L" r500 run "$EX" --size 1024x1024 -o "$work/auto.png" 2>"$work/auto.err" ||
  bad "r500 run (auto) 1024x1024 failed: $(head -c 300 "$work/auto.err")"
grep -qx 'engine: jit (compiled in .*' "$work/auto.err" ||
  bad "r500 run 1024x1024 did not choose the JIT: $(grep engine "$work/auto.err")"
"$L" r500 run "$EX" --size 1024x1024 --engine interp -o "$work/interp.png" 2>/dev/null
cmp -s "$work/auto.png" "$work/interp.png" || bad "r500 run: auto (jit) and interp pictures differ"
"$L" r500 run "$EX" --size 16x16 -o "$work/small.png" 2>"$work/auto.err"
grep -qx 'engine: interp' "$work/auto.err" ||
  bad "r500 run 16x16 did not keep the interpreter: $(grep engine "$work/auto.err")"
# the live device: a full-window draw of 1024x1024 runs its fragments on the JIT
LOCKSTEP_SHIM_TRACE=1 "$L" mesa exec -- "$LOCKSTEP_MESA_GL" "$D/vf_transform.frag" \
  --vert "$D/vf_transform.vert" --size 1024x1024 -o "$work/big.bin" >"$work/exec.out" 2>&1 ||
  bad "mesa exec (auto) 1024x1024 failed: $(tail -3 "$work/exec.out")"
grep -q "engine jit: fragment programs 1 compiled" "$work/exec.out" ||
  bad "mesa exec 1024x1024 (auto) did not run the fragment JIT: $(grep 'engine' "$work/exec.out")"
"$L" mesa exec --engine interp -- "$LOCKSTEP_MESA_GL" "$D/vf_transform.frag" \
  --vert "$D/vf_transform.vert" --size 1024x1024 -o "$work/big-interp.bin" >/dev/null 2>&1
cmp -s "$work/big.bin" "$work/big-interp.bin" || bad "mesa exec: auto (jit) and interp pixels differ"
echo "$total buffer objects identical (interp, jit, device); vertex programs compiled: $vs_compiled, vertex runs on the interpreter: $vs_interp"
exit $fail
