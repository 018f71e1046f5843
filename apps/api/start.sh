#!/bin/sh
# Starts the built service with its node flags: the one place they are written (`pnpm start`, the app's
# start script, the Dockerfile and the benchmarks all run this file). Why these values: a 96 MB old
# space bounds the heap; the young generation and pretenuring settings are measured in
# docs/performance.md, "Garbage collection"; --no-maglev (V8's mid-tier compiler, on by default from
# Node 22) saves about 20 MB resident at no measured CPU cost (same file). Arguments are extra node
# options (`--watch`, `--cpu-prof`); NODE picks the node binary (default: the one on PATH).
# exec: node takes this process's place and receives its signals.
exec "${NODE:-node}" --max-old-space-size=96 --max-semi-space-size=8 --no-allocation-site-pretenuring --single-threaded-gc --no-maglev "$@" "$(dirname "$0")/dist/bin/main.js"
