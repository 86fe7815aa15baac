#!/bin/sh
# Validates the JSON every tool writes against its schema in docs/schemas
# (docs/formats.md): r500 run --stats/--trace, pp5 render --stats,
# pp5 serialize --json, the corpus jobs, mesa decode and r500 draw --vertices
# (from the corpus's captures and, with the Mesa shim, a capture made here),
# and with the shim mesa run --stats/--trace and mesa piglit --json. A broken
# document must fail.
# usage: validate.sh LOCKSTEP SOURCE_ROOT
set -u
L=$1
SRC=$2
PY=/usr/bin/python3
S=$SRC/docs/schemas
if ! [ -x "$PY" ] || ! "$PY" -c 'import jsonschema' 2>/dev/null; then
  echo "SKIP: $PY with python3-jsonschema is needed (scripts/deps.sh --check)"
  exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { # schema file...
  schema=$1; shift
  if "$PY" - "$S/$schema" "$@" <<'PYEOF'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
v = jsonschema.Draft202012Validator(schema)
bad = 0
for f in sys.argv[2:]:
    errs = list(v.iter_errors(json.load(open(f))))
    for e in errs[:3]:
        print(f"{f}: {'/'.join(map(str, e.absolute_path))}: {e.message}")
    bad += bool(errs)
sys.exit(1 if bad else 0)
PYEOF
  then echo "ok: $# file(s) against $schema"
  else echo "FAIL: against $schema"; fail=1
  fi
}
must_fail() { # schema file
  if "$PY" -c 'import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
       "$S/$1" "$2" 2>/dev/null; then
    echo "FAIL: the broken $2 passed $1"; fail=1
  else echo "ok: broken $(basename "$2") rejected by $1"
  fi
}
run() { "$@" || { echo "FAIL: $*"; fail=1; }; }

# the schemas are themselves valid draft 2020-12
for s in "$S"/*.schema.json; do
  "$PY" -c 'import json,sys,jsonschema; jsonschema.Draft202012Validator.check_schema(json.load(open(sys.argv[1])))' "$s" \
    || { echo "FAIL: $s is not a valid schema"; fail=1; }
done

# R500: stats and trace of examples with loops, subroutines and branches (and
# a trace with the temps each instruction writes)
for ex in nested_if loop_break_continue subroutine rep_al; do
  run "$L" r500 run "$SRC/examples/r500/$ex.fs.asm" --size 8x4 -o "$T/$ex.png" \
    --stats "$T/$ex.stats.json" --trace "$T/$ex.trace.json" 2>/dev/null
done
run "$L" r500 run "$SRC/examples/r500/loop_break_continue.fs.asm" --size 8x4 -q \
  --trace "$T/writes.trace.json" --trace-writes
grep -q '"writes":' "$T/writes.trace.json" || { echo "FAIL: --trace-writes wrote no writes"; fail=1; }
check r500-stats.schema.json "$T"/*.stats.json
check r500-trace.schema.json "$T"/*.trace.json

# PP5: render statistics and the serializer's JSON
for sc in triangle demo; do
  run "$L" pp5 render "$SRC/examples/pp5/$sc.scene" --chips 2x2 -q -o "$T/$sc.png" --stats "$T/$sc.pp5.json"
done
check pp5-render-stats.schema.json "$T"/*.pp5.json
run "$L" pp5 serialize --json --fbits 4 --mode linear --fni 9 -- 1 -2.5 3 0 0 0 >"$T/ser.json"
check pp5-serialize.schema.json "$T/ser.json"

# the jobs of the corpus (and the examples' own jobs)
jobs=$(find "$SRC/../shared/corpus" "$SRC/examples" "$SRC/tests" -name '*.json' -path '*program.json' 2>/dev/null)
if [ -n "$jobs" ]; then
  # shellcheck disable=SC2086
  check r500-job.schema.json $jobs
else
  echo "note: no corpus program.json found (../shared/corpus absent); job schema checked on a sample only"
fi
cat >"$T/job.json" <<'J'
{"program": "nested_if.fs.asm", "size": [4, 4], "inputs": {"t0": "uv"},
 "us_const": {"c0": [1, 0, 0, 1], "1": {"hex": ["0x3f800000", 0, 0, 0]}}, "clear": [0, 0, 0, 1]}
J
check r500-job.schema.json "$T/job.json"

# Mesa: mesa decode (one draw and --all) and r500 draw --vertices, from the
# corpus's captured streams and, where the shim and r300 are present, from a
# capture made here with its buffer objects (vertex buffers, index buffers)
have_r300=
if [ -n "${LOCKSTEP_MESA_SHIM:-}" ] && [ -n "${LOCKSTEP_MESA_GL:-}" ] &&
   ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  have_r300=1
fi
caps=$(find "$SRC/../shared/corpus/mesa-r300" -name cs_0000.ib 2>/dev/null | sort | head -n 15 | xargs -r -n1 dirname)
if [ -n "$have_r300" ]; then
  for vbo in "" --vbo; do
    mkdir -p "$T/cap$vbo"
    LOCKSTEP_SHIM_BOS=1 LOCKSTEP_SHIM_OUT="$T/cap$vbo" LD_PRELOAD="$LOCKSTEP_MESA_SHIM" \
      "$LOCKSTEP_MESA_GL" "$SRC/tests/mesa/data/vf_transform.frag" --vert "$SRC/tests/mesa/data/vf_transform.vert" \
      --size 8x8 -o "$T/cap$vbo/out.png" $vbo >/dev/null 2>&1 || echo "note: the capture$vbo failed"
    [ -f "$T/cap$vbo/cs_0000.ib" ] && caps="$caps $T/cap$vbo"
  done
fi
if [ -n "$caps" ]; then
  k=0
  for c in $caps; do
    k=$((k + 1))
    run "$L" mesa decode "$c/cs_0000.ib" -o "$T/dec$k.one.json"
    run "$L" mesa decode "$c/cs_0000.ib" --all -o "$T/dec$k.all.json"
    "$L" r500 draw "$c" --vertices -o "$T/draw$k.json" 2>/dev/null || [ -s "$T/draw$k.json" ] ||
      { echo "FAIL: r500 draw $c --vertices wrote nothing"; fail=1; }
  done
  check mesa-decode.schema.json "$T"/dec*.json
  # every decoded draw is also a job r500 run takes
  for f in "$T"/dec*.all.json; do
    "$PY" -c 'import json,sys; [json.dump(j, open(f"{sys.argv[1]}.{i}.job.json", "w")) for i, j in enumerate(json.load(open(sys.argv[1])))]' "$f"
  done
  check r500-job.schema.json "$T"/dec*.one.json "$T"/dec*.job.json
  check r500-draw.schema.json "$T"/draw*.json
  # the decoder's own keys are checked: a constant without its float form is refused
  "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["us_const"]={"0": {"hex": ["0x0"]*4}}; json.dump(d, open(sys.argv[2], "w"))' \
    "$T/dec1.one.json" "$T/bad_dec.json"
  must_fail mesa-decode.schema.json "$T/bad_dec.json"
  "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["draws"][0]["vf_cntl"]=5; json.dump(d, open(sys.argv[2], "w"))' \
    "$T/draw1.json" "$T/bad_draw.json"
  must_fail r500-draw.schema.json "$T/bad_draw.json"
else
  echo "note: no captured stream (../shared/corpus absent, no Mesa shim): mesa decode and r500 draw schemas not exercised"
fi

# Mesa: mesa run --stats and --trace are r500 run's
if [ -n "$have_r300" ]; then
  run "$L" mesa run "$SRC/tests/mesa/data/varying_col.frag" --vert "$SRC/tests/mesa/data/varying_col.vert" \
    --uniform n=3 --size 8x4 -q --stats "$T/mesa.stats.json" --trace "$T/mesa.trace.json"
  check r500-stats.schema.json "$T/mesa.stats.json"
  check r500-trace.schema.json "$T/mesa.trace.json"
fi

# Mesa: piglit results, only where the shim is built
if [ -n "${LOCKSTEP_MESA_SHIM:-}" ] && [ -f "$SRC/tests/mesa/data/varying_color.shader_test" ]; then
  if "$L" mesa piglit --json "$T/piglit.json" "$SRC/tests/mesa/data/varying_color.shader_test" >/dev/null 2>&1 \
     && [ -s "$T/piglit.json" ]; then
    check piglit-results.schema.json "$T/piglit.json"
  else
    echo "note: mesa piglit did not produce results here; piglit schema not exercised"
  fi
else
  echo "note: the Mesa shim is not built; piglit results schema not exercised"
fi

# Mesa: a real fuzz campaign's reports (summary, findings), its triage and one
# reduction, only where the shim is built and r300_dri.so is installed
if [ -n "${LOCKSTEP_MESA_SHIM:-}" ] && ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  F=$T/fuzz
  "$L" mesa fuzz --seed 7 --count 30 --out "$F" -q >/dev/null
  case $? in 0|1|1[0-4]) ;; *) echo "FAIL: mesa fuzz"; fail=1 ;; esac
  run "$L" mesa fuzz --triage "$F" 2>/dev/null
  run "$L" mesa fuzz --reduce "$F" --limit 1 --max-tries 20 2>/dev/null
  check mesa-fuzz-summary.schema.json "$F/summary.json"
  check mesa-fuzz-finding.schema.json "$F"/findings/*/finding.json
  check mesa-fuzz-triage.schema.json "$F/triage.json"
  check mesa-fuzz-report.schema.json "$F"/findings/*/report.json
  check r500-job.schema.json "$F"/findings/*/original-job.json
  sed 's/"outcome": "disagree"/"outcome": "wrong"/' "$F"/findings/*/report.json | head -c 100000 >"$T/bad_report.json"
  must_fail mesa-fuzz-report.schema.json "$T/bad_report.json"
else
  echo "note: the Mesa shim or r300_dri.so is missing; mesa fuzz schemas not exercised"
fi

# negative checks: broken documents must be rejected
sed 's/"simd_efficiency": [0-9.e+-]*/"simd_efficiency": "high"/' "$T/nested_if.stats.json" >"$T/bad_stats.json"
must_fail r500-stats.schema.json "$T/bad_stats.json"
echo '{"us_inst": [[1, 2, 3]], "size": [0, 4]}' >"$T/bad_job.json"
must_fail r500-job.schema.json "$T/bad_job.json"
echo '{"bits": 3, "streams": {"A": "012"}, "trr": []}' >"$T/bad_ser.json"
must_fail pp5-serialize.schema.json "$T/bad_ser.json"

exit $fail
