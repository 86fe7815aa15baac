#!/usr/bin/env bash
# Print one closing line "N passed, N failed, N skipped" over the meson test
# logs given as arguments (testlog.json files).
python3 - "$@" <<'PY'
import json, sys
p = f = s = 0
for path in sys.argv[1:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        try:
            r = json.loads(line)
        except ValueError:
            continue
        res = r.get("result")
        if res in ("OK", "EXPECTEDFAIL"): p += 1
        elif res == "SKIP": s += 1
        else: f += 1
print(f"{p} passed, {f} failed, {s} skipped")
PY
