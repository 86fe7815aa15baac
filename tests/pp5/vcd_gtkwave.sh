#!/bin/sh
# Run the bundled IGC example, write a VCD, and check that GTKWave loads it
# headless (gtkwave -S with a Tcl script under xvfb-run; vcd2fst as a second
# parser). Skips (exit 77) with a message when gtkwave is not installed.
set -eu
LOCKSTEP="$1"
SRC="$2"
OUT="${TMPDIR:-/tmp}/lockstep-pp5-vcd.$$"
mkdir -p "$OUT"
trap 'rm -rf "$OUT"' EXIT
"$LOCKSTEP" pp5 run "$SRC/examples/pp5/edge.stream" --microcode "$SRC/examples/pp5/edge.pp5m" \
    --vcd "$OUT/edge.vcd" 2>/dev/null
grep -q '^\$enddefinitions' "$OUT/edge.vcd"
if ! command -v gtkwave >/dev/null 2>&1; then
    echo "SKIP: gtkwave not installed (apt-get install gtkwave xvfb)"
    exit 77
fi
if command -v vcd2fst >/dev/null 2>&1; then
    vcd2fst "$OUT/edge.vcd" "$OUT/edge.fst" >/dev/null
    test -s "$OUT/edge.fst"
fi
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "SKIP: xvfb-run not installed; vcd2fst parsed the VCD"
    exit 77
fi
cat > "$OUT/check.tcl" <<'TCL'
set n [gtkwave::getNumFacs]
puts "FACS $n"
for {set i 0} {$i < $n} {incr i} { puts "FAC [gtkwave::getFacName $i]" }
exit 0
TCL
timeout 60 xvfb-run -a gtkwave -S "$OUT/check.tcl" "$OUT/edge.vcd" > "$OUT/log" 2>&1 || true
for s in TrSt ADat LSB AddrL PostI PostC CSB TRR NewL IP Busy; do
    if ! grep -q "^FAC igc\.$s" "$OUT/log"; then
        echo "GTKWave did not list signal $s"; cat "$OUT/log"; exit 1
    fi
done
echo "GTKWave loaded $(grep '^FACS' "$OUT/log")"
