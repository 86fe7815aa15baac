#!/bin/bash
# The live virtual R500 (docs/mesa.md, "The live device"), end to end:
#   1. examples/drm/r500_triangle builds its own command stream and submits it
#      under `lockstep mesa exec`, on the render node and on card0: accepted,
#      executed, the wait idle, and the colour buffer it reads back holds the
#      clear colour in its corner and the Gouraud colour at its centre;
#   2. the same stream with a forbidden register: DRM_RADEON_CS fails with
#      EINVAL and the shim's log line names the packet and the register;
#   3. with a vertex or a fragment program that never ends, under a small
#      watchdog (and the fragment one under the default too): a GPU lockup,
#      logged with its draw packet, the buffer busy, the next wait EAGAIN
#      after a reset, the reset counter 1, the next submission accepted and
#      drawn;
#   4. `mesa exec` propagates the program's exit status (and 128 + signal,
#      126, 127) and leaves no temporary files, even when the program is killed;
#   5. --capture DIR records the streams;
#   6. the device leaves in every buffer object exactly the bytes `lockstep
#      r500 draw --buffers-out` leaves when it replays the captured stream
#      (r500_triangle, Mesa's streams of lockstep-mesa-gl, shader_runner's);
#   7. piglit's own shader_runner (Debian's package) runs a test under the
#      shim on surfaceless EGL and passes by its own probes (which read back
#      the colour buffer through r300's blit).
# usage: live_device.sh LOCKSTEP R500_TRIANGLE PIGLIT_CACHE_DIR
set -u
L=$1
TRI=${2:-}
CACHE=${3:-}
if [ -z "$TRI" ] || [ -z "${LOCKSTEP_MESA_SHIM:-}" ]; then
  echo "SKIP: the r300 shim is not built (libdrm-dev, libegl-dev, libgl-dev)"
  exit 77
fi
if [ ! -e /usr/lib/x86_64-linux-gnu/dri/r300_dri.so ] && ! ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  echo "SKIP: r300_dri.so (libgl1-mesa-dri) is not installed"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-live.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp"
export TMPDIR="$work/tmp"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# run the command, stdout+stderr in $work/out, status in $rc
run() { "$@" >"$work/out" 2>&1; rc=$?; }
has() { grep -qF -- "$1" "$work/out" || { bad "$2: no '$1' in:"; sed 's/^/    /' "$work/out"; }; }

# 1. accepted and executed, on both nodes
for dev in /dev/dri/renderD128 /dev/dri/card0; do
  run "$L" mesa exec -- "$TRI" "$dev"
  [ $rc -eq 0 ] || bad "r500_triangle $dev: exit $rc"
  has "radeon 2.50, PCI id 0x71c2" "r500_triangle $dev"
  has "clear + triangle: DRM_RADEON_CS" "r500_triangle $dev"
  has "-> 0" "r500_triangle $dev"
  has "GEM_WAIT_IDLE -> 0" "r500_triangle $dev"
  # The clear is 0.25 grey, alpha 1: 0.25 * 255 = 63.75 -> 0x40 (round to
  # nearest) in every channel, stored 0xAARRGGBB. The triangle's vertices are
  # red (-0.75, -0.75), green (0.75, -0.75) and blue (0, 0.75) in clip space;
  # the 16x16 viewport puts the centre pixel (8, 8)'s sample (8.5, 8.5) at
  # clip (1/16, 1/16): blue = (1/16 + 0.75) / 1.5 = 0.5417, and red + green =
  # 0.4583 with 0.75 (green - red) = 1/16, so red 0.1875, green 0.2708:
  # 0.1875 * 255 = 47.8 -> 0x30, 0.2708 * 255 = 69.06 -> 0x45, 0.5417 * 255 =
  # 138.1 -> 0x8a. Every pixel is covered by the clear.
  has "colour buffer: 256 of 256 pixels written; centre 0xff30458a, corner 0xff404040" \
    "r500_triangle $dev: the pixels"
done
run env LOCKSTEP_SHIM_TRACE=1 "$L" mesa exec --chip rv515 -- "$TRI"
has "PCI id 0x7140" "--chip rv515"
has "CS 0 executed: 2 draws" "r500_triangle (trace)"

# Mesa's own streams with real buffer sizes: a vertex-buffer draw through an
# index buffer (3D_LOAD_VBPNTR, INDX_BUFFER, 3D_DRAW_INDX_2) and the default
# embedded quad, both accepted and executed
src=$(cd "$(dirname "$0")" && pwd)/data
if [ -n "${LOCKSTEP_MESA_GL:-}" ]; then
  for extra in "" --vbo; do
    # shellcheck disable=SC2086
    run env LOCKSTEP_SHIM_TRACE=1 "$L" mesa exec -- "$LOCKSTEP_MESA_GL" "$src/vf_transform.frag" \
      --vert "$src/vf_transform.vert" --size 8x8 $extra -o "$work/gl.bin"
    [ $rc -eq 0 ] || bad "lockstep-mesa-gl $extra under mesa exec: exit $rc"
    has "CS 0 executed: " "lockstep-mesa-gl $extra"
    grep -q "refused\|lockup\|not executed" "$work/out" && bad "lockstep-mesa-gl $extra: $(grep -m1 'refused\|lockup\|not executed' "$work/out")"
  done
fi

# 2. refused as the kernel refuses it
run "$L" mesa exec -- "$TRI" --plant forbidden-register
[ $rc -eq 0 ] || bad "forbidden register: exit $rc"
has "-> Invalid argument" "forbidden register"
has "[lockstep-shim] CS 0 refused (EINVAL)" "forbidden register"
has "type-0 packet at dword 0 writes register 0x4018" "forbidden register"

# 3. a hang: reported at the wait, reset, and the device works again
run "$L" mesa exec --watchdog 1000 -- "$TRI" --plant runaway-vertex-program
[ $rc -eq 0 ] || bad "runaway vertex program: exit $rc"
has "GPU lockup: CS 0 hung at the draw packet at dword" "runaway vertex program"
has "watchdog: 1000 instructions issued for one vertex" "runaway vertex program"
has "GEM_BUSY -> Device or resource busy" "runaway vertex program"
has "GEM_WAIT_IDLE -> Resource temporarily unavailable" "runaway vertex program"
has "GPU resets: 1" "runaway vertex program"
has "after the reset: DRM_RADEON_CS" "runaway vertex program"
has "centre 0xff404040, corner 0xff404040" "runaway vertex program: the clear after the reset"
for wd in 1000 ""; do
  # shellcheck disable=SC2086
  run "$L" mesa exec ${wd:+--watchdog $wd} -- "$TRI" --plant runaway-fragment-program
  [ $rc -eq 0 ] || bad "runaway fragment program (watchdog ${wd:-default}): exit $rc"
  has "GPU lockup: CS 0 hung at the draw packet at dword 117" "runaway fragment program"
  has "watchdog: thread 0 issued ${wd:-1048576} instructions without finishing" "runaway fragment program"
  has "GEM_BUSY -> Device or resource busy" "runaway fragment program"
  has "GEM_WAIT_IDLE -> Resource temporarily unavailable" "runaway fragment program"
  has "GPU resets: 1" "runaway fragment program"
  has "planted runaway fragment program: a GPU hang" "runaway fragment program"
  has "centre 0xff404040, corner 0xff404040" "runaway fragment program: the clear after the reset"
done

# 4. exit statuses and clean-up
run "$L" mesa exec -- sh -c 'exit 42'
[ $rc -eq 42 ] || bad "exit 42 came back as $rc"
run "$L" mesa exec -- sh -c 'kill -TERM $$'
[ $rc -eq 143 ] || bad "SIGTERM came back as $rc (want 143)"
run "$L" mesa exec -- no-such-program-lockstep
[ $rc -eq 127 ] || bad "a missing program: exit $rc (want 127)"
printf 'not a program\n' >"$work/notexec"
chmod -x "$work/notexec"
run "$L" mesa exec -- "$work/notexec"
[ $rc -eq 126 ] || bad "a file that is not executable: exit $rc (want 126)"
# the shim made its mirror (the program read the fake sysfs), then the program
# was killed: nothing of either stays behind
run "$L" mesa exec -- sh -c 'cat /sys/dev/char/226:0/device/vendor; kill -KILL $$'
[ $rc -eq 137 ] || bad "SIGKILL came back as $rc (want 137)"
has "0x1002" "card0's sysfs vendor file"
left=$(ls -A "$work/tmp")
[ -z "$left" ] || bad "mesa exec left files in TMPDIR: $left"

# 5. --capture
run "$L" mesa exec --capture "$work/cap" -- "$TRI"
[ -s "$work/cap/cs_0000.ib" ] && [ -s "$work/cap/cs_0000.bo_0" ] || bad "--capture: no cs_0000.ib / .bo_0"
rm -rf "$work/cap"
# --capture-only: recorded, neither checked nor executed (the forbidden register passes)
run "$L" mesa exec --capture "$work/cap" --capture-only -- "$TRI" --plant forbidden-register
has "clear + triangle: DRM_RADEON_CS (188 dwords) -> 0" "--capture-only"
[ -s "$work/cap/cs_0000.ib" ] || bad "--capture-only: no cs_0000.ib"
rm -rf "$work/cap"

# 6. the device and `r500 draw` leave the same bytes in every buffer object
# same_as_draw DIR WHAT: DIR is a --capture of an exec-mode run (cs_N.bo_K
# before, cs_N.after_K after each submission); every submission is replayed
# from its .bo_K by `r500 draw --cs N --buffers-out` and each .after_K must
# match byte for byte. Returns the number of buffers compared in $ncmp.
same_as_draw() {
  local dir=$1 what=$2 ib N a
  ncmp=0
  mkdir -p "$dir/rd"
  for ib in "$dir"/cs_*.ib; do
    N=${ib##*/cs_}
    N=${N%.ib}
    "$L" r500 draw "$dir" --cs $((10#$N)) --buffers-out "$dir/rd" -q >"$work/rd.out" 2>&1
    for a in "$dir"/cs_"$N".after_*; do
      [ -e "$a" ] || continue
      if cmp -s "$a" "$dir/rd/${a##*/}"; then
        ncmp=$((ncmp + 1))
      else
        bad "$what: ${a##*/}: the device's bytes differ from r500 draw's ($(head -c 300 "$work/rd.out"))"
      fi
    done
  done
  [ $ncmp -gt 0 ] || bad "$what: no buffer object compared"
}
run "$L" mesa exec --capture "$work/same" -- "$TRI"
same_as_draw "$work/same" "r500_triangle"
cmp -s "$work/same/cs_0000.bo_0" "$work/same/cs_0000.after_0" &&
  bad "r500_triangle: the submission left its colour buffer as it was"
rm -rf "$work/same"
if [ -n "${LOCKSTEP_MESA_GL:-}" ]; then
  for extra in "" --vbo; do
    # shellcheck disable=SC2086
    run "$L" mesa exec --capture "$work/same" -- "$LOCKSTEP_MESA_GL" "$src/vf_transform.frag" \
      --vert "$src/vf_transform.vert" --size 8x8 $extra -o "$work/gl.bin"
    [ $rc -eq 0 ] || bad "lockstep-mesa-gl $extra --capture: exit $rc"
    same_as_draw "$work/same" "lockstep-mesa-gl $extra"
    echo "lockstep-mesa-gl $extra: $ncmp buffer objects identical to r500 draw's"
    rm -rf "$work/same"
  done
fi

# 6b. --model reaches the device: rb-round (docs/assumptions.md) decides 0.5 of
# an 8-bit channel: 128/255 by default (nearest), 127/255 with truncate; a bad
# option is a one-line usage error before anything runs
if [ -n "${LOCKSTEP_MESA_GL:-}" ]; then
  printf 'void main() { gl_FragColor = vec4(0.5, 0.25, 0.75, 1.0); }\n' >"$work/half.frag"
  run "$L" mesa exec -- "$LOCKSTEP_MESA_GL" "$work/half.frag" --size 4x4 -o "$work/near.bin"
  [ $rc -eq 0 ] || bad "mesa exec (default model): exit $rc"
  run "$L" mesa exec --model rb-round=truncate -- "$LOCKSTEP_MESA_GL" "$work/half.frag" --size 4x4 \
    -o "$work/trunc.bin"
  [ $rc -eq 0 ] || bad "mesa exec --model rb-round=truncate: exit $rc"
  # red of pixel 0, float32 little-endian: 128/255 = 0x3f008081, 127/255 = 0x3efefeff
  r_near=$(od -An -tx4 -N4 "$work/near.bin" | tr -d ' ')
  r_trunc=$(od -An -tx4 -N4 "$work/trunc.bin" | tr -d ' ')
  [ "$r_near" = 3f008081 ] || bad "default rb-round: red 0x$r_near, expected 128/255 (0x3f008081)"
  [ "$r_trunc" = 3efefeff ] || bad "--model rb-round=truncate: red 0x$r_trunc, expected 127/255 (0x3efefeff)"
  run "$L" mesa exec --model rb-round=sideways -- true
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/out")" -eq 1 ] && grep -q "rb-round=sideways" "$work/out" ||
    bad "mesa exec --model rb-round=sideways: exit $rc, $(head -c 200 "$work/out")"
  run "$L" mesa piglit --profile quick_gl --results "$work/pr" --model rb-round=sideways
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/out")" -eq 1 ] && [ ! -e "$work/pr" ] ||
    bad "mesa piglit --profile --model rb-round=sideways: exit $rc, $(head -c 200 "$work/out")"
  echo "--model: rb-round nearest 0x$r_near, truncate 0x$r_trunc; a bad value is refused"
fi

# 7. piglit's shader_runner (optional: libwaffle-1-0 and the piglit package)
. "$(dirname "$0")/piglit_prereq.sh"
piglit_find_deb "$CACHE"
if ! ls /usr/lib/*/libwaffle-1.so.0 >/dev/null 2>&1; then
  echo "part 6 skipped: libwaffle-1-0 is not installed"
elif [ -z "$deb" ]; then
  echo "part 6 skipped: no piglit package (apt-get download piglit failed)"
else
  pr="$work/piglit"
  mkdir -p "$pr"
  P=./usr/lib/x86_64-linux-gnu/piglit
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$pr" "$P/bin/shader_runner" \
    "$P/lib/libpiglitutil_gl.so.0" "$P/lib/libpiglitutil.so.0" \
    "$P/bin/fbo-missing-attachment-clear" "$P/bin/fbo-sys-sub-blit" "$P/bin/occlusion_query" \
    "$P/bin/occlusion-query-discard" \
    "$P/tests/spec/glsl-1.10/execution/glsl-fs-if-nested-loop.shader_test" 2>/dev/null ||
    bad "extracting shader_runner from $deb"
  P=$pr/usr/lib/x86_64-linux-gnu/piglit
  run env LOCKSTEP_SHIM_TRACE=1 LD_LIBRARY_PATH="$P/lib" "$L" mesa exec -- "$P/bin/shader_runner" \
    "$P/tests/spec/glsl-1.10/execution/glsl-fs-if-nested-loop.shader_test" -auto -fbo
  # it compiled through r300 and submitted the rectangle and the read-back
  # (r300's blit of the tiled colour buffer into a linear one: a point-sized
  # rectangle sampling it as a texture), which the checker accepted and the
  # device executed; its probes read what the device wrote and pass
  has "CS 0 executed: 2 draws" "shader_runner"
  has 'PIGLIT: {"result": "pass" }' "shader_runner"
  grep -q "refused\|lockup\|not executed" "$work/out" && bad "shader_runner: a refused, hung or stopped draw"
  run env LD_LIBRARY_PATH="$P/lib" "$L" mesa exec --capture "$work/same" -- "$P/bin/shader_runner" \
    "$P/tests/spec/glsl-1.10/execution/glsl-fs-if-nested-loop.shader_test" -auto -fbo
  same_as_draw "$work/same" "shader_runner"
  echo "shader_runner: pass; $ncmp buffer objects identical to r500 draw's"
  # r300 clears a 160x160 macro-tiled buffer with the CBZB clear, whose
  # scissor is align(160, 64) = 192 pixels wide, past the 160-pixel pitch
  # (r300_texture.c cbzb_width; docs/assumptions.md rb-beyond-pitch): the
  # draw runs and every pixel of the buffer holds the clear colour
  cat >"$work/clear160.shader_test" <<'EOT'
[require]
GLSL >= 1.10
SIZE 160 160

[vertex shader passthrough]

[fragment shader]
void main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }

[test]
clear color 0.2 0.4 0.6 1.0
clear
probe all rgba 0.2 0.4 0.6 1.0
draw rect -1 -1 1 1
probe rect rgba (0, 0, 80, 80) (0.0, 1.0, 0.0, 1.0)
probe rect rgba (80, 0, 80, 160) (0.2, 0.4, 0.6, 1.0)
probe rect rgba (0, 80, 80, 80) (0.2, 0.4, 0.6, 1.0)
EOT
  run env LD_LIBRARY_PATH="$P/lib" "$L" mesa exec -- "$P/bin/shader_runner" \
    "$work/clear160.shader_test" -auto -fbo
  has 'PIGLIT: {"result": "pass" }' "shader_runner, a clear wider than the pitch"
  grep -q "refused\|lockup\|not executed" "$work/out" &&
    bad "shader_runner, a clear wider than the pitch: a refused, hung or stopped draw"
  echo "shader_runner: a 160x160 clear (192-pixel CBZB scissor): pass"
  # the same clear into waffle's GBM window, a 10-bit ARGB2101010 buffer: the
  # CBZB clear's Z-pipe half stores ZB_DEPTHCLEARVALUE as the surface packs
  # it (render_rb.c, assumption cbzb-clear), not as 8-bit RGBA
  run env LD_LIBRARY_PATH="$P/lib" PIGLIT_PLATFORM=gbm "$L" mesa exec -- "$P/bin/shader_runner" \
    "$work/clear160.shader_test" -auto
  has 'PIGLIT: {"result": "pass" }' "shader_runner, a clear of the 10-bit GBM window"
  # piglit's fbo-sys-sub-blit clears the window's back buffer and blits it
  run env LD_LIBRARY_PATH="$P/lib" PIGLIT_PLATFORM=gbm "$L" mesa exec -- "$P/bin/fbo-sys-sub-blit" -auto
  has 'PIGLIT: {"result": "pass" }' "fbo-sys-sub-blit (CBZB clears of the 10-bit window)"
  echo "the 10-bit GBM window: clear160 and fbo-sys-sub-blit pass"
  # occlusion queries: ZB_ZPASS_DATA resets the pass counter, ZB_ZPASS_ADDR
  # stores it into the query buffer (render_rb.c mesa_zpass_apply); piglit
  # checks the counts of drawn, occluded and discarded fragments
  for t in occlusion_query occlusion-query-discard; do
    run env LD_LIBRARY_PATH="$P/lib" "$L" mesa exec -- "$P/bin/$t" -auto -fbo
    has 'PIGLIT: {"result": "pass" }' "$t (occlusion query counts)"
  done
  echo "occlusion_query, occlusion-query-discard: pass"
  # and r500 draw stores the same query results into the same buffers
  run env LD_LIBRARY_PATH="$P/lib" "$L" mesa exec --capture "$work/oq" -- "$P/bin/occlusion_query" -auto -fbo
  same_as_draw "$work/oq" "occlusion_query"
  echo "occlusion_query: $ncmp buffer objects identical to r500 draw's"
  rm -rf "$work/oq"
  # a depth-only framebuffer (no colour attachment: r300 emits no
  # RB3D_COLOROFFSET relocation and channel mask 0) binds its depth buffer and
  # writes depth (src/mesa/render_rb.c): piglit's fbo-missing-attachment-clear
  # clears the depth of such a framebuffer to 0.5 and probes it
  run env LD_LIBRARY_PATH="$P/lib" "$L" mesa exec -- "$P/bin/fbo-missing-attachment-clear" -auto -fbo
  has 'PIGLIT: {"result": "pass" }' "fbo-missing-attachment-clear (a depth-only draw)"
  echo "fbo-missing-attachment-clear (a depth-only draw writes depth): pass"
fi
[ $fail -eq 0 ] && echo "live device: all checks passed"
exit $fail
