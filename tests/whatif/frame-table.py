#!/usr/bin/env python3
"""The frame question's table of docs/tutorial.md, from a sweep's
sweep-summary.csv: per platform, cap and policy the energy and the
frame chain's jank %, each as mean +- the 95 % confidence interval's
half-width over the repeats.

  frame-table.py SWEEP_DIR
prints the table (markdown) on stdout; exits 1 if a column is missing,
a cell is not a number or a point lacks its interval (fewer than two runs).
"""
import csv
import math
import sys

# the --set capsim.taskgroups["/background"].capacity_max, by its column
# name (sweep.columns.json names the path)
CAP = "background_capacity_max"


def num(row, col):
    v = float(row[col])
    if math.isnan(v):
        sys.exit(f"{col}: NaN in point {row['point']}")
    return v


def main():
    path = sys.argv[1] + "/sweep-summary.csv"
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    need = [CAP, "policy", "platform", "runs", "energy_mj_mean",
            "energy_mj_ci95", "chain.frame.jank_pct_mean",
            "chain.frame.jank_pct_ci95"]
    missing = [c for c in need if not rows or c not in rows[0]]
    if missing:
        sys.exit(f"{path}: no rows or no column {missing}")
    cap = CAP
    print("| platform | cap | policy | energy (J) | jank (%) |")
    print("| --- | --- | --- | --- | --- |")
    for r in sorted(rows, key=lambda r: (r["platform"], -int(r[cap]))):
        if int(r["runs"]) < 2:
            sys.exit(f"point {r['point']}: {r['runs']} run(s), no interval")
        e, ec = num(r, "energy_mj_mean") / 1e3, num(r, "energy_mj_ci95") / 1e3
        j, jc = num(r, "chain.frame.jank_pct_mean"), num(r, "chain.frame.jank_pct_ci95")
        pct = round(100 * int(r[cap]) / 1024)
        print(f"| {r['platform']} | {r[cap]} ({pct} %) | {r['policy']} "
              f"| {e:.2f} ± {ec:.2f} | {j:.1f} ± {jc:.1f} |")


main()
