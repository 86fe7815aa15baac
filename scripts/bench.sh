#!/usr/bin/env bash
# make bench: throughput programs (never part of make check).
#  1. every bench program of BUILD (the project's default flags: -O3 -g);
#  2. the PP5 benches again from a profile-guided build PGO_BUILD: GCC's
#     -fprofile-generate, trained by rendering the bundled demo scene
#     (examples/pp5/demo.scene — not the benches' own scenes), then
#     -fprofile-use; the pp5 test suite runs on that build before it is timed.
#     (PGO only changes how GCC lays out and inlines the same C; the figures
#     of both builds are printed. docs/pp5-render.md "Speed".)
set -u
build=${1:-build}
pgo=${2:-build-pgo}
root=$(cd "$(dirname "$0")/.." && pwd)
echo "== make bench: $build (default flags)"
for b in "$build"/bench/bench_*; do if [ -f "$b" ] && [ -x "$b" ]; then "$b" || exit 1; fi; done

echo "== make bench: $pgo (profile-guided build, trained on examples/pp5/demo.scene)"
# (functions the training never runs have no profile: GCC's note about it, and
# maybe-uninitialized false positives that only the profile's inlining shows,
# are not errors in this build)
pgo_args="-Wno-missing-profile -Wno-maybe-uninitialized"
if [ ! -f "$pgo/build.ninja" ]; then
  meson setup "$pgo" "$root" -Db_pgo=generate "-Dc_args=$pgo_args" >/dev/null || exit 1
fi
meson configure "$pgo" -Db_pgo=generate >/dev/null || exit 1
meson compile -C "$pgo" >/dev/null || { meson compile -C "$pgo"; exit 1; }
find "$pgo" -name '*.gcda' -delete
out=$(mktemp -d)
for i in 1 2 3 4 5 6 7 8 9 10; do
  "$pgo/tools/lockstep" pp5 render "$root/examples/pp5/demo.scene" -o "$out/demo.png" >/dev/null || exit 1
done
rm -rf "$out"
meson configure "$pgo" -Db_pgo=use >/dev/null || exit 1
meson compile -C "$pgo" >/dev/null || { meson compile -C "$pgo"; exit 1; }
if ! meson test -C "$pgo" --suite pp5 --num-processes 2 >/dev/null; then
  echo "make bench: the pp5 tests FAILED on the profile-guided build ($pgo/meson-logs/testlog.txt)"
  exit 1
fi
echo "(pp5 test suite: passed on $pgo)"
for b in "$pgo"/bench/bench_pp5*; do if [ -f "$b" ] && [ -x "$b" ]; then "$b" || exit 1; fi; done

echo "== make bench: lockstep vs llvmpipe on the same GLSL (scripts/bench_mesa.sh)"
"$root/scripts/bench_mesa.sh" "$build" || exit 1
