#!/bin/bash
# GL programs from Debian packages, unmodified, on the virtual R500
# (docs/mesa.md, "Other programs"):
#   eglinfo (mesa-utils-bin): the GBM, surfaceless and device platforms
#     each open the fake device with Mesa's r300 driver;
#   wflinfo (waffle-utils): a GL 2.1 context on surfaceless EGL and a GLES 2
#     one on GBM, both "ATI RV530" (--chip rv515: "ATI RV515");
#   kmscube (kmscube): finds the display on /dev/dri/card0, renders its
#     smooth-shaded cube with r300 on lockstep and page-flips; every frame
#     scanned out is a PNG (--scanout): the corner is kmscube's clear grey, the
#     centre is the cube (not grey), and the cube turns between frames.
# Each part skips with a message when its package is absent; 77 if all do.
# usage: real_clients.sh LOCKSTEP
set -u
L=$1
if [ -z "${LOCKSTEP_MESA_SHIM:-}" ] || [ ! -r "${LOCKSTEP_MESA_SHIM}" ]; then
  echo "SKIP: the r300 shim is not built (libdrm-dev libegl-dev libgl-dev absent)"; exit 77
fi
if ! ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  echo "SKIP: r300_dri.so (libgl1-mesa-dri) is not installed"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-clients.XXXXXX")
sleeper=
trap 'rm -rf "$work"; [ -n "$sleeper" ] && kill $sleeper 2>/dev/null' EXIT
fail=0 ran=0
bad() { echo "FAIL: $*"; fail=1; }
has() { grep -qF -- "$1" "$work/out" || { bad "$2: no '$1' in:"; head -40 "$work/out" | sed 's/^/    /'; }; }

if command -v eglinfo >/dev/null; then
  ran=1
  # its exit status counts the platforms it could not open: Wayland and X11
  # have no display here, so 2
  XDG_RUNTIME_DIR=$work timeout 120 "$L" mesa exec -- eglinfo >"$work/out" 2>&1
  rc=$?
  [ $rc = 2 ] || bad "eglinfo: exit $rc (want 2: Wayland and X11 have no display)"
  # the driver line of each platform's section
  for p in "GBM platform:" "Surfaceless platform:" "Device #0:"; do
    d=$(awk -v p="$p" '$0 == p {on = 1} on && /EGL driver name:/ {print $4; exit}' "$work/out")
    [ "$d" = r300 ] || bad "eglinfo: $p driver '$d', want r300"
  done
else
  echo "eglinfo skipped: mesa-utils-bin is not installed"
fi

if command -v wflinfo >/dev/null; then
  ran=1
  timeout 120 "$L" mesa exec -- wflinfo -p surfaceless_egl -a gl >"$work/out" 2>&1 || bad "wflinfo gl: exit $?"
  has "OpenGL renderer string: ATI RV530" "wflinfo -a gl"
  has "OpenGL version string: 2.1 Mesa" "wflinfo -a gl"
  timeout 120 "$L" mesa exec -- wflinfo -p gbm -a gles2 >"$work/out" 2>&1 || bad "wflinfo gles2: exit $?"
  has "OpenGL renderer string: ATI RV530" "wflinfo -p gbm -a gles2"
  has "OpenGL version string: OpenGL ES 2.0 Mesa" "wflinfo -p gbm -a gles2"
  timeout 120 "$L" mesa exec --chip rv515 -- wflinfo -p surfaceless_egl -a gl >"$work/out" 2>&1
  has "OpenGL renderer string: ATI RV515" "wflinfo --chip rv515"
else
  echo "wflinfo skipped: waffle-utils is not installed"
fi

if command -v kmscube >/dev/null; then
  ran=1
  # kmscube stops when stdin is readable: give it a pipe nobody writes to
  mkfifo "$work/stdin"
  sleep 600 >"$work/stdin" &
  sleeper=$!
  timeout 300 "$L" mesa exec --mode 160x120 --scanout "$work/frames" -- kmscube -c 3 <"$work/stdin" \
    >"$work/out" 2>&1 || bad "kmscube: exit $?"
  kill $sleeper 2>/dev/null
  sleeper=
  has 'renderer: "ATI RV530"' "kmscube"
  has "Rendered " "kmscube"
  [ -s "$work/frames/frame_0002.png" ] || bad "kmscube: fewer than 3 frames scanned out: $(ls "$work/frames" 2>&1)"
  PYTHONPATH=$(dirname "$0") /usr/bin/python3 - "$work/frames" <<'EOF' || bad "kmscube's frames (above)"
import sys
import png_rgb
frames = [png_rgb.read(f"{sys.argv[1]}/frame_{k:04d}.png") for k in (1, 2)]
for img in frames:
    assert img[:2] == (160, 120), img[:2]
    grey = png_rgb.pixel(img, 2, 2)
    # glClearColor(0.5, 0.5, 0.5, 1.0): 127 or 128 in each channel
    assert all(v in (127, 128) for v in grey) and len(set(grey)) == 1, f"corner {grey}"
    centre = png_rgb.pixel(img, 80, 60)
    assert centre != grey, f"centre {centre}: no cube"
assert frames[0][2] != frames[1][2], "the cube did not turn between frames"
EOF
else
  echo "kmscube skipped: kmscube is not installed"
fi
[ $ran = 0 ] && { echo "SKIP: none of mesa-utils-bin, waffle-utils, kmscube is installed"; exit 77; }
[ $fail = 0 ] && echo "real clients: all checks passed"
exit $fail
