#!/bin/sh
# `pp5 render --vcd --probe X,Y`: the VCD's EMC signals at the end of the
# frame must be what the picture says at that pixel (the raw output, read
# independently), the enabled-pixel count must be a count of the array, and
# other chip geometries of the same 128×128 region must give the same picture.
set -eu
LOCKSTEP="$1"
SRC="$2"
OUT="${TMPDIR:-/tmp}/lockstep-pp5-probe.$$"
mkdir -p "$OUT"
trap 'rm -rf "$OUT"' EXIT
SCENE="$SRC/examples/pp5/triangle.scene"
X=60 Y=50
"$LOCKSTEP" pp5 render "$SCENE" -o "$OUT/t.png" --raw "$OUT/t.rgb" --vcd "$OUT/t.vcd" \
    --probe "$X,$Y" >/dev/null
# last value of a named signal: its id from $var, then the last change of that id
last() {
    id=$(awk -v n="$1" '$1 == "$var" && $5 == n { print $4; exit }' "$OUT/t.vcd")
    test -n "$id" || { echo "no signal $1 in the VCD"; exit 1; }
    awk -v id="$id" '
        /^b/ && $2 == id { v = substr($1, 2) }
        /^[01]/ && substr($0, 2) == id { v = substr($0, 1, 1) }
        END { n = 0; for (i = 1; i <= length(v); i++) n = n * 2 + substr(v, i, 1); print n }' "$OUT/t.vcd"
}
# the raw file is 8-bit RGB, bottom row first: pixel (X, Y) at byte 3·(128·Y + X)
off=$((3 * (128 * Y + X)))
set -- $(od -An -tu1 -j "$off" -N3 "$OUT/t.rgb")
R=$1 G=$2 B=$3
for c in red:$R green:$G blue:$B; do
    got=$(last "EMC_probe_${c%%:*}")
    test "$got" = "${c#*:}" || { echo "EMC_probe_${c%%:*} ends at $got, the picture has ${c#*:}"; exit 1; }
done
# a pixel inside the triangle: its depth 0.5 went into the z-buffer
z=$(last EMC_probe_zbuf)
test "$z" -ne 16777215 || { echo "zbuf of the probe pixel still the clear value"; exit 1; }
en=$(last EMC_enabled_pixels)
test "$en" -ge 0 && test "$en" -le 16384
# the same region in other chip geometries: the same picture, byte for byte
for g in "4x4 32x32" "2x8 64x16" "1x1 128x128"; do
    set -- $g
    "$LOCKSTEP" pp5 render "$SRC/examples/pp5/demo.scene" -o "$OUT/g.png" --raw "$OUT/g.rgb" \
        --chips "$1" --tile "$2" >/dev/null
    "$LOCKSTEP" pp5 render "$SRC/examples/pp5/demo.scene" -o "$OUT/d.png" --raw "$OUT/d.rgb" >/dev/null
    cmp "$OUT/g.rgb" "$OUT/d.rgb" || { echo "chips $1 tile $2: another picture"; exit 1; }
done
# A-14 alternative (--origins tile): for a region on the tile grid the chips'
# origins are the same, so is the picture
"$LOCKSTEP" pp5 render "$SRC/examples/pp5/demo.scene" -o "$OUT/t2.png" --raw "$OUT/t2.rgb" \
    --origins tile >/dev/null
cmp "$OUT/t2.rgb" "$OUT/d.rgb" || { echo "--origins tile: another picture"; exit 1; }
sed 's/^region 1000 700/region 992 704/' "$SRC/tests/pp5/data/region1000.scene" > "$OUT/r.scene"
for o in full tile; do
    "$LOCKSTEP" pp5 render "$OUT/r.scene" -o "$OUT/r.png" --raw "$OUT/r_$o.rgb" --origins "$o" >/dev/null
done
cmp "$OUT/r_full.rgb" "$OUT/r_tile.rgb" || { echo "region 992 704: --origins tile differs"; exit 1; }
echo "probe ($X,$Y): rgb $R $G $B, zbuf $z; geometries and origin readings agree"
