#!/bin/sh
# doc_block.sh DOC HEADING KIND: print the first ```KIND block of the section
# "## HEADING" of the manual DOC (its lines between the fences), or fail.
# Used to build and check the manuals' whole-program examples (tests/r500/meson.build).
awk -v h="## $2" -v open="\`\`\`$3" '
  $0 == h { in_sec = 1; next }
  in_sec && /^## / { exit }
  in_sec && !in_blk && $0 == open { in_blk = 1; next }
  in_blk && /^```/ { found = 1; exit }
  in_blk { print }
  END { if (!found) { print "no ```" substr(open, 4) " block in section " h > "/dev/stderr"; exit 1 } }
' "$1"
