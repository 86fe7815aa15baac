#!/usr/bin/env bash
# scripts/fuzz.sh BUILD_DIR SECONDS [TARGET...]
# Builds the libFuzzer targets with clang and runs each for SECONDS, seeded
# from tests/fuzz/seeds/<target>/ and the shared corpus. Any crash fails.
set -u
dir=${1:-build-fuzz}; secs=${2:-10}; shift 2 || true
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v clang >/dev/null || ! echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long n){return 0;}' \
     | clang -x c -fsanitize=fuzzer -o /tmp/ls-fuzz-probe - 2>/dev/null; then
  echo "fuzz: SKIP: clang with libFuzzer not available (apt-get install clang libclang-rt-14-dev)"
  exit 0
fi
if [ ! -f "$dir/build.ninja" ]; then
  CC=clang meson setup --werror "$dir" "$root" -Dfuzz=true -Dtests=false -Db_sanitize=address,undefined \
     -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null || exit 1
fi
meson compile -C "$dir" >/dev/null || { meson compile -C "$dir"; exit 1; }
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$dir"/tests/fuzz/fuzz_*; do [ -f "$f" ] && [ -x "$f" ] && targets+=("$(basename "$f" | sed 's/^fuzz_//')"); done
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz: FAILED: no fuzz targets were built in $dir"; exit 1
fi
# The targets run side by side, FUZZ_JOBS at a time (default: the number of
# cores): each still gets SECONDS of its own, and the results are reported in
# the targets' order.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
run_one() {
  local t=$1 exe="$dir/tests/fuzz/fuzz_$1" work="$dir/fuzz-corpus/$1" seeds=()
  mkdir -p "$work"
  [ -d "$root/tests/fuzz/seeds/$t" ] && seeds+=("$root/tests/fuzz/seeds/$t")
  ASAN_OPTIONS=detect_leaks=1 "$exe" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$dir/" "$work" "${seeds[@]}" >"$dir/fuzz_$t.log" 2>&1
  echo $? >"$dir/fuzz_$t.rc"
}
running=0
for t in "${targets[@]}"; do
  rm -f "$dir/fuzz_$t.rc"
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  run_one "$t" & running=$((running + 1))
done
wait
fail=0
for t in "${targets[@]}"; do
  if [ "$(cat "$dir/fuzz_$t.rc" 2>/dev/null)" = 0 ]; then
    echo "fuzz: $t: ok ($(grep -o 'Done [0-9]* runs' "$dir/fuzz_$t.log" | awk '{print $2}') runs in ${secs}s)"
  else
    echo "fuzz: $t: FAILED (log: $dir/fuzz_$t.log)"; tail -30 "$dir/fuzz_$t.log"; fail=1
  fi
  rm -f "$dir/fuzz_$t.rc"
done
exit $fail
