#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The OPP tables of traces/platforms/sd855.json, and how they are made.

Frequencies: mainline Linux 6.12 arch/arm64/boot/dts/qcom/sm8150.dtsi,
cpu0_opp_table, cpu4_opp_table and cpu7_opp_table (opp-hz), the tables a
real Snapdragon 855 reports (its cpufreq-hw LUT). Capacities: the same
file's capacity-dmips-mhz (488 / 1024 / 1024) x each cluster's top
frequency, the largest normalised to 1024 as the kernel does
(topology_normalize_cpu_scale()); an OPP's capacity is the kernel energy
model's performance, the CPU's capacity x f / f_max rounded down. Power:
the EM formula P = dynamic-power-coefficient x MHz x V^2 (dpc 232 / 369 /
421 from the same file) with an ASSUMED linear voltage ramp from 0.55 V
at a cluster's lowest OPP to 0.85 / 0.95 / 1.05 V at its top: sm8150's
voltages are in its firmware, not in any public table read here.

Usage: tools/sd855-opps.py [PLATFORM.json]: prints the three "opps"
arrays, or rewrites them in PLATFORM.json in place.
"""
import json
import re
import sys

CLUSTERS = [
    # name, dmips/MHz, dpc (uW/MHz/V^2), top voltage, kHz (sm8150.dtsi)
    ('silver', 488, 232, 0.85, [
        300000, 403200, 499200, 576000, 672000, 768000, 844800, 940800,
        1036800, 1113600, 1209600, 1305600, 1382400, 1478400, 1555200,
        1632000, 1708800, 1785600]),
    ('gold', 1024, 369, 0.95, [
        710400, 825600, 940800, 1056000, 1171200, 1286400, 1401600,
        1497600, 1612800, 1708800, 1804800, 1920000, 2016000, 2131200,
        2227200, 2323200, 2419200]),
    ('prime', 1024, 421, 1.05, [
        825600, 940800, 1056000, 1171200, 1286400, 1401600, 1497600,
        1612800, 1708800, 1804800, 1920000, 2016000, 2131200, 2227200,
        2323200, 2419200, 2534400, 2649600, 2745600, 2841600]),
]
V_LOW = 0.55


def tables():
    top = max(d * f[-1] for _, d, _, _, f in CLUSTERS)
    out = []
    for name, dmips, dpc, vtop, khz in CLUSTERS:
        cap = round(1024 * dmips * khz[-1] / top)
        opps = []
        for f in khz:
            v = V_LOW + (vtop - V_LOW) * (f - khz[0]) / (khz[-1] - khz[0])
            opps.append({'khz': f, 'capacity': cap * f // khz[-1],
                         'power_mw': round(dpc * (f / 1000) * v * v / 1000)})
        out.append((name, cap, opps))
    return out


def opps_text(opps):
    rows = ['        { "khz": %d, "capacity": %d, "power_mw": %d }' %
            (o['khz'], o['capacity'], o['power_mw']) for o in opps]
    return '"opps": [\n' + ',\n'.join(rows) + '\n      ]'


def main():
    t = tables()
    if len(sys.argv) < 2:
        for name, cap, opps in t:
            print(name, cap, opps_text(opps))
        return
    path = sys.argv[1]
    text = open(path).read()
    parts = re.split(r'"opps": \[.*?\n      \]', text, flags=re.S)
    if len(parts) != len(t) + 1:
        sys.exit('%s: %d opps arrays, want %d' % (path, len(parts) - 1,
                                                  len(t)))
    new = parts[0]
    for (name, cap, opps), rest in zip(t, parts[1:]):
        new += opps_text(opps) + rest
    json.loads(new)
    open(path, 'w').write(new)


if __name__ == '__main__':
    main()
