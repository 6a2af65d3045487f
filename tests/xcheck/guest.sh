#!/bin/bash
# The xcheck suite against the booted kernel: each workload of
# traces/xcheck/ run in the guest (kernel/run-workload.sh, deterministic
# guest time) and in the simulator by `capsim xcheck`, which exits 1 when
# a level misses its gate (docs/xcheck.md). Needs the kernel build
# (kernel/build.sh or kernel/test.sh first) and build/capsim.
# Output: build/xcheck/NAME/ per case; last line "N passed, N failed".
# env: CAPSIM_XCHECK_CASES (a subset: names as below, space-separated)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
capsim=${CAPSIM:-build/capsim}
out=${CAPSIM_XCHECK_OUT:-build/xcheck}
[ -x "$capsim" ] || scripts/build.sh build >/dev/null || exit 1
[ -e "${CAPSIM_KBUILD:-build/kernel}/obj/arch/x86/boot/bzImage" ] ||
	kernel/build.sh || exit 1
mkdir -p "$out"

# Level 5 (the guest's own trace imported and simulated) keeps xcheck's
# default gate, 0.9 under rfc and none, none under uclamp (docs/xcheck.md):
# the largest measured was 0.787 (juno-eas, LITTLE).
# name workload platform policy level-4-tolerance
# Level 4's tolerance (residency TVD per domain) is the largest TVD
# measured for the case over three to six boots plus about 0.1 (the
# largest TVD between two boots of bg-hog-capped, 0.009-0.085):
# a change that moves either side by more than the guest's own spread
# fails. boosted-periodic varies most from boot to boot (rfc 0.07-0.39,
# uclamp 0.07-0.37, docs/xcheck.md), so its gate only catches gross
# errors. The 0.05 target is met by bg-hog-none (and rt-capped but in
# one boot).
# juno-eas: 0.764-0.873 over the earlier boots; 0.944 on the first boot
# after the simulator took 6.12's find_energy_efficient_cpu() rules (its
# `medium` stays on LITTLE with 5.6 units of margin, the guest's bursts,
# stretched by the emulator, make it misfit and it runs on big:
# docs/xcheck.md), so its level-4 gate only catches gross errors; levels
# 1-3 gate it as every case. bg-hog-uclamp: 0.384 on the first boot
# after uclamp_rq_inc() moved after the wake-up's governor update (6.12's
# order), so 0.384 + 0.1. rt-capped-rfc: 0.009-0.033 over its boots until
# one boot beside stress-ng gave 0.147: that boot's logger (uncapped, the
# root group) kept a util of 380-410 for three seconds (about 200 in the
# others) and asked for 1.5 GHz itself - 0.334 s of its 0.340 s above the
# RT task's cap has the logger's range and demand as causes (xcheck.md,
# "Where the differences come from"), so 0.147 + 0.1; what the case is
# about, the capped task never lifting the domain, is the causes gate
# every rfc case has (docs/xcheck.md, level 4). boosted-uclamp: 0.211 on
# the CI boot before patch 13 and 0.4998 on the first boot after it
# (docs/xcheck.md: the guest's residency the same, its kernel threads
# not), both with the kernel-thread model, so 0.4998 + 0.1.
cases="
bg-hog-rfc            bg-hog-capped     sym4    rfc     0.34
bg-hog-uclamp         bg-hog-capped     sym4    uclamp  0.48
bg-hog-none           bg-hog-capped     sym4    none    0.10
boosted-rfc           boosted-periodic  sym4    rfc     0.50
boosted-uclamp        boosted-periodic  sym4    uclamp  0.60
rt-capped-rfc         rt-capped         sym4    rfc     0.25
juno-eas-rfc          juno-eas          juno-r0 rfc     0.97
bg-hog-rfc-again      bg-hog-capped     sym4    rfc     0.34
"
pass=0 fail=0
while read -r name w pl pol tvd; do
	[ -n "$name" ] || continue
	case " ${CAPSIM_XCHECK_CASES:-$name} " in *" $name "*) ;; *) continue ;; esac
	start=$(date +%s)
	# level 5 (trace-driven) is reported here, not gated (1 = any TVD):
	# its spread over boots is not known yet (boosted-rfc 0.025-0.049 in
	# four boots, 0.802 in a fifth; juno-eas LITTLE 0.77-0.84). What it
	# must catch, a broken import or window, is gated deterministically
	# on a stored guest trace (tests/xcheck/test_xcheck.c, level 5 < 0.1)
	l5=(--tvd-trace 1)
	flock /tmp/capsim-kernel.lock "$capsim" xcheck "traces/xcheck/$w.json" \
		--platform "$pl" --policy "$pol" --tvd "$tvd" "${l5[@]}" \
		-o "$out/$name" --quiet \
		> "$out/$name.log" 2>&1
	rc=$?
	sum=$(python3 - "$out/$name/xcheck.json" <<'PY' 2>/dev/null
import json, sys
x = json.load(open(sys.argv[1]))
l1, l2, l4 = x["level1"], x["level2"]["guest"], x["level4"]
l3a, l3b = x["level3"]["guest"]["uniform"], x["level3"]["guest"]["changes"]
tvd = " ".join("%.3f" % t for t in l4["residency_tvd"])
plain = " ".join("%.3f" % t for t in l4["residency_tvd_without_kthreads"])
l5 = x.get("level5", {})
if l5.get("ran"):
    l5s = "L5 TVD %s%s" % (" ".join("%.3f" % t for t in l5["residency_tvd"]),
                           "" if l5["gated"] else " (not gated)")
else:
    l5s = "L5 not run (%s)" % l5.get("why")
print("L1 %d/%d  L2 %d/%d  L3 %d/%d util exact, changes p99/max %d/%d  L4 TVD %s (no kthreads %s)  %s" % (
    l1["matched"], l1["compared"], l2["matched"], l2["recomputed"],
    l3a["util_exact"], l3a["intervals"], l3b["p99_util_diff"],
    l3b["max_util_diff"], tvd, plain, l5s))
PY
)
	if [ $rc = 0 ]; then
		echo "ok: xcheck $name ($(( $(date +%s) - start )) s): $sum"
		pass=$((pass + 1))
	else
		echo "FAIL: xcheck $name (exit $rc): $sum"
		tail -5 "$out/$name.log" | sed 's/^/  /'
		fail=$((fail + 1))
	fi
done <<< "$cases"
# repeatability: the same workload booted twice, deterministic guest time;
# the TVD of the guest's residencies over the whole window, `unknown` (the
# stretch before a domain's first frequency event) a row like the OPPs
if [ -e "$out/bg-hog-rfc/xcheck.json" ] && [ -e "$out/bg-hog-rfc-again/xcheck.json" ]; then
	line=$(python3 - "$out/bg-hog-rfc/xcheck.json" "$out/bg-hog-rfc-again/xcheck.json" \
		"${CAPSIM_XCHECK_REPEAT_TVD:-0.15}" <<'PY'
import json, sys
a, b = (json.load(open(p))["level4"]["guest"]["residency"] for p in sys.argv[1:3])
tvd = max(sum(abs(x[k] - y[k]) for k in x) / 2 for x, y in zip(a, b))
print("%s %.4f" % ("ok" if tvd <= float(sys.argv[3]) else "FAIL", tvd))
PY
)
	if [ "${line%% *}" = ok ]; then
		echo "ok: guest repeatability: residency TVD between two boots ${line#* } (<= ${CAPSIM_XCHECK_REPEAT_TVD:-0.15})"
		pass=$((pass + 1))
	else
		echo "FAIL: guest repeatability: residency TVD between two boots ${line#* } (> ${CAPSIM_XCHECK_REPEAT_TVD:-0.15})"
		fail=$((fail + 1))
	fi
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
