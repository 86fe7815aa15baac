#!/bin/bash
# Behaviours of the command line that issue 21 asks for, each against an
# independent expectation (a PNG signature, a file that must not exist, an
# exit status from the one table of statuses in tools/cli_table.c):
#   -o - writes stream outputs to stdout (PNG, JSON, listings), and no file
#   named '-' appears; every program form is accepted by r500 run and r500 dis
#   (.bin, hex text with constants, .fs.asm, JSON job, stdin); empty programs
#   are errors; NaN / out-of-range coefficients are refused; --chip is checked
#   before Mesa starts; a bad output path is found before any work; warnings
#   and faults are bounded; mesa check runs without -o (skips without Mesa);
#   r500 run and pp5 render show progress on a terminal and not otherwise.
# usage: behaviour.sh LOCKSTEP SOURCE_ROOT
set -u
L=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
D=$SRC/tests/cli/data
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-cli-beh.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
run() { "$L" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; err=$(cat "$tmp/err"); }
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }
mandel=$SRC/examples/r500/mandelbrot.inc
nested=$SRC/examples/r500/nested_if.fs.asm

# ---- -o - and stdout -------------------------------------------------------
run r500 run "$mandel" --size 16x8 --input t0=uv -o -
[ $rc -eq 0 ] && is_png out || bad "r500 run -o -: rc=$rc, stdout is not a PNG ($err)"
[ ! -e ./- ] || bad "r500 run -o - created a file named '-'"
[[ $err == *"instructions issued"* ]] || bad "r500 run: the summary is not on stderr"
run r500 run "$mandel" --size 8x8 --input t0=uv --stats - -q
[ $rc -eq 0 ] && grep -q '"inst_alu"\|"alu"\|{' out || bad "r500 run --stats -: rc=$rc"
[ -z "$err" ] || bad "r500 run -q printed on stderr: $err"
# --work: the heat map of per-pixel work (the job asks for the work image);
# Mandelbrot's escape counts differ, so its pixels must too
run r500 run "$mandel" --size 32x32 --input t0=uv --work - -q
[ $rc -eq 0 ] && is_png out || bad "r500 run --work -: rc=$rc, stdout is not a PNG ($err)"
python3 -c '
import sys, zlib, struct
d = open(sys.argv[1], "rb").read()
i, idat, w = 8, b"", 0
while i < len(d):
    n, t = struct.unpack(">I4s", d[i:i + 8])
    if t == b"IHDR": w = struct.unpack(">I", d[i + 8:i + 12])[0]
    if t == b"IDAT": idat += d[i + 8:i + 8 + n]
    i += 12 + n
raw, bpp, prev, px = zlib.decompress(idat), 3, None, set()
for r in range(len(raw) // (3 * w + 1)):
    f, row = raw[r * (3 * w + 1)], bytearray(raw[r * (3 * w + 1) + 1:(r + 1) * (3 * w + 1)])
    up = prev or bytearray(len(row))
    for k in range(len(row)):
        a, b, c = row[k - bpp] if k >= bpp else 0, up[k], up[k - bpp] if k >= bpp else 0
        p = a + b - c
        pr = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
        row[k] = (row[k] + [0, a, b, (a + b) // 2, pr][f]) & 255
    px |= {bytes(row[k:k + 3]) for k in range(0, len(row), 3)}
    prev = row
sys.exit(0 if len(px) > 1 else 1)
' out || bad "r500 run --work: the heat map is one colour"
run r500 run "$mandel" --size 8x8 -o - --stats -
[ $rc -eq 2 ] && [[ $err == *"only one output"* ]] || bad "two outputs to stdout: rc=$rc $err"
run pp5 render "$SRC/examples/pp5/triangle.scene" -o - -q
[ $rc -eq 0 ] && is_png out || bad "pp5 render -o -: rc=$rc ($err)"
[ ! -e ./- ] || bad "pp5 render -o - created a file named '-'"
run r500 asm "$nested" --hex -o -
[ $rc -eq 0 ] && grep -q '^0x' out || bad "r500 asm --hex -o -: rc=$rc"
run r500 dis "$nested" -o listing.asm
[ $rc -eq 0 ] && grep -q 'IF' listing.asm || bad "r500 dis -o FILE: rc=$rc"

# ---- every program form: .bin, hex + constants, .fs.asm, JSON job, stdin -----
"$L" r500 asm "$nested" -o nested.bin || bad "r500 asm -o nested.bin"
"$L" r500 dis "$mandel" > mandel.asm || bad "r500 dis mandelbrot.inc"
grep -q '^\.const 0 ' mandel.asm || bad "r500 dis of hex text dropped the cN: constants"
for prog in nested.bin "$mandel" "$nested" "$D/job.json" mandel.asm; do
  run r500 run "$prog" --size 8x8 -q
  [ $rc -eq 0 ] || bad "r500 run $(basename "$prog"): rc=$rc $err"
  run r500 dis "$prog"
  [ $rc -eq 0 ] && [ -s out ] || bad "r500 dis $(basename "$prog"): rc=$rc $err"
done
run r500 run - --size 8x8 -q <"$D/job.json"
[ $rc -eq 0 ] || bad "r500 run - (JSON job on stdin): rc=$rc $err"
run r500 dis - <nested.bin
[ $rc -eq 0 ] || bad "r500 dis - (.bin on stdin): rc=$rc $err"
# the listing of a JSON job and of a hex program reassembles to the same
# words and state: its own listing again
"$L" r500 dis "$D/job.json" > job.asm && "$L" r500 asm job.asm -o job.bin &&
  "$L" r500 dis job.bin > job2.asm || bad "JSON job: dis | asm | dis failed"
cmp -s <(grep -v '^\.' job.asm) <(grep -v '^\.' job2.asm) || bad "JSON job listing does not round-trip"
# the constants matter: mandelbrot's image from its listing equals the original's
"$L" r500 run "$mandel" --size 16x16 --input t0=uv --raw a.raw -q &&
  "$L" r500 run mandel.asm --size 16x16 --input t0=uv --raw b.raw -q && cmp -s a.raw b.raw ||
  bad "mandelbrot from its listing renders differently"

# ---- summaries: on stderr for every command that prints one, none with -q ----
# (stdout carries only the data asked for: nothing here, the outputs are files)
summ() { # description, then the command
  local what=$1; shift
  "$L" "$@" >s.out 2>s.err; local r1=$?
  "$L" "$@" -q >q.out 2>q.err; local r2=$?
  [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ ! -s s.out ] && [ -s s.err ] && [ ! -s q.out ] && [ ! -s q.err ] ||
    bad "$what: summary not on stderr only, or -q not silent (rc $r1/$r2; stdout: $(cat s.out q.out); -q stderr: $(cat q.err))"
}
summ "r500 run" r500 run "$nested" --size 8x8 -o s.png
summ "pp5 run" pp5 run "$SRC/examples/pp5/edge.stream" --microcode "$SRC/examples/pp5/edge.pp5m"
summ "pp5 render" pp5 render "$SRC/examples/pp5/triangle.scene" -o s.png
if [ -n "${LOCKSTEP_MESA_SHIM:-}" ] && ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  summ "mesa run" mesa run "$SRC/tests/mesa/data/varying_col.frag" --vert "$SRC/tests/mesa/data/varying_col.vert" --uniform n=2 --size 4x4 -o s.png
  summ "mesa check" mesa check "$SRC/tests/mesa/data/varying_col.frag" --vert "$SRC/tests/mesa/data/varying_col.vert" --uniform n=2 --size 4x4
fi

# ---- one idea, one name: -j/--workers for host threads, --size WxH, -o ----------
for c in "r500 run" "mesa run" "mesa check" "mesa bench" "mesa piglit"; do
  # shellcheck disable=SC2086
  "$L" $c --help | grep -q '^  -j, --workers N ' || bad "$c --help has no -j, --workers N"
done
for c in "r500 run" "mesa run" "mesa check" "mesa bench"; do
  # shellcheck disable=SC2086
  "$L" $c --help | grep -q '^      --size WxH ' || bad "$c --help has no --size WxH"
done
for c in "r500 run" "r500 asm" "r500 dis" "pp5 asm" "pp5 dis" "pp5 render" "mesa run" "mesa check" "mesa decode" "r500 draw"; do
  # shellcheck disable=SC2086
  "$L" $c --help | grep -q '^  -o, --output ' || bad "$c --help has no -o, --output"
done
# the older spellings still work, as the new names: --thread is --lanes, --threads --workers
run r500 run "$nested" --size 8x8 --thread 4 --threads 2
[ $rc -eq 0 ] && [[ $err == *"16 threads of 4"* ]] || bad "r500 run --thread 4 --threads 2: rc=$rc $err"

# ---- empty inputs and bad values ----------------------------------------------
for c in "r500 asm $D/empty.fs.asm" "r500 run $D/empty.fs.asm" "r500 dis $D/empty.fs.asm" "pp5 asm $D/empty.pp5m"; do
  # shellcheck disable=SC2086
  run $c
  [ $rc -eq 3 ] && [[ $err == *" 0 instructions"* || $err == *"has no "* || $err == *"no instructions"* ]] || bad "$c: expected exit 3 (bad input), got $rc: $err"
done
for coef in nan inf 1e39 -1e39; do
  run pp5 serialize --fbits 4 --mode linear --fni 9 -- 1 2 3 0 0 "$coef"
  [ $rc -eq 2 ] && [[ $err == *"not a finite float32"* ]] || bad "pp5 serialize $coef: rc=$rc $err"
done
run pp5 serialize --fbits 4 --mode linear --fni 9 -- 1 -2.5 3 0 0 -1
[ $rc -eq 0 ] || bad "pp5 serialize -- with negative coefficients: rc=$rc $err"
run pp5 serialize --fbits=4 --mode=linear --fni 9 1 -2.5 3 0 0 -1
[ $rc -eq 0 ] || bad "pp5 serialize --opt=value and negative numbers as operands: rc=$rc $err"
run r500 run /nonexistent/prog.bin
[ $rc -eq 3 ] && [[ $err == *"cannot read /nonexistent/prog.bin: No such file or directory"* ]] ||
  bad "missing program: rc=$rc $err"
for chip in r999 0x4144 7 ""; do
  run mesa run "$SRC/tests/mesa/data/varying_col.frag" --chip "$chip"
  [ $rc -eq 2 ] && [[ $err == *"--chip"* ]] || bad "mesa run --chip '$chip': rc=$rc $err"
done
run mesa piglit --chip r999 x
[ $rc -eq 2 ] && [[ $err == *"--chip"* ]] || bad "mesa piglit --chip r999: rc=$rc $err"

# a binary file given as text: the error shows its bytes escaped, never raw
printf '\001\002garbage\377\376\n' > binary.hex
run pp5 dis binary.hex
[ $rc -eq 3 ] && [[ $err == *'\x01\x02garbage\xff\xfe'* ]] || bad "pp5 dis of binary bytes: rc=$rc $err"
if LC_ALL=C grep -q '[^[:print:][:space:]]' err; then bad "pp5 dis echoed raw bytes"; fi

# ---- outputs checked before work ------------------------------------------------
run pp5 render "$SRC/examples/pp5/triangle.scene" -o frame.png --vcd /nonexistent/dir/x.vcd
[ $rc -eq 5 ] && [ ! -e frame.png ] || bad "bad --vcd path: rc=$rc, frame.png written: $([ -e frame.png ] && echo yes)"
run r500 run "$mandel" --stats /nonexistent/s.json
[ $rc -eq 5 ] && [[ $err == *"cannot write /nonexistent/s.json"* ]] || bad "bad --stats path: rc=$rc $err"
run r500 dis "$nested" -o "$tmp"
[ $rc -eq 5 ] || bad "-o DIRECTORY: rc=$rc $err"

# ---- bounded warnings and faults ---------------------------------------------
args=()
for _ in $(seq 14); do args+=(--size 8x8); done
run r500 run "$mandel" "${args[@]}" -q
[ $rc -eq 0 ] && [ "$(grep -c 'warning:' err)" -eq 10 ] && grep -q '3 more warnings not shown' err ||
  bad "14 repeated --size: expected 10 warnings and a count, got: $err"
run r500 run "$D/runaway.fs.asm" --size 64x64 --model watchdog=500 --lanes 4 -q
lines=$(wc -l <err)
[ $rc -eq 4 ] && [ "$lines" -le 10 ] && grep -q '1024 threads faulted' err ||
  bad "1024 faulting threads: rc=$rc, $lines lines on stderr"

# job-wide limits beside the per-thread watchdog
run r500 run "$D/runaway.fs.asm" --size 64x64 --max-instructions 5000 -q
[ $rc -eq 4 ] && [[ $err == *"max-instructions"* ]] || bad "--max-instructions 5000: rc=$rc $err"
run r500 run "$D/runaway.fs.asm" --timeout abc -q
[ $rc -eq 2 ] && [[ $err == *"--timeout abc"* ]] || bad "--timeout abc: rc=$rc $err"

# ---- progress: on a terminal only (script(1) gives the command a pty) ----------------
if command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1; then
  # 64x64 pixels in 48-lane threads: ceil(4096 / 48) = 86 threads
  script -qec "'$L' r500 run '$mandel' --size 64x64 --input t0=uv -o tty.png" /dev/null >tty.out 2>&1
  grep -q '86/86 threads\]' tty.out || bad "r500 run on a terminal shows no progress: $(tr '\r\033' '|E' <tty.out | head -c 300)"
  script -qec "'$L' r500 run '$mandel' --size 64x64 --input t0=uv -o tty.png -q" /dev/null >tty.out 2>&1
  ! grep -q 'threads\]' tty.out || bad "r500 run -q on a terminal shows progress"
  nprim=$(grep -cE '^[[:space:]]*(tri|disc)[[:space:]]' "$SRC/examples/pp5/demo.scene")
  script -qec "'$L' pp5 render '$SRC/examples/pp5/demo.scene' -o tty.png" /dev/null >tty.out 2>&1
  grep -q "$nprim/$nprim primitives\]" tty.out || bad "pp5 render on a terminal shows no progress ($nprim primitives): $(tr '\r\033' '|E' <tty.out | head -c 300)"
  if [ -n "${LOCKSTEP_MESA_SHIM:-}" ] && ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
    md=$SRC/tests/mesa/data
    script -qec "'$L' mesa piglit '$md/varying_loop.shader_test' '$md/varying_color.shader_test' '$md/texcoord.shader_test'" \
      /dev/null >tty.out 2>&1
    grep -q '3/3 piglit tests\]' tty.out || bad "mesa piglit on a terminal shows no progress: $(tr '\r\033' '|E' <tty.out | head -c 300)"
  fi
else
  echo "progress-on-a-terminal part skipped: script(1) (bsdutils) or a pty is unavailable"
fi
# not a terminal (stderr to a file here): no progress, no carriage returns
run r500 run "$mandel" --size 64x64 --input t0=uv -o notty.png
[ $rc -eq 0 ] && ! grep -q 'threads\]' err && ! grep -q $'\r' err || bad "r500 run not on a terminal: progress shown: $err"
run pp5 render "$SRC/examples/pp5/demo.scene" -o notty.png
[ $rc -eq 0 ] && ! grep -q 'primitives\]' err && ! grep -q $'\r' err || bad "pp5 render not on a terminal: progress shown: $err"

# ---- mesa check without -o ---------------------------------------------------------
if [ -n "${LOCKSTEP_MESA_SHIM:-}" ] && [ -r "${LOCKSTEP_MESA_SHIM}" ] &&
   ls /usr/lib/*/dri/r300_dri.so >/dev/null 2>&1; then
  frag=$SRC/tests/mesa/data/varying_col.frag vert=$SRC/tests/mesa/data/varying_col.vert
  mkdir empty && cd empty || exit 1
  "$L" mesa check "$frag" --vert "$vert" --uniform n=8 --size 16x8 --tolerance 1e-5 >../out 2>../err
  rc=$? err=$(cat ../err)
  [ $rc -eq 0 ] || bad "mesa check without -o: rc=$rc $err"
  [ -z "$(ls -A)" ] || bad "mesa check without -o wrote files: $(ls -A)"
  cd .. || exit 1
  # an unset uniform is named in a warning
  run mesa run "$frag" --vert "$vert" --size 8x8 -q
  [[ $err == *"warning:"*"uniform"*"n"* ]] || bad "mesa run: no warning for the unset uniform n: $err"
  run mesa run "$frag" --vert "$vert" --uniform n=4 --size 8x8 -o - --stats st.json -q
  [ $rc -eq 0 ] && is_png out && [ -s st.json ] || bad "mesa run -o - --stats: rc=$rc $err"
  [[ $err != *"warning"* ]] || bad "mesa run with the uniform set still warns: $err"
  # mesa bench (mesa_r300_bench): both timings on stdout, positive, the ratio from them
  run mesa bench "$frag" --vert "$vert" --uniform n=4 --size 8x8 --reps 1 -j 1
  lw=$(sed -n 's/.*lockstep (engine [a-z]*): \([0-9.]*\) s wall.*/\1/p' out)
  lp=$(sed -n 's/.*llvmpipe: \([0-9.]*\) s wall.*/\1/p' out)
  [ $rc -eq 0 ] && [ -n "$lw" ] && [ -n "$lp" ] && awk "BEGIN{exit !($lw > 0 && $lp > 0)}" &&
    grep -q 'speed lockstep/llvmpipe: [0-9.]* wall, [0-9.]* CPU' out ||
    bad "mesa bench: rc=$rc $(cat out) $err"
  run mesa bench "$frag" --reps 0
  [ $rc -eq 2 ] && [[ $err == *"--reps 0"* ]] || bad "mesa bench --reps 0: rc=$rc $err"
  # a piglit test whose GL program crashes under r300 (signal 11): its capture
  # is kept where the reason says (in TMPDIR by default, under --keep DIR with
  # the log path pointing there), deleted with --no-keep; the shim's sysfs
  # mirror never stays behind, even after the crash
  crash=$SRC/tests/mesa/data/r300/inlined-calls-exhaust-memory.shader_test
  mkdir -p ptmp kept && chmod 700 ptmp
  pig() { TMPDIR=$tmp/ptmp XDG_RUNTIME_DIR=$tmp/ptmp "$L" mesa piglit "$crash" "$@" >out 2>err; rc=$?; }
  pig
  kept_dir=$(sed -n 's/.*\[capture kept in \(.*\)\]$/\1/p' out)
  [ $rc -eq 1 ] && grep -q '^FAIL .*killed by signal' out && [ -f "$kept_dir/r300.log" ] &&
    [[ $kept_dir == "$tmp/ptmp/"* ]] || bad "mesa piglit (crash): capture not kept in TMPDIR: rc=$rc $(cat out)"
  rm -rf "$kept_dir"
  pig --keep "$tmp/kept"
  kept_dir=$(sed -n 's/.*\[capture kept in \(.*\)\]$/\1/p' out)
  log=$(sed -n 's/.*(log \([^)]*\)).*/\1/p' out)
  [[ $kept_dir == "$tmp/kept/"* ]] && [ -f "$kept_dir/r300.log" ] && [ "$log" = "$kept_dir/r300.log" ] ||
    bad "mesa piglit --keep: capture $kept_dir, log cited $log: $(cat out)"
  pig --no-keep
  [ $rc -eq 1 ] && ! grep -q 'capture kept' out && grep -q 'capture deleted: --no-keep' out ||
    bad "mesa piglit --no-keep kept the capture or did not say it is gone: $(cat out)"
  [ -z "$(ls -A ptmp)" ] || bad "mesa piglit left in TMPDIR/XDG_RUNTIME_DIR: $(ls -A ptmp)"
else
  echo "mesa part skipped: the r300 shim or r300_dri.so is absent"
fi
# ---- pp5: both engines give the same frame; --wave columns stay apart ------------
run pp5 render "$SRC/examples/pp5/demo.scene" --raw fast.raw -q
run pp5 render "$SRC/examples/pp5/demo.scene" --raw model.raw --engine model -q
[ $rc -eq 0 ] && cmp -s fast.raw model.raw || bad "pp5 render --engine model differs from fast: rc=$rc $err"
run pp5 render "$SRC/examples/pp5/demo.scene" -o x.png --engine turbo
[ $rc -eq 2 ] || bad "pp5 render --engine turbo: rc=$rc"
run pp5 run "$SRC/examples/pp5/edge.stream" --microcode "$SRC/examples/pp5/edge.pp5m" --wave 98:104 -q --engine model
# the label row names each cycle in full, separated by spaces (not 98 99 100 run together)
[ $rc -eq 0 ] && grep -q '^cycle *98 *99 *100 *101 *102 *103 *104 *$' out || bad "pp5 run --wave labels: $(head -1 out)"
w=$(sed -n 2p out); [ ${#w} -eq $((8 + 7 * 4)) ] || bad "pp5 run --wave: a 1-bit row is ${#w} wide, not 8 + 7 columns of 4"

[ $fail -eq 0 ] && echo "all behaviours hold"
exit $fail
