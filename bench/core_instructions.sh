#!/bin/sh
# Instructions per operation of every cell of the clamp core table, from
# one callgrind run of `bench_core --instructions` (each cell's operations
# between a zero and a dump of the counters): immune to a shared,
# loaded machine, unlike the timings. Skipped without valgrind.
# Usage: core_instructions.sh BENCH_CORE
set -eu
bench=${1:?usage: core_instructions.sh BENCH_CORE}
command -v valgrind >/dev/null || { echo "valgrind missing: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p" \
	"$bench" --instructions >/dev/null 2>"$dir/log" || {
	status=$?
	cat "$dir/log" >&2
	exit $status
}
# Each dump: "desc: Trigger: Client Request: op/N/agg/ops" and "totals: Ir".
# dumps are numbered in the order of the cells
for f in $(cd "$dir" && ls cg.*.* | sort -t. -k3 -n); do
	f=$dir/$f
	sed -n 's/^desc: Trigger: Client Request: //p; s/^totals: //p' "$f" |
		paste -sd' '
done | awk '
	{ split($1, k, "/"); ir[k[1] "/" k[2] "/" k[3]] = $2 / k[4]
	  if (!((k[1] "/" k[2]) in seen)) { seen[k[1] "/" k[2]] = 1
	    order[n++] = k[1] "/" k[2] } }
	END {
	  printf "Clamp core: instructions per operation (callgrind)\n"
	  printf "%-6s %5s %10s %10s %10s %10s %7s %7s\n", "op", "N",
	    "a:rbtree", "b:seed", "c:buckets", "d:exact", "a/b", "d/c"
	  for (i = 0; i < n; i++) {
	    split(order[i], k, "/"); c = order[i] "/"
	    a = ir[c "a:rbtree"]; b = ir[c "b:seed"]
	    cb = ir[c "c:buckets"]; d = ir[c "d:exact"]
	    printf "%-6s %5s %10.1f %10.1f %10.1f %10.1f %7.2f %7.2f\n",
	      k[1], k[2], a, b, cb, d, a / b, d / cb
	  }
	}'
