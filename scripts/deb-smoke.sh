#!/usr/bin/env bash
# Smoke test of built packages (scripts/deb.sh): unpack lockstep,
# liblockstep0 and liblockstep-dev into an empty root with `dpkg -x`, then
#   - run the packaged lockstep on a packaged example (and, when r300_dri.so
#     is present, `lockstep mesa run` through the packaged shim);
#   - build tests/install/r500_pixel.c against the packaged library with
#     pkg-config (PKG_CONFIG_SYSROOT_DIR = the root) and run it.
# Prints a transcript of every command. Exit 77 when no packages are built.
#   scripts/deb-smoke.sh [DEB_DIR]   (default build/deb)
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$src/build/deb}
debs=()
for p in lockstep liblockstep0 liblockstep-dev; do
  f=$(ls "$dir"/${p}_*.deb 2>/dev/null | head -1)
  [ -n "$f" ] || { echo "skip: no ${p}_*.deb in $dir (make deb)"; exit 77; }
  debs+=("$f")
done
root=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-deb-root-XXXXXX")
work=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-deb-work-XXXXXX")
trap 'rm -rf "$root" "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
run() { echo "\$ $*"; "$@"; }
for f in "${debs[@]}"; do run dpkg -x "$f" "$root" || fail "dpkg -x $f"; done
multi=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
unset LD_LIBRARY_PATH
run "$root/usr/bin/lockstep" --version || fail "lockstep --version"
run env -i PATH=/usr/bin:/bin "$root/usr/bin/lockstep" r500 run \
  "$root/usr/share/doc/lockstep/examples/r500/nested_if.fs.asm" --input t0=uv --size 8x8 \
  -o "$work/quadrants.png" || fail "lockstep r500 run"
[ -s "$work/quadrants.png" ] || fail "no PNG"
if ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  printf 'void main() { gl_FragColor = vec4(0.25, 0.5, 0.75, 1.0); }\n' > "$work/t.frag"
  run env -i PATH=/usr/bin:/bin "$root/usr/bin/lockstep" mesa run "$work/t.frag" --size 4x4 \
    -o "$work/t.png" || fail "lockstep mesa run (the packaged shim)"
fi
export PKG_CONFIG_PATH=$root/usr/lib/$multi/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
echo "\$ pkg-config --cflags --libs lockstep"
flags=$(pkg-config --cflags --libs lockstep) || fail "pkg-config"
echo "$flags"
# shellcheck disable=SC2086
run cc -std=c17 -Wall -Wextra -o "$work/r500_pixel" "$src/tests/install/r500_pixel.c" $flags ||
  fail "build against the packaged library"
run env LD_LIBRARY_PATH="$root/usr/lib/$multi" "$work/r500_pixel" || fail "r500_pixel"
echo "ok: the packages install and work (dpkg -x root $root)"
