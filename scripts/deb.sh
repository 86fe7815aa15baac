#!/usr/bin/env bash
# Build the Debian packages (lockstep, liblockstep0, liblockstep-dev) from a
# copy of this tree, so the tree itself stays clean:
#   scripts/deb.sh [OUT]       (default OUT: build/deb)
# OUT/lockstep-VERSION/ is the copy dpkg-buildpackage runs in; the .deb,
# .buildinfo and .changes files land in OUT, lintian's report in
# OUT/lintian.txt. Tests are `make check`'s job: the package build runs with
# DEB_BUILD_OPTIONS=nocheck (set DEB_CHECK=1 to run meson test inside it).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/deb}
for t in dpkg-buildpackage dh lintian; do
  command -v "$t" >/dev/null || {
    echo "deb: $t is missing: scripts/deps.sh --deb (debhelper, lintian, devscripts)"; exit 1; }
done
version=$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version)
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/lockstep-$version
rm -rf "$stage" "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
mkdir -p "$stage"
# the files git knows (tracked, and new files not ignored): no build trees
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' |
  tar --null -T - -cf -) | tar -C "$stage" -xf -
opts=${DEB_BUILD_OPTIONS:-}
prof=()
if [ -z "${DEB_CHECK:-}" ]; then
  opts="nocheck $opts"
  prof=(-Pnocheck)
fi
echo "deb: building in $stage"
(cd "$stage" && DEB_BUILD_OPTIONS="$opts" dpkg-buildpackage -us -uc -b "${prof[@]}") \
  >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; echo "deb: failed (log: $out/build.log)"; exit 1; }
rm -rf "$stage"
changes=$(ls "$out"/lockstep_"$version"_*.changes)
# lintian leaves mldbm-* files in $TMPDIR: give it its own, removed after
ltmp=$(mktemp -d "$out/lintian-tmp-XXXXXX")
TMPDIR=$ltmp lintian --info --display-info "$changes" >"$out/lintian.txt" 2>&1 || true
rm -rf "$ltmp"
ls -1 "$out"/*.deb
echo "deb: lintian: $out/lintian.txt ($(grep -c '^[EW]:' "$out/lintian.txt") errors/warnings)"
cat "$out/lintian.txt"
