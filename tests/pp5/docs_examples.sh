#!/bin/sh
# Every example block of the PP5 user docs runs: ```pp5m blocks assemble (pp5 asm),
# ```pp5stream blocks run with the nearest preceding ```pp5m block as microcode
# (pp5 run), ```scene blocks render (pp5 render), ```console blocks (`$ lockstep …` then
# the exact stdout, run in the source root) print what they show; in the contributor page
# docs/pp5-accel.md, console blocks may run a tests/pp5 script instead (`$ tests/pp5/…`).
# Usage: docs_examples.sh LOCKSTEP SRCROOT
set -eu
LS=$1 ROOT=$2
case $LS in /*) ;; *) LS=$PWD/$LS ;; esac
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
B=$T/b && mkdir "$B"
n=0
for doc in "$ROOT/docs/pp5.md" "$ROOT/docs/pp5-render.md" "$ROOT/docs/pp5-accel.md"; do
  # split into numbered block files: NNN.kind
  awk -v dir="$B" '
    /^```(pp5m|pp5stream|scene|console)$/ { kind = substr($0, 4); i++; f = sprintf("%s/%03d.%s", dir, i, kind); next }
    /^```/ { f = ""; next }
    f != "" { print > f }' "$doc"
  ucode=""
  for f in $(ls "$B" | sort); do
    case $f in
      *.pp5m) "$LS" pp5 asm "$B/$f" -o "$T/u.hex" || { echo "FAIL: $doc: pp5m block $f"; exit 1; }
              cp "$B/$f" "$T/cur.pp5m"; ucode="$T/cur.pp5m" ;;
      *.pp5stream) [ -n "$ucode" ] || { echo "FAIL: $doc: stream block $f before any pp5m block"; exit 1; }
              "$LS" pp5 run "$B/$f" --microcode "$ucode" 2>"$T/err" >/dev/null \
                || { cat "$T/err"; echo "FAIL: $doc: stream block $f"; exit 1; } ;;
      *.scene) "$LS" pp5 render "$B/$f" -o "$T/out.png" 2>/dev/null \
                || { echo "FAIL: $doc: scene block $f"; exit 1; } ;;
      *.console) cmd=$(head -n 1 "$B/$f" | sed -n 's/^\$ lockstep //p')
              script=$(head -n 1 "$B/$f" | sed -n 's/^\$ \(tests\/pp5\/.*\)/\1/p')
              [ -n "$cmd$script" ] || { echo "FAIL: $doc: console block $f does not start with '\$ lockstep ' or '\$ tests/pp5/'"; exit 1; }
              tail -n +2 "$B/$f" > "$T/want"
              if [ -n "$script" ]; then
                (cd "$ROOT" && eval "$script" 2>/dev/null) > "$T/got" || { echo "FAIL: $doc: console block $f exits non-zero"; exit 1; }
              else
                (cd "$ROOT" && eval "\"\$LS\" $cmd" 2>/dev/null) > "$T/got" || { echo "FAIL: $doc: console block $f exits non-zero"; exit 1; }
              fi
              diff -u "$T/want" "$T/got" || { echo "FAIL: $doc: console block $f output differs"; exit 1; } ;;
      *) continue ;;
    esac
    n=$((n + 1)); rm -f "$B/$f"
  done
done
echo "$n examples run"
[ "$n" -ge 3 ] || { echo "FAIL: fewer than 3 examples found"; exit 1; }
