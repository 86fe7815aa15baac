#!/bin/bash
# The r300 shim leaves no lockstep-shim-* directory behind: a `lockstep mesa
# run` (the shim makes its sysfs mirror under $LOCKSTEP_SHIM_DIR — the
# harness's own run directory — else $XDG_RUNTIME_DIR, else $TMPDIR, else
# /tmp, and removes it at exit; a process killed by a signal leaves it in the
# directory the harness removes), a preloaded shell that looks at /dev/dri
# and then execs another program (exec runs no destructors: the shim removes
# the mirror first), and a preloaded process that never looks for the device
# (no mirror is made at all). Skips (77) when the shim or r300_dri.so is absent.
# usage: shim_cleanup.sh LOCKSTEP
set -u
lockstep=$1
shim=${LOCKSTEP_MESA_SHIM:-}
if [ -z "$shim" ] || [ ! -r "$shim" ]; then
  echo "skip: the r300 shim is not built (libdrm-dev libegl-dev libgl-dev absent)"; exit 77
fi
if ! ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  echo "skip: r300_dri.so (libgl1-mesa-dri) is not installed"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-shim-test-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/xdg" "$work/tmp"
chmod 700 "$work/xdg"
fail() { echo "FAILED: $*"; exit 1; }
left() { find "$1" -maxdepth 1 -name 'lockstep-shim-*' | grep -q .; }
printf 'void main() { gl_FragColor = vec4(0.25, 0.5, 0.75, 1.0); }\n' > "$work/t.frag"

# 1. a whole `mesa run`: the mirror is made and removed, nothing is left in
# $XDG_RUNTIME_DIR or $TMPDIR
out=$(XDG_RUNTIME_DIR="$work/xdg" TMPDIR="$work/tmp" LOCKSTEP_SHIM_TRACE=1 \
      "$lockstep" mesa run "$work/t.frag" --size 4x4 -o "$work/t.png" 2>&1) ||
  fail "mesa run: $out"
# (lockstep's harness passes LOCKSTEP_SHIM_DIR: the run's own directory
# under $TMPDIR, removed with the run, also after a crash)
grep -q "mirror $work/tmp/lockstep-mesa-[A-Za-z0-9]*/lockstep-shim-" <<<"$out" ||
  fail "the mirror is not in the run's own directory: $out"
grep -q "removed the mirror $work/tmp/lockstep-mesa-" <<<"$out" || fail "mirror not removed: $out"
find "$work/tmp" -mindepth 1 | grep -q . && fail "left behind: $(find "$work/tmp" -mindepth 1)"
left "$work/xdg" && fail "left behind: $(ls "$work/xdg")"
left "$work/tmp" && fail "left behind: $(ls "$work/tmp")"

# 2. without XDG_RUNTIME_DIR: $TMPDIR; a shell that reads the faked sysfs
# itself (a redirection: the shell's own open), then execs
dev=/sys/dev/char/226:128/device/vendor
out=$(env -u XDG_RUNTIME_DIR TMPDIR="$work/tmp" LOCKSTEP_SHIM_TRACE=1 LD_PRELOAD="$shim" \
      sh -c "read v < $dev; exec true" 2>&1) || fail "sh -c ... exec: $out"
grep -q "mirror $work/tmp/lockstep-shim-" <<<"$out" || fail "no mirror under \$TMPDIR: $out"
left "$work/tmp" && fail "left behind by exec: $(ls "$work/tmp")"

# 2b. LOCKSTEP_SHIM_DIR comes before XDG_RUNTIME_DIR and TMPDIR; a process
# killed by a signal leaves its mirror there (what the harness removes)
mkdir -p "$work/own"
out=$(XDG_RUNTIME_DIR="$work/xdg" TMPDIR="$work/tmp" LOCKSTEP_SHIM_DIR="$work/own" LOCKSTEP_SHIM_TRACE=1 \
      LD_PRELOAD="$shim" sh -c "read v < $dev; kill -9 \$\$" 2>&1)
grep -q "mirror $work/own/lockstep-shim-" <<<"$out" || fail "LOCKSTEP_SHIM_DIR not used: $out"
left "$work/xdg" && fail "left behind in \$XDG_RUNTIME_DIR: $(ls "$work/xdg")"
left "$work/tmp" && fail "left behind in \$TMPDIR: $(ls "$work/tmp")"

# 3. a process that never looks for the device makes no mirror
out=$(XDG_RUNTIME_DIR="$work/xdg" LOCKSTEP_SHIM_TRACE=1 LD_PRELOAD="$shim" ls / 2>&1 >/dev/null)
grep -q "mirror" <<<"$out" && fail "a mirror for a process that never opened the device: $out"
left "$work/xdg" && fail "left behind: $(ls "$work/xdg")"

# 4. a forked child exiting first does not remove its parent's mirror
out=$(XDG_RUNTIME_DIR="$work/xdg" LOCKSTEP_SHIM_TRACE=1 LD_PRELOAD="$shim" \
      sh -c "read v < $dev; (read w < $dev); read x < $dev" 2>&1) || fail "fork: $out"
n=$(grep -c "removed the mirror" <<<"$out")
[ "$n" = 1 ] || fail "expected one removal (by the owner), got $n: $out"
left "$work/xdg" && fail "left behind after fork: $(ls "$work/xdg")"
echo "ok: no lockstep-shim-* directory left"
