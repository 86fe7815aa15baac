#!/usr/bin/env bash
# lockstep (interp and jit) vs llvmpipe on the same GLSL (`lockstep mesa
# bench`, docs/mesa.md): the corpus loop programs and bench/mandelbrot.frag at
# 1024² and 2048², on 1 and 2 workers (lockstep) / rasteriser threads
# (llvmpipe); a markdown table of mean seconds per run / draw and speed-ups
# (llvmpipe/jit, interp/jit: above 1 the JIT is faster), then the memory
# floor of each size and thread count (bench/bench_copy).
#   scripts/bench_mesa.sh [BUILD] [SIZES] [THREADS] [-- extra bench args]
# e.g. scripts/bench_mesa.sh build "2048" "2"; BENCH_REPS=N (default 3);
# BENCH_RUNS=M (default 1): each engine's `mesa bench` call M times, the
# two engines' calls alternating, every figure the median of the M (on a
# machine whose figures vary from run to run)
set -u
build=${1:-build}
sizes=${2:-"1024 2048"}
threads=${3:-"1 2"}
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
ls=$build/tools/lockstep
if [ ! -x "$build/src/mesa/lockstep-mesa-gl" ]; then
  echo "bench_mesa: the r300 shim is not built (docs/mesa.md); skipped"
  exit 0
fi
corpus=$root/../shared/corpus/mesa-r300
progs=()
for p in 03_loop_const_small 04_loop_const_large 05_loop_uniform 06_loop_break \
         07_loop_continue 09_discard_in_loop 10_nested_loops 12_while_data_dependent \
         15_loop_in_if; do
  [ -f "$corpus/out/$p/shader.frag" ] && progs+=("$corpus/out/$p/shader.frag")
done
progs+=("$root/bench/mandelbrot.frag")
status=0
reps=${BENCH_REPS:-3}
runs=${BENCH_RUNS:-1}
# one table row per program, size and worker count: each engine's mean CPU
# and wall seconds per run and llvmpipe's per draw, timed side by side in one
# `mesa bench` call per engine (each also times llvmpipe; the row shows the
# figures from the jit call, and interp's speed-up from the same-run pair);
# with BENCH_RUNS > 1 every figure and ratio is the median over the runs.
row() { # name size threads then interp_out jit_out per run
  python3 - "$@" <<'PY'
import re, statistics, sys
name, size, thr = sys.argv[1:4]
outs = sys.argv[4:]
def grab(t, eng):
    m = re.search(r"engine %s\): ([0-9.]+) s wall, ([0-9.]+) s CPU" % eng, t)
    return (float(m.group(2)), float(m.group(1))) if m else (None, None)
def lp(t):
    m = re.search(r"llvmpipe: ([0-9.]+) s wall, ([0-9.]+) s CPU", t)
    return (float(m.group(2)), float(m.group(1))) if m else (None, None)
def comp(t):
    m = re.search(r"compiled once in ([0-9.]+) s", t)
    return float(m.group(1)) if m else None
ratio = lambda a, b: None if not a or not b else a / b
rows = []
for io, jo in zip(outs[0::2], outs[1::2]):
    ic, iw = grab(io, "interp"); jc, jw = grab(jo, "jit"); lc, lw = lp(jo); cs = comp(jo)
    rows.append((ic, iw, jc, jw, cs, lc, lw, ratio(lc, jc), ratio(lw, jw), ratio(ic, jc),
                 ratio(iw, jw)))
def med(k):
    v = [r[k] for r in rows if r[k] is not None]
    return statistics.median(v) if v else None
m = [med(k) for k in range(11)]
f = lambda v: "-" if v is None else "%.3f" % v
g = lambda v: "-" if v is None else "%.2f" % v
print("| %s | %s² | %s | %s / %s | %s / %s | %s | %s / %s | %s / %s | %s / %s |" % (
    name, size, thr, f(m[0]), f(m[1]), f(m[2]), f(m[3]), f(m[4]), f(m[5]), f(m[6]),
    g(m[7]), g(m[8]), g(m[9]), g(m[10])))
PY
}
echo "load: $(uptime)"
[ "$runs" -gt 1 ] && echo "(every figure the median of $runs runs)"
echo "| program | size | workers | interp CPU / wall s | jit CPU / wall s | jit compile s | llvmpipe CPU / wall s | llvmpipe/jit CPU / wall | interp/jit CPU / wall |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in "${progs[@]}"; do
  # the corpus's uniforms (uniforms.json: "NAME.frag": ["n=v,..."])
  name=$(basename "$(dirname "$f")").frag
  uni=()
  if [ -f "$corpus/uniforms.json" ]; then
    while IFS= read -r u; do [ -n "$u" ] && uni+=(--uniform "$u"); done < <(
      python3 -c 'import json,sys; [print(u) for u in json.load(open(sys.argv[1])).get(sys.argv[2], [])]' \
        "$corpus/uniforms.json" "$name" 2>/dev/null)
  fi
  for s in $sizes; do
    for t in $threads; do
      pairs=()
      for _ in $(seq "$runs"); do
        io=$("$ls" mesa bench "$f" --size "${s}x${s}" -j "$t" --reps "$reps" --engine interp \
             "${uni[@]}" "$@" 2>/dev/null) || status=1
        jo=$("$ls" mesa bench "$f" --size "${s}x${s}" -j "$t" --reps "$reps" --engine jit \
             "${uni[@]}" "$@" 2>/dev/null) || status=1
        pairs+=("$io" "$jo")
      done
      row "$(basename "$(dirname "$f")")/$(basename "$f")" "$s" "$t" "${pairs[@]}"
    done
  done
done
# the memory floor: copying an image the size of the varying image into one
# the size of the render target, which a run that reads a varying cannot do
# in less (bench/bench_copy.c; docs/r500-jit.md "Speed")
if [ -x "$build/bench/bench_copy" ]; then
  for s in $sizes; do
    for t in $threads; do
      "$build/bench/bench_copy" --size "$s" --threads "$t" --reps 20 || status=1
    done
  done
fi
exit $status
