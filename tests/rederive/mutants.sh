#!/bin/sh
# Show that the re-derivation test catches a wrong rule: break one
# figure's code at a time in a copy of the source (a sed expression per
# mutant), rebuild incrementally, and run the test on three workloads;
# every mutant must make it fail. Opt-in (a build per mutant, about 2-4
# minutes in all): sh tests/rederive/mutants.sh SRCDIR
set -u
SRC=$(readlink -f "${1:?usage: mutants.sh SRCDIR}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
(cd "$SRC" && git ls-files -z | xargs -0 cp --parents -t "$tmp/src") || exit 1
meson setup "$tmp/build" "$tmp/src" >/dev/null || exit 1
ninja -C "$tmp/build" capsim >/dev/null || exit 1
caught=0 missed=0
# FILE|PATTERN|REPLACEMENT|what it breaks
while IFS='|' read -r file pat rep what; do
	case $file in ''|'#'*) continue ;; esac
	f=$tmp/src/$file
	cp "$f" "$tmp/orig"
	if ! grep -qF "$pat" "$f"; then
		echo "STALE $what: '$pat' not in $file"
		missed=$((missed + 1))
		continue
	fi
	python3 -c 'import sys
p, a, b = sys.argv[1:]
s = open(p).read()
open(p, "w").write(s.replace(a, b, 1))' "$f" "$pat" "$rep"
	if ! ninja -C "$tmp/build" capsim >/dev/null 2>&1; then
		echo "BUILD $what: the mutant does not build"
		missed=$((missed + 1))
	elif sh "$SRC/tests/rederive/run.sh" "$tmp/build/capsim" "$SRC" \
		"$SRC/traces/audio.json" "$SRC/traces/game.json" \
		"$SRC/traces/whatif-bg-cap.json" >"$tmp/log" 2>&1; then
		echo "MISSED $what"
		missed=$((missed + 1))
	else
		echo "caught $what: $(grep -c '^FAIL' "$tmp/log") of 27 runs," \
			"e.g. $(grep -m1 ': summary.json' "$tmp/log" | sed 's/^[^:]*: //')"
		caught=$((caught + 1))
	fi
	cp "$tmp/orig" "$f"
done <<'LIST'
src/sim/energy.c|pd->idle[i].power_mw|pd->idle[0].power_mw|idle energy priced at the first state
src/base/util.c|+ 0.999999999);|+ 0.5);|percentiles rounded instead of nearest rank
src/sim/summary.c|khz / (double)s->now;|khz / (double)(s->now + 1000000);|average kHz over 1 ms too many
src/sim/sim.c|d->transitions++;|d->transitions += d->transitions < 10;|transitions stop counting at 10
src/sim/sim.c|prev->preempted++;|prev->preempted += !prev->preempted;|preemptions counted once
src/sim/sim.c|t->migrations++;|t->migrations += !t->migrations;|migrations counted once
src/sim/sim.c|s->now / NSEC_PER_USEC -|s->now / NSEC_PER_USEC + 1 -|response 1 us long
src/sim/task.c|samples_add(&t->slack, t->slack_acc);|(void)0;|slack not sampled at completion
src/sim/task.c|t->act_timed = true;|t->act_timed = true; samples_add(&t->slack, slack);|slack per timer event (the rule before)
src/sim/sim.c|t->runtime_ns += delta;|t->runtime_ns += delta - delta / 100;|runtime 1 % short
src/sim/sim.c|c->busy_ns[c->dom->cur_opp] += delta;|c->busy_ns[c->dom->cur_opp ? c->dom->cur_opp - 1 : 0] += delta;|busy time booked one OPP low
src/sim/sim.c|samples_add(&next->wlat, delay);|samples_add(&next->wlat, delay / 2);|wake-up latency halved
src/sim/sim.c|d->residency_ns[d->cur_opp] += s->now - d->last_change;|d->residency_ns[d->cur_opp] += (s->now - d->last_change) * 99 / 100;|domain residency 1 % short at each change
LIST
echo "$caught passed, $missed failed"
[ "$missed" -eq 0 ]
