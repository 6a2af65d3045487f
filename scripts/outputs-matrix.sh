#!/bin/sh
# Run every workload in traces/ under every clamp policy on each platform
# of the matrix (plus the what-if switches that change the model's paths)
# and keep trace.txt and summary.json of each run under OUTDIR/<case>/, so
# a refactoring can show its outputs unchanged: run it before and after,
# then `diff -r BEFORE AFTER`.
# The platforms are a fixed list, not `capsim platforms`, so that a
# baseline made before a platform was embedded (juno-r2) still compares
# equal after; PLATFORMS="sym4 juno-r0 juno-r2 sd855" makes a wider one.
# Usage: [POLICIES="rfc none"] [PLATFORMS="..."] scripts/outputs-matrix.sh OUTDIR [CAPSIM]
set -eu
out=${1:?usage: outputs-matrix.sh OUTDIR [CAPSIM]}
capsim=${2:-./build/capsim}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mkdir -p "$out"
policies=${POLICIES:-"rfc none"}
platforms=${PLATFORMS:-"sym4 juno-r0 sd855"}
for w in traces/*.json; do
	name=$(basename "$w" .json)
	for pl in $platforms; do
		for p in $policies; do
			"$capsim" run "$w" --quiet --policy "$p" --platform "$pl" \
				-o "$out/$name-$p-$pl"
		done
		# the what-if paths: 4.10 clamp order, the RFC's posted
		# domain rule, the util trace lines
		"$capsim" run "$w" --quiet --policy rfc --platform "$pl" \
			--clamp-order 4.10 --domain-rule rfc --trace-util \
			-o "$out/$name-rfc410-$pl"
	done
done
