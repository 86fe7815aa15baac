#!/bin/sh
# Warnings are errors in the Makefile's builds (and so in CI, which runs
# `make check`) and in scripts/fuzz.sh, not in a user's own `meson setup`:
# meson.build's defaults say werror=false, and every `meson setup` of the
# Makefile and of scripts/fuzz.sh passes --werror (docs/install.md).
# usage: werror.sh SOURCE_ROOT
set -u
src=$1
fail=0
opts=$(cd "$src" && meson introspect meson.build --buildoptions 2>/dev/null) || {
  echo "SKIP: meson introspect cannot read meson.build"; exit 77; }
w=$(printf '%s' "$opts" | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "werror"][0])')
[ "$w" = "False" ] || { echo "FAIL: meson.build's default werror is $w, not False"; fail=1; }
n_setup=$(grep -c 'meson) setup\|MESON) setup' "$src/Makefile")
n_werror=$(grep -c 'MESON) setup --werror' "$src/Makefile")
[ "$n_setup" -ge 2 ] && [ "$n_setup" = "$n_werror" ] ||
  { echo "FAIL: $n_werror of the Makefile's $n_setup meson setup lines pass --werror"; fail=1; }
grep -q 'meson setup --werror' "$src/scripts/fuzz.sh" || { echo "FAIL: scripts/fuzz.sh does not pass --werror"; fail=1; }
[ $fail = 0 ] && echo "ok: werror off by default, on in the Makefile and scripts/fuzz.sh"
exit $fail
