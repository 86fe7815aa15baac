#!/bin/sh
# The viewer in a real browser (docs/viewer.md, "Tests"): record both demos,
# write their pages with `lockstep view -o`, and drive headless Chromium over
# its DevTools protocol (tests/view/browser.mjs): step to known clocks and
# instructions, read the displayed values back and compare them with the
# recording, the R500 --trace and --raw outputs and the PP5 --vcd output.
# Screenshots go to $3 (default: the temporary directory, removed).
# Skips (exit 77) with a message when node or chromium is absent.
set -eu
LOCKSTEP="$1"
SRC="$2"
SHOTS="${3:-}"
if ! command -v node >/dev/null 2>&1; then echo "SKIP: node not installed (apt-get install nodejs)"; exit 77; fi
CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$CHROMIUM" ]; then echo "SKIP: chromium not installed (apt-get install chromium)"; exit 77; fi
OUT="$(mktemp -d "${TMPDIR:-/tmp}/lockstep-view.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT
# R500: the demo's Mandelbrot program at 64x64 with the whole --trace, register
# values recorded for the left half (--record-values), and the demo frame
# itself (512x512, as `make demo` records it) with --stats and --raw.
"$LOCKSTEP" r500 run "$SRC/examples/r500/mandelbrot.fs.asm" --size 64x64 --input t0=uv \
    --thread rv530 -q --record "$OUT/r500.lsr" --record-values 0,0,32,64 \
    --trace "$OUT/r500.trace.json" --raw "$OUT/r500.raw"
"$LOCKSTEP" r500 run "$SRC/examples/r500/mandelbrot.fs.asm" --size 512x512 --input t0=uv \
    --lanes rv530 -q --record "$OUT/r500demo.lsr" --stats "$OUT/r500demo.stats.json" --raw "$OUT/r500demo.raw"
"$LOCKSTEP" view "$OUT/r500demo.lsr" -o "$OUT/r500demo.html" >/dev/null
# PP5: the demo scene, with the VCD of the same clocks (probe pixel 64,64).
"$LOCKSTEP" pp5 render "$SRC/examples/pp5/demo.scene" -o "$OUT/pp5.png" --record "$OUT/pp5.lsr" \
    --vcd "$OUT/pp5.vcd" --probe 64,64 >/dev/null
"$LOCKSTEP" view "$OUT/r500.lsr" -o "$OUT/r500.html" >/dev/null
"$LOCKSTEP" view "$OUT/pp5.lsr" -o "$OUT/pp5.html" >/dev/null

node "$SRC/tests/view/browser.mjs" "$CHROMIUM" "$OUT" "${SHOTS:-$OUT}"
