#!/bin/sh
# Demo: the clamp core on a small op log (traces/demo.ops): a background
# group capped at 512 and a boosted foreground group on 4 CPUs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
echo "== capsim-replay traces/demo.ops (4 CPUs)"
./build/capsim-replay --cpus 4 traces/demo.ops
