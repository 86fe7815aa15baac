#!/bin/bash
# The command-line conventions, checked for EVERY command and sub-command of
# the table (`lockstep help --commands` lists them from tools/cli_table.c):
#   --help and -h: usage on stdout, nothing on stderr, exit 0
#   --version: "lockstep VERSION" first, exit 0
#   an unknown option: exit 2 (usage), ONE line on stderr naming the command,
#     nothing on stdout, no usage dump
#   a close misspelling of an option: "did you mean --NAME?"
#   every option that takes a value, given last without one: "missing value
#     for --NAME", exit 2
#   --opt=value for a value option is accepted by the parser (not an unknown
#     option)
#   "--" ends the options: "-- --help" does not print the help
# usage: conventions.sh LOCKSTEP
set -u
L=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-cli-conv.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# expect CODE DESCRIPTION -- COMMAND...: run it, keep stdout/stderr in $out/$err
run() { "$L" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; out=$(cat "$tmp/out"); err=$(cat "$tmp/err"); }

cmds=$("$L" help --commands) || { echo "FAIL: lockstep help --commands"; exit 1; }
n=0
# the machines and the root too: help, -h, --version, unknown option
for c in "" r500 "r500 vs" pp5 mesa; do
  # shellcheck disable=SC2086
  run $c --help
  [ $rc -eq 0 ] && [[ $out == usage:* ]] && [ -z "$err" ] || bad "lockstep $c --help: rc=$rc"
  # shellcheck disable=SC2086
  run $c -h
  [ $rc -eq 0 ] && [[ $out == usage:* ]] || bad "lockstep $c -h: rc=$rc"
  # shellcheck disable=SC2086
  run $c --version
  [ $rc -eq 0 ] && [[ $out == "lockstep "* ]] || bad "lockstep $c --version: rc=$rc"
  # shellcheck disable=SC2086
  run $c --no-such-option
  [ $rc -eq 2 ] && [ -z "$out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "lockstep $c --no-such-option: rc=$rc, stderr: $err"
done
run r500 rn
[ $rc -eq 2 ] && [[ $err == *"did you mean 'run'"* ]] || bad "lockstep r500 rn: $err"
run
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "lockstep (nothing): rc=$rc"

while IFS=$'\t' read -r cmd minops maxops valopts streams files; do
  n=$((n + 1))
  read -r -a words <<<"$cmd"
  run "${words[@]}" --help
  [ $rc -eq 0 ] || bad "$cmd --help: exit $rc"
  [[ $out == "usage: lockstep $cmd "* ]] || bad "$cmd --help: stdout does not start with the usage line"
  [ -z "$err" ] || bad "$cmd --help: stderr not empty: $err"
  run "${words[@]}" -h
  [ $rc -eq 0 ] && [[ $out == "usage: lockstep $cmd "* ]] || bad "$cmd -h: exit $rc"
  # --help wins wherever it stands, even after operands
  run "${words[@]}" some-operand --help
  [ $rc -eq 0 ] && [[ $out == usage:* ]] || bad "$cmd OPERAND --help: exit $rc"
  run "${words[@]}" --version
  [ $rc -eq 0 ] && [[ $out == "lockstep "* ]] && [[ $out == *"mesa r300 shim: "* ]] &&
    [[ $out == *"r500 jit: "* ]] || bad "$cmd --version: exit $rc, $out"
  run "${words[@]}" --no-such-option x
  if [ $rc -ne 2 ] || [ -n "$out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
     [[ $err != "lockstep $cmd: unknown option --no-such-option"* ]]; then
    bad "$cmd --no-such-option: rc=$rc stdout=[$out] stderr=[$err]"
  fi
  run "${words[@]}" -Z x
  [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$cmd -Z: rc=$rc stderr=[$err]"
  if [ "$valopts" != "-" ]; then
    IFS=, read -r -a vo <<<"$valopts"
    for o in "${vo[@]}"; do
      run "${words[@]}" "--$o"
      [ $rc -eq 2 ] && [[ $err == "lockstep $cmd: missing value for --$o"* ]] &&
        [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$cmd --$o (no value): rc=$rc stderr=[$err]"
    done
    # a misspelling of the first value option (one letter dropped) is suggested
    o=${vo[0]}
    if [ ${#o} -ge 4 ]; then
      miss=${o:0:1}${o:2}
      run "${words[@]}" "--$miss" x
      [[ $err == *"did you mean --$o?"* ]] || bad "$cmd --$miss: no suggestion: $err"
    fi
    # --opt=value is parsed as the option with its value: the parser goes on
    # to the next argument (and stops there, before any work)
    run "${words[@]}" "--$o=x" --zzz-next
    [[ $err == *"unknown option --zzz-next"* ]] || bad "$cmd --$o=x: $err"
  fi
  # "--" ends the options: --help after it is an operand, not the help
  if [ "$cmd" != "mesa piglit" ]; then
    run "${words[@]}" -- --help
    [ $rc -ne 0 ] && [[ $out != usage:* ]] || bad "$cmd -- --help printed the help (rc=$rc)"
  fi
  # too few operands: usage error, one line
  if [ "$minops" -gt 0 ]; then
    run "${words[@]}"
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$cmd (no operands): rc=$rc stderr=[$err]"
  fi
  # outputs that are streams take '-' as stdout (two of them on stdout are
  # refused, before any work); the other outputs refuse '-'
  ops=()
  for ((k = 0; k < minops; k++)); do ops+=(operand$k); done
  if [ "$streams" != "-" ]; then
    IFS=, read -r -a so <<<"$streams"
    for o in "${so[@]}"; do
      run "${words[@]}" "${ops[@]}" "--$o" - "--$o" -
      [ $rc -eq 2 ] && [[ $err == *"only one output can go to stdout"* ]] ||
        bad "$cmd --$o - (twice): rc=$rc stderr=[$err]"
    done
  fi
  if [ "$files" != "-" ]; then
    IFS=, read -r -a fo <<<"$files"
    for o in "${fo[@]}"; do
      run "${words[@]}" "${ops[@]}" "--$o" -
      [ $rc -eq 2 ] && [[ $err == *"'-' (stdout) is not possible"* ]] || bad "$cmd --$o -: rc=$rc stderr=[$err]"
    done
  fi
  : "$maxops"
done <<<"$cmds"
[ $n -ge 13 ] || bad "only $n commands listed"
echo "$n commands checked"
exit $fail
