#!/bin/bash
# `lockstep view RUN.lsr` serves on 127.0.0.1: the URL it prints answers with
# the page (the recording embedded) and with the recording itself at
# /run.lsr, byte for byte; other paths are 404. Uses bash's /dev/tcp only.
set -eu
LOCKSTEP="$1"
SRC="$2"
OUT="$(mktemp -d "${TMPDIR:-/tmp}/lockstep-serve.XXXXXX")"
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$OUT"; }
trap cleanup EXIT
rec="$SRC/tests/fuzz/seeds/record/pp5_disc.lsr"
: >"$OUT/log" # exists before the server's shell opens it (the loop below reads it at once)
"$LOCKSTEP" view "$rec" --no-open --requests 3 >"$OUT/log" 2>&1 &
pid=$!
url=
for _ in $(seq 100); do
  url=$(sed -n 's|^lockstep view: serving \(http://127.0.0.1:[0-9]*/\).*|\1|p' "$OUT/log")
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "FAIL: no URL printed"; cat "$OUT/log"; exit 1; }
port=${url#http://127.0.0.1:}; port=${port%/}
get() { # path -> body in $OUT/body, status line in $OUT/status
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$1" >&3
  cat <&3 >"$OUT/resp"
  exec 3<&-
  head -1 "$OUT/resp" | tr -d '\r' >"$OUT/status"
  # the body: everything after the first empty line
  awk 'BEGIN{RS="\r\n\r\n"; ORS=""} NR==1{next} {print; if (RT) print RT}' "$OUT/resp" >"$OUT/body"
}
get /
grep -qx 'HTTP/1.0 200 OK' "$OUT/status" || { echo "FAIL: / -> $(cat "$OUT/status")"; exit 1; }
grep -q '<script id="lsr" type="application/octet-stream"' "$OUT/body" || { echo "FAIL: / is not the viewer page"; exit 1; }
grep -q 'https\?://' "$OUT/body" && { echo "FAIL: the page names a network address"; grep -o 'https\?://[^"]*' "$OUT/body" | head; exit 1; }
get /run.lsr
grep -qx 'HTTP/1.0 200 OK' "$OUT/status" || { echo "FAIL: /run.lsr -> $(cat "$OUT/status")"; exit 1; }
cmp "$OUT/body" "$rec" || { echo "FAIL: /run.lsr differs from the recording"; exit 1; }
get /nothing
grep -qx 'HTTP/1.0 404 Not Found' "$OUT/status" || { echo "FAIL: /nothing -> $(cat "$OUT/status")"; exit 1; }
wait "$pid"; rc=$?; pid=
[ $rc = 0 ] || { echo "FAIL: exit $rc after 3 requests"; exit 1; }
echo "ok: served $url"
