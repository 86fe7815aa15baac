#!/usr/bin/env bash
# Install what lockstep needs from Debian's archive, or print the exact command.
#   scripts/deps.sh           build + test dependencies (required)
#   scripts/deps.sh --check   also the optional ones used by `make check`
#                             (clang/libFuzzer, GTKWave+Xvfb, Mesa dev packages,
#                             Chromium + Node for the viewer tests,
#                             LLVM + clang (no newer than LLVM: it compiles
#                             fc.c to the bitcode the JIT inlines) for the
#                             R500 JIT engine, piglit's runner's python
#                             modules and wflinfo, the GL programs run on
#                             the virtual R500);
#                             their tests are skipped with a message if absent.
#   scripts/deps.sh --deb     also what `make deb` needs (debhelper, lintian,
#                             devscripts) - nothing else uses them.
set -u
required=(meson ninja-build pkg-config gcc libc6-dev libpng-dev zlib1g-dev libcmocka-dev)
optional=(clang libclang-rt-14-dev libfuzzer-14-dev gtkwave xvfb xauth
          libdrm-dev libegl-dev libgl-dev libgl1-mesa-dri libegl-mesa0 valgrind
          chromium nodejs llvm-15-dev python3-jsonschema libwaffle-1-0
          python3-mako python3-six waffle-utils mesa-utils-bin kmscube)
deb=(debhelper lintian devscripts dpkg-dev libdrm-dev libegl-dev libgl-dev)

want=("${required[@]}")
[ "${1:-}" = "--check" ] && want+=("${optional[@]}")
[ "${1:-}" = "--deb" ] && want+=("${deb[@]}")

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "deps: installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! { apt-get update -qq && $cmd -qq; } >/tmp/lockstep-deps.log 2>&1; then
    echo "deps: apt-get failed (log: /tmp/lockstep-deps.log)"
    tail -5 /tmp/lockstep-deps.log
  fi
fi
# Re-check the required ones: without them nothing builds.
still=()
for p in "${required[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || still+=("$p")
done
if [ ${#still[@]} -ne 0 ]; then
  echo "deps: missing required packages. Install them with:"
  echo "  sudo apt-get install -y ${still[*]}"
  exit 1
fi
exit 0
