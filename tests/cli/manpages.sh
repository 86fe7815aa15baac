#!/bin/bash
# The man pages and the bash completion generated from the command table
# (tools/man, tools/completion in the build tree) are well formed and
# complete: groff finds nothing to warn about (-ww; structure checks when
# groff is absent), every command and every option of the table appears in
# its machine's page, and the completion script is valid bash that completes
# commands, options and option values.
# docs/cli.md's table of exit statuses is the table of the code.
# usage: manpages.sh LOCKSTEP MANDIR COMPLETION_FILE SOURCE_ROOT
set -u
L=$1 MANDIR=$2 COMP=$3 SRC=$4
fail=0
bad() { echo "FAIL: $*"; fail=1; }
for page in lockstep lockstep-r500 lockstep-pp5 lockstep-mesa; do
  f=$MANDIR/$page.1
  [ -s "$f" ] || { bad "$f missing"; continue; }
  for s in '^\.TH ' '^\.SH NAME' '^\.SH SYNOPSIS' '^\.SH DESCRIPTION' '^\.SH "EXIT STATUS"' '^\.SH "SEE ALSO"'; do
    grep -q "$s" "$f" || bad "$page.1 has no $s"
  done
  if command -v groff >/dev/null; then
    w=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
    [ -z "$w" ] || bad "$page.1: groff: $w"
  fi
done
command -v groff >/dev/null || echo "groff absent: structure checked only"
# every command and every option it takes, in its machine's page
while IFS=$'\t' read -r cmd _ _ valopts _; do
  m=${cmd%% *}
  f=$MANDIR/lockstep-$m.1
  grep -q "lockstep $cmd" "$f" || bad "lockstep-$m.1 does not describe $cmd"
  grep -q "lockstep $cmd" "$MANDIR/lockstep.1" || bad "lockstep.1 does not list $cmd"
  if [ "$valopts" != "-" ]; then
    IFS=, read -r -a vo <<<"$valopts"
    for o in "${vo[@]}"; do
      grep -q "\\\\-\\\\-${o//-/\\\\-}" "$f" || bad "lockstep-$m.1 lacks --$o of $cmd"
    done
  fi
done < <("$L" help --commands)
# exit statuses: the page and docs/cli.md list every row of the table, and
# the table has the classes issue 21 asks for
rows=0
while IFS=$'\t' read -r code last name _; do
  rows=$((rows + 1))
  grep -q "^\.B $code" "$MANDIR/lockstep.1" || bad "lockstep.1: exit status $code not listed"
  if [ "$code" = "$last" ]; then want="| $code | \`$name\` |"; else want="| $code–$last | \`$name\` |"; fi
  grep -qF "$want" "$SRC/docs/cli.md" || bad "docs/cli.md: no row '$want'"
done < <("$L" help --exit-statuses)
[ "$rows" -eq "$(grep -c '^| [0-9]' "$SRC/docs/cli.md")" ] || bad "docs/cli.md has rows the table lacks"
for n in usage bad-input mismatch fault internal; do
  "$L" help --exit-statuses | cut -f3 | grep -qx "$n" || bad "no exit status '$n'"
done
# the completion: valid bash, and it completes
bash -n "$COMP" || bad "completion script: syntax error"
complete_words() {
  # shellcheck disable=SC1090
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _lockstep; echo "${COMPREPLY[*]}"' _ "$COMP" "$@"
}
[[ " $(complete_words lockstep r5) " == *" r500 "* ]] || bad "completion: lockstep r5 -> r500"
[[ " $(complete_words lockstep r500 "") " == *" dis "* ]] || bad "completion: lockstep r500 -> dis"
[[ " $(complete_words lockstep r500 run --la) " == *" --lanes "* ]] || bad "completion: r500 run --la"
[[ " $(complete_words lockstep pp5 serialize --mode l) " == *" linear "* ]] || bad "completion: --mode l -> linear"
[[ " $(complete_words lockstep mesa "") " == *" decode "* ]] || bad "completion: mesa -> decode"
[ $fail -eq 0 ] && echo "man pages and completion hold"
exit $fail
