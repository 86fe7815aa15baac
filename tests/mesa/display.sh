#!/bin/bash
# The fake display (src/mesa/shim_kms.c; docs/mesa.md, "A display"): a KMS
# client in plain ioctls (kms_client.c) under `lockstep mesa exec --mode 64x48
# --scanout DIR`; every check it prints must hold, and the two frames scanned
# out must be exactly the pixels it wrote into its buffer objects (a red/green
# gradient with blue 0x40, then the channels swapped with blue 0xc0).
# No Mesa driver is involved. Skips (77) without the shim.
# usage: display.sh LOCKSTEP KMS_CLIENT
set -u
L=$1 C=${2:-}
if [ -z "$C" ] || [ -z "${LOCKSTEP_MESA_SHIM:-}" ] || [ ! -r "${LOCKSTEP_MESA_SHIM}" ]; then
  echo "SKIP: the r300 shim is not built (libdrm-dev libegl-dev libgl-dev absent)"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-display.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$L" mesa exec --mode 64x48 --scanout "$work/frames" -- "$C" 64 48 >"$work/out" 2>&1
rc=$?
cat "$work/out"
fail=0
[ $rc = 0 ] || { echo "FAIL: kms_client exit $rc"; fail=1; }
grep -qx "kms: 0 failures" "$work/out" || fail=1
ls "$work/frames"
[ "$(ls "$work/frames")" = "$(printf 'frame_0000.png\nframe_0001.png')" ] || { echo "FAIL: not exactly two frames"; fail=1; }
PYTHONPATH=$(dirname "$0") /usr/bin/python3 - "$work/frames" <<'PY' || { echo "FAIL: the frames' pixels"; fail=1; }
import sys
import png_rgb
W, H = 64, 48
for k, swap in ((0, False), (1, True)):
    img = png_rgb.read(f"{sys.argv[1]}/frame_{k:04d}.png")
    assert img[:2] == (W, H), img[:2]
    for y in range(H):
        for x in range(W):
            r, g = x * 255 // (W - 1), y * 255 // (H - 1)
            want = (g, r, 0xc0) if swap else (r, g, 0x40)
            got = png_rgb.pixel(img, x, y)
            assert got == want, f"frame {k} pixel ({x}, {y}): {got}, want {want}"
print("both frames are the buffers' pixels")
PY
exit $fail
