#!/usr/bin/env bash
# make demo: run the bundled demos and say where their outputs are.
set -u
build=${1:-build}
out=demo-out
mkdir -p "$out"
echo "demo: outputs go to $(pwd)/$out"
