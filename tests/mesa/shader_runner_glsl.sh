#!/bin/bash
# piglit's unmodified shader_runner on the virtual R500, through piglit's own
# runner (docs/mesa.md, "The GLSL 1.10/1.20 execution tests through piglit's
# runner"): a dozen GLSL 1.10/1.20 execution tests, one or two of each class
# of the full run, judged against the full run's expectation file
# tests/mesa/data/r300-glsl-exec-fails.csv:
#   - passes: flow control, textures (shadow2D, several units), vertex-shader
#     built-ins (the three that once differed between the two lockstep paths);
#   - Fail, R500 behaviour: glsl-fs-loop-300 sums 255 (every r300 loop stops
#     after KR = 255 trips, assumption r500-loop-255): its probe observes red;
#   - Fail, r300 limits: "Too many instructions" (a dummy program); no
#     gl_ClipVertex output: r300 warns and clips the position against the
#     plane Mesa gives in eye space (right where gl_ClipVertex is the
#     position: vs-clip-vertex-equal-to-position passes);
#   - Warn, R500 behaviour: fs-dfdy-accuracy: R500's derivatives are per 2x2
#     quad, so dFdy(x*y) is x of the quad's left column: the first pixel off
#     by one is (1,0);
#   - Crash, the test's environment: glsl-fs-unroll-explosion's `rlimit`
#     (256 MiB of address space) is below what the process already maps
#     (about 370 MiB: Mesa's drivers are linked with libLLVM; llvmpipe crashes
#     the same way), so Mesa's first allocation for the shader fails.
# Then `lockstep mesa piglit` (the replay path) runs the same tests and must
# agree: the same passes and failures; fs-dfdy-accuracy is a skip there
# ('probe warn'), glsl-fs-unroll-explosion reaches r300 ("Too many
# instructions") because that harness limits the data segment instead.
# Skips (77) without the shim, r300_dri.so, python3 with mako and six,
# waffle-utils or the piglit package.
# usage: shader_runner_glsl.sh LOCKSTEP CACHE_DIR
set -u
L=$1 cache=$2
fails=$(dirname "$0")/data/r300-glsl-exec-fails.csv
. "$(dirname "$0")/piglit_prereq.sh"
piglit_runner_prereq "$L" "$cache" shader shader-runner
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# each test (its file under spec/, as `lockstep mesa piglit` names it) and the
# status of the live run; piglit's name is spec@ and the path with '@' for '/',
# in lowercase
tests=(
  glsl-1.10/execution/glsl-fs-if-nested-loop:Pass
  glsl-1.10/execution/fs-texture-select:Pass
  glsl-1.10/execution/samplers/glsl-fs-shadow2D-08:Pass
  glsl-1.10/execution/built-in-functions/vs-atan-float-float:Pass
  glsl-1.10/execution/built-in-functions/fs-tan-float:Pass
  glsl-1.10/execution/built-in-functions/vs-refract-vec2-vec2-float:Pass
  glsl-1.10/execution/built-in-functions/vs-smoothstep-vec2-vec2-vec2:Pass
  glsl-1.20/execution/clipping/vs-clip-vertex-equal-to-position:Pass
  glsl-1.10/execution/loops/glsl-fs-loop-300:Fail
  glsl-1.10/execution/glsl-fs-uniform-array-7:Fail
  glsl-1.10/execution/interpolation/interpolation-none-gl_FrontColor-smooth-vertex:Fail
  glsl-1.10/execution/fs-dfdy-accuracy:Warn
  glsl-1.10/execution/loops/glsl-fs-unroll-explosion:Crash
)
pname() { local n=${1//\//@}; echo "spec@${n,,}"; }
alt=""
for t in "${tests[@]}"; do n=$(pname "${t%:*}"); alt="$alt${alt:+|}${n//./\\.}"; done
sel="^($alt)\$"

# 1. piglit's runner, shader_runner under mesa exec, against the expectations
R=$work/r
"$L" mesa piglit --cache "$cache" --profile shader --results "$R" -j 2 --fails "$fails" "$sel" \
  >"$work/live" 2>&1
rc=$?
cat "$work/live"
[ $rc = 0 ] || bad "piglit's runner: exit $rc: a result is not the one $fails classifies"
grep -q "^${#tests[@]} tests (profile shader; ${#tests[@]} run by piglit" "$work/live" ||
  bad "not the ${#tests[@]} selected tests"
for t in "${tests[@]}"; do
  n=$(pname "${t%:*}")
  grep -qx "$n,${t#*:}" "$R/statuses.csv" || bad "$n: not ${t#*:} ($(grep "^$n," "$R/statuses.csv"))"
done
/usr/bin/python3 - "$R/results.json" <<'EOF' || bad "shader_runner's own reports (above)"
import json, sys
t = json.load(open(sys.argv[1]))["tests"]
p = "spec@glsl-1.10@execution@"
assert len(t) == 13, sorted(t)
for n, r in t.items():
    assert "shader_runner" in r["command"] and "-fbo" in r["command"], (n, r["command"])
# 255 iterations: the sum stays below 300, the pixel is red
loop = t[p + "loops@glsl-fs-loop-300"]["out"]
assert "Expected: 0.000000 1.000000 0.000000" in loop and "Observed: 1.000000 0.000000 0.000000" in loop, loop
# r300's compiler gave up: its message, and the dummy program's black
arr = t[p + "glsl-fs-uniform-array-7"]
assert "Too many instructions" in arr["err"] and "Observed: 0 0 0 255" in arr["out"], arr
# gl_ClipVertex: r300 warns, draws, and clips the position against the
# plane Mesa gave in eye space: where they coincide the test passes
clip = t[p + "interpolation@interpolation-none-gl_frontcolor-smooth-vertex"]
assert "cannot handle clip vertex output" in clip["err"] and "Observed: 0.000000 0.000000" in clip["out"], clip
eq = t["spec@glsl-1.20@execution@clipping@vs-clip-vertex-equal-to-position"]
assert "cannot handle clip vertex output" in eq["err"] and eq["result"] == "pass", eq
# per-quad derivatives: column 0 right, column 1 (same quad) wrong
d = t[p + "fs-dfdy-accuracy"]["out"]
assert "Probe color at (1,0)" in d and "Observed: 255 0 0 255" in d, d
# the rlimit: SIGSEGV before r300 says anything
u = t[p + "loops@glsl-fs-unroll-explosion"]
assert u["returncode"] == -11 and "r300" not in u["err"], u
EOF

# 2. the replay path on the same tests agrees
names=()
for t in "${tests[@]}"; do names+=("${t%:*}"); done
"$L" mesa piglit --cache "$cache" -j 2 --no-keep "${names[@]}" >"$work/replay" 2>&1
cat "$work/replay"
for t in "${tests[@]}"; do
  n=${t%:*} s=${t#*:}
  case $s in
    Pass) want=PASS ;; Fail) want=FAIL ;; Warn) want=SKIP ;; Crash) want=FAIL ;;
  esac
  grep -qE "^$want  $n( |$)" "$work/replay" || bad "replay path: $n is not $want"
done
grep -qE "^SKIP  glsl-1.10/execution/fs-dfdy-accuracy .*probe warn" "$work/replay" ||
  bad "replay path: fs-dfdy-accuracy not skipped for its 'probe warn'"
grep -qE "^FAIL  glsl-1.10/execution/loops/glsl-fs-unroll-explosion .*Too many instructions" "$work/replay" ||
  bad "replay path: glsl-fs-unroll-explosion does not reach r300's 'Too many instructions'"
[ $fail = 0 ] && echo "shader_runner on the virtual R500: all checks passed"
exit $fail
