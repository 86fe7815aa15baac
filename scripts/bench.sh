#!/usr/bin/env bash
# make bench: throughput programs (never part of make check).
set -u
build=${1:-build}
for b in "$build"/bench/bench_*; do [ -x "$b" ] && "$b"; done
