#!/usr/bin/env bash
# lockstep vs llvmpipe on the same GLSL (`lockstep mesa bench`, docs/mesa.md):
# the corpus loop programs and bench/mandelbrot.frag at 1024² and 2048², on 1
# and 2 workers (lockstep) / rasteriser threads (llvmpipe).
#   scripts/bench_mesa.sh [BUILD] [SIZES] [THREADS] [-- extra bench args]
# e.g. scripts/bench_mesa.sh build "2048" "2"
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
      "$ls" mesa bench "$f" --size "${s}x${s}" -j "$t" --reps 3 "${uni[@]}" "$@" \
        2>/dev/null || status=1
    done
  done
done
exit $status
