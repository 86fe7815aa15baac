#!/bin/bash
# `meson install` works for a user: install the build into a temporary
# DESTDIR, then
#   1. the files are there: bin/lockstep, liblockstep.so.0 (soname) and
#      liblockstep.a, include/lockstep/*.h, lockstep.pc, share/doc/lockstep;
#   2. a C program using the public API builds against the installed library
#      with `pkg-config --cflags --libs lockstep` alone, runs, and checks
#      pixels (tests/install/r500_pixel.c); also linked statically;
#   3. the installed tree, copied elsewhere (no build tree beside it, an
#      empty environment), runs `lockstep r500 run` on an installed example,
#      and - when the shim is built and r300_dri.so is present - finds its
#      installed r300 shim for `lockstep mesa run`.
# usage: install_test.sh BUILD_DIR SOURCE_DIR CC
set -u
build=$1 src=$2 cc=${3:-cc}
unset LD_LIBRARY_PATH  # only what the script sets
command -v pkg-config >/dev/null || { echo "skip: pkg-config is not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

dest=$work/dest
meson install -C "$build" --no-rebuild --quiet --destdir "$dest" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "meson install"; }

# 1. what is installed
pc=$(find "$dest" -name lockstep.pc -path '*/pkgconfig/*' | head -1)
[ -n "$pc" ] || fail "no lockstep.pc installed"
bin=$(find "$dest" -path '*/bin/lockstep' -type f | head -1)
[ -x "$bin" ] || fail "no bin/lockstep"
so=$(find "$dest" -name 'liblockstep.so.0.*' -type f | head -1)
[ -n "$so" ] || fail "no liblockstep.so.0.*"
libdir=$(dirname "$so")
[ -f "$libdir/liblockstep.a" ] || fail "no liblockstep.a beside $so"
[ -L "$libdir/liblockstep.so" ] && [ -L "$libdir/liblockstep.so.0" ] || fail "no .so / .so.0 links"
if command -v readelf >/dev/null; then
  readelf -d "$so" | grep -q 'SONAME.*\[liblockstep.so.0\]' || fail "soname is not liblockstep.so.0"
fi
for h in buf.h image.h r500.h r500_asm.h r500_fc.h r500_isa.h r500_raster.h r500_tex.h r500_txu.h r500_rb.h status.h pp5.h; do
  [ -n "$(find "$dest" -path "*/include/lockstep/$h")" ] || fail "header lockstep/$h not installed"
done
# the man pages and the bash completion, generated from the command table
for page in lockstep lockstep-r500 lockstep-pp5 lockstep-mesa; do
  [ -n "$(find "$dest" -path "*/share/man/man1/$page.1")" ] || fail "man page $page.1 not under share/man/man1"
done
[ -n "$(find "$dest" -path '*/share/bash-completion/completions/lockstep')" ] ||
  fail "bash completion not under share/bash-completion/completions"
doc=$(find "$dest" -type d -path '*/share/doc/lockstep' | head -1)
[ -n "$doc" ] && [ -f "$doc/README.md" ] && [ -f "$doc/examples/r500/nested_if.fs.asm" ] ||
  fail "README and examples not under share/doc/lockstep"
# no header includes a private (src/) header
if grep -h '#include "' "$dest"/*/include/lockstep/*.h "$dest"/*/*/include/lockstep/*.h 2>/dev/null |
   grep -v '"lockstep/' | grep -q .; then
  fail "an installed header includes a non-public header"
fi

# 2. a program built with pkg-config alone
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$dest
flags=$(pkg-config --cflags --libs lockstep) || fail "pkg-config --cflags --libs lockstep"
echo "pkg-config --cflags --libs lockstep: $flags"
# every installed header compiles on its own
for h in $(find "$dest" -path '*/include/lockstep/*.h'); do
  # shellcheck disable=SC2046
  printf '#include <lockstep/%s>\nint lockstep_header_check;\n' "$(basename "$h")" |
    "$cc" -std=c17 -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags lockstep) -x c - ||
    fail "lockstep/$(basename "$h") does not compile on its own"
done
# shellcheck disable=SC2086
"$cc" -std=c17 -Wall -Wextra -Werror -o "$work/r500_pixel" "$src/tests/install/r500_pixel.c" $flags ||
  fail "cannot build against the installed library"
LD_LIBRARY_PATH=$libdir "$work/r500_pixel" "$work/pixel.png" || fail "r500_pixel (shared)"
[ -s "$work/pixel.png" ] || fail "no PNG written"
# the static link line of docs/install.md
# shellcheck disable=SC2046
"$cc" -std=c17 -o "$work/r500_pixel_static" "$src/tests/install/r500_pixel.c" $(pkg-config --cflags lockstep) \
   $(pkg-config --static --libs lockstep | sed 's/-llockstep /-l:liblockstep.a /') || fail "static link"
"$work/r500_pixel_static" || fail "r500_pixel (static)"
if command -v readelf >/dev/null && readelf -d "$work/r500_pixel_static" | grep -q 'liblockstep'; then
  fail "the static build still needs liblockstep.so"
fi

# 3. the installed CLI away from the build tree
moved=$work/moved
cp -a "$dest" "$moved"
rm -rf "$dest"
mbin=$moved${bin#"$dest"}
mdoc=$moved${doc#"$dest"}
(cd / && env -i PATH=/usr/bin:/bin "$mbin" r500 run "$mdoc/examples/r500/nested_if.fs.asm" \
   --input t0=uv --size 8x8 -q -o "$work/quadrants.png") || fail "installed lockstep r500 run"
[ -s "$work/quadrants.png" ] || fail "installed lockstep r500 run wrote no PNG"
if [ -n "$(find "$moved" -name liblockstep_r300_shim.so)" ]; then
  [ -n "$(find "$moved" -path '*/lockstep/liblockstep_r300_shim.so')" ] &&
  [ -n "$(find "$moved" -path '*/lockstep/lockstep-mesa-gl')" ] ||
    fail "the shim and lockstep-mesa-gl are not under libexecdir/lockstep"
  if ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
    printf 'void main() { gl_FragColor = vec4(0.25, 0.5, 0.75, 1.0); }\n' > "$work/t.frag"
    (cd / && env -i PATH=/usr/bin:/bin "$mbin" mesa run "$work/t.frag" --size 4x4 \
       -o "$work/t.png") >"$work/mesa.log" 2>&1 ||
      { cat "$work/mesa.log"; fail "installed lockstep mesa run (its installed shim)"; }
    echo "ok: the installed lockstep mesa run found its installed shim"
  fi
fi
echo "ok: installed, built against with pkg-config, and run from a moved prefix"
