#!/bin/bash
# piglit's own runner on the virtual R500 (docs/mesa.md, "piglit's own runner"):
#   1. `lockstep mesa exec -- piglit run --test-list LIST gpu DIR` runs piglit's
#      python runner with every test under the shim: results.json holds each
#      test, a GL 3.3 test is skipped by piglit's wflinfo check (it asked the
#      virtual RV530: GL 2.1);
#   2. `lockstep mesa piglit --profile gpu --results DIR FILTER`: piglit's
#      results (piglit summary console reads them), statuses.csv and
#      failures.csv; --skips sets a test aside; --fails and --baseline from
#      the first run make the second one a success with "no change"; a Fail
#      expected of a test that skips is an UnexpectedImprovement (exit 1); two
#      --fraction shards partition the list.
# The tests' own verdicts are not asserted here (what the device draws is
# mesa/live-device's and the piglit runs' business), only the runner's logic.
# Skips (77) without the shim, r300_dri.so, /usr/bin/python3 with mako,
# wflinfo or the piglit package.
# usage: piglit_runner.sh LOCKSTEP CACHE_DIR
set -u
L=$1 cache=$2
. "$(dirname "$0")/piglit_prereq.sh"
piglit_runner_prereq "$L" "$cache" gpu runner-test
fail=0
bad() { echo "FAIL: $*"; fail=1; }
sel='arb_compute_shader@execution@basic-ssbo|glsl-1.10@execution@glsl-fs-if-(nested-loop|greater)$'
gl33=spec@arb_compute_shader@execution@basic-ssbo

# 1. piglit run itself under mesa exec
P=$(ls -d "$cache"/runner/usr/lib/*/piglit | head -1)
printf '%s\n' spec@glsl-1.10@execution@glsl-fs-if-greater $gl33 >"$work/list"
LD_LIBRARY_PATH=$P/lib PIGLIT_COMPRESSION=none "$L" mesa exec -- "$cache/runner/usr/bin/piglit" run \
  -l dummy --test-list "$work/list" gpu "$work/plain" >"$work/out" 2>&1
[ -s "$work/plain/results.json" ] || { bad "mesa exec -- piglit run wrote no results.json:"; cat "$work/out"; }
/usr/bin/python3 - "$work/plain/results.json" <<'EOF' || bad "piglit run's results (above)"
import json, sys
t = json.load(open(sys.argv[1]))["tests"]
assert set(t) == {"spec@glsl-1.10@execution@glsl-fs-if-greater",
                  "spec@arb_compute_shader@execution@basic-ssbo"}, t.keys()
ssbo = t["spec@arb_compute_shader@execution@basic-ssbo"]
# piglit asked the virtual R500 (wflinfo under the shim): no GLSL 3.30
assert ssbo["result"] == "skip" and "3.3" in ssbo["out"], ssbo
# the shader test ran shader_runner on r300 (the shim's device answered)
r = t["spec@glsl-1.10@execution@glsl-fs-if-greater"]
assert "shader_runner" in r["command"] and r["result"] in ("pass", "fail"), r
EOF

# 2. the runner layer
R=$work/r
"$L" mesa piglit --cache "$cache" --profile gpu --results "$R" "$sel" >"$work/out1" 2>&1
rc1=$?
[ -s "$R/results.json" ] && [ -s "$R/statuses.csv" ] && [ -e "$R/failures.csv" ] || { bad "no results in $R:"; cat "$work/out1"; }
[ "$(wc -l <"$R/statuses.csv")" = 3 ] || bad "statuses.csv: not 3 tests: $(cat "$R/statuses.csv")"
grep -qx "$gl33,Skip" "$R/statuses.csv" || bad "statuses.csv lacks $gl33,Skip"
nfail=$(grep -c . "$R/failures.csv")
if [ "$nfail" -gt 0 ]; then [ $rc1 = 1 ] || bad "first run: $nfail failures but exit $rc1"; else
  [ $rc1 = 0 ] || bad "first run: no failure but exit $rc1"; fi
grep -q "^3 tests (profile gpu; 3 run by piglit, 0 skipped by --skips)" "$work/out1" || bad "summary line: $(cat "$work/out1")"
"$cache/runner/usr/bin/piglit" summary console -s "$R" >"$work/sum" 2>&1
grep -qE "^ *total: *3$" "$work/sum" || { bad "piglit summary console on $R:"; cat "$work/sum"; }
# the same run against its own results: nothing changed, nothing unexpected
"$L" mesa piglit --cache "$cache" --profile gpu --results "$R" --fails "$R/failures.csv" \
  --baseline "$R/statuses.csv" "$sel" >"$work/out2" 2>&1
rc2=$?
cp "$R/statuses.csv" "$work/base.csv"
[ $rc2 = 0 ] || { bad "rerun with its own failures/baseline: exit $rc2"; cat "$work/out2"; }
grep -q "no change against the baseline" "$work/out2" || bad "rerun: $(cat "$work/out2")"
# --skips: not run; a Fail expected of a skipping test: UnexpectedImprovement
printf '# not this one\nglsl-fs-if-nested-loop\n' >"$work/skips"
printf '%s,Fail\n' $gl33 >"$work/fails"
printf 'basic-ssbo\n' >"$work/flakes"
"$L" mesa piglit --cache "$cache" --profile gpu --results "$R" --skips "$work/skips" --fails "$work/fails" \
  --flakes "$work/flakes" "$sel" >"$work/out3" 2>&1
rc3=$?
[ $rc3 = 1 ] || bad "an expected Fail that skips: exit $rc3 (want 1)"
grep -q "^UnexpectedImprovement  *$gl33  (expected Fail)" "$work/out3" || bad "no UnexpectedImprovement line: $(cat "$work/out3")"
grep -q "2 run by piglit, 1 skipped by --skips" "$work/out3" || bad "--skips: $(cat "$work/out3")"
grep -qx "spec@glsl-1.10@execution@glsl-fs-if-nested-loop,Skip" "$R/statuses.csv" || bad "--skips: not Skip in statuses.csv"
# --baseline lists what changed: the skipped test, if it did not skip before
"$L" mesa piglit --cache "$cache" --profile gpu --results "$R" --skips "$work/skips" --baseline "$work/base.csv" \
  "$sel" >"$work/out4" 2>&1
was=$(grep "glsl-fs-if-nested-loop," "$work/base.csv" | cut -d, -f2)
if [ "$was" != Skip ]; then
  grep -q "spec@glsl-1.10@execution@glsl-fs-if-nested-loop  ($was -> Skip)" "$work/out4" || bad "--baseline: $(cat "$work/out4")"
fi
grep -q "$gl33" "$work/out4" && bad "--baseline listed a test that did not change"
# shards: 1 of 2 and 2 of 2 are the list, each test once
"$L" mesa piglit --cache "$cache" --profile gpu --list "$sel" >"$work/all" 2>&1
{ "$L" mesa piglit --cache "$cache" --profile gpu --list --fraction 2 --fraction-start 1 "$sel"
  "$L" mesa piglit --cache "$cache" --profile gpu --list --fraction 2 --fraction-start 2 "$sel"; } >"$work/shards" 2>&1
[ "$(sort "$work/all")" = "$(sort "$work/shards")" ] && [ "$(wc -l <"$work/all")" = 3 ] ||
  bad "shards: $(cat "$work/shards") against $(cat "$work/all")"
# a directory that is not piglit's is never handed to piglit run -o
mkdir "$work/mine" && touch "$work/mine/keep"
"$L" mesa piglit --cache "$cache" --profile gpu --results "$work/mine" "$sel" >"$work/out5" 2>&1
[ $? = 5 ] && [ -e "$work/mine/keep" ] || bad "--results on a foreign directory: $(cat "$work/out5")"
[ $fail = 0 ] && echo "piglit runner: all checks passed"
exit $fail
