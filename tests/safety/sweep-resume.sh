#!/bin/sh
# An interrupted sweep resumes (issue 28): a sweep stopped by SIGTERM
# while its 5th point runs keeps points 1-4 in DIR; `--resume` with the
# same arguments runs only the points without a valid summary (here 5-8,
# and point 2, whose summary is spoilt on purpose) and writes a sweep.csv
# byte for byte the uninterrupted sweep's. Other arguments are refused,
# exit 2, naming what differs. A --collect whose first point is missing
# gives the whole sweep's other rows. No timing: the stand-in worker of the 5th
# run records its pid and waits until the sweep is stopped.
#   sweep-resume.sh CAPSIM SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$tmp" || exit 1
cp "$SRC/traces/audio.json" w.json
set -- sweep w.json --set 'tasks.audio_ft.run=300,400' \
	--set 'tasks.mixer.run=1000,1500' --policies rfc,none --duration 0.2 -j 1 \
	--metric mixer.resp_p95_ms
# runs 1-4 are real; the 5th waits to be stopped
cat > worker <<WORKER
#!/bin/sh
n=\$(( \$(cat "$tmp/count" 2>/dev/null || echo 0) + 1 ))
echo \$n > "$tmp/count"
[ \$n -eq 5 ] || exec "$C" "\$@"
echo \$\$ > "$tmp/stuck"
exec sleep 60
WORKER
chmod +x worker

"$C" "$@" --quiet -o whole || bad "the uninterrupted sweep failed"

CAPSIM_EXE="$tmp/worker" "$C" "$@" --quiet -o sw 2>err.txt &
pid=$!
i=0
while [ ! -s stuck ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] && ok "interrupted: status 143" || bad "interrupted: status $rc: $(cat err.txt)"
[ -f sw/.capsim-output ] && [ -f sw/sweep.json ] && [ ! -e sw/sweep.csv ] &&
	ok "interrupted: sw/ kept, marked, no sweep.csv yet" ||
	bad "interrupted: sw/ is $(ls -A sw 2>&1 | tr '\n' ' ')"
[ "$(ls sw/points/*/run/summary.json 2>/dev/null | wc -l)" -eq 4 ] &&
	ok "interrupted: the 4 finished points kept" ||
	bad "interrupted: $(ls sw/points/*/run/summary.json 2>/dev/null | wc -l) finished points kept"
ls -d sw.partial-* >/dev/null 2>&1 && bad "interrupted: a partial directory left"
grep -q -- "--resume" err.txt && ok "interrupted: it says how to resume" ||
	bad "interrupted: no word of --resume: $(cat err.txt)"

# other arguments: refused, naming the difference, nothing run
"$C" "$@" --seed 7 -o sw --resume >out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "this command's seed (7) is not the sweep's" err.txt &&
	ok "--resume with another --seed: exit 2, names the seed" ||
	bad "--resume with another --seed: exit $rc: $(cat err.txt)"
"$C" "$@" --duration 0.3 -o sw --resume >out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "this command's duration" err.txt &&
	ok "--resume with another --duration: exit 2, names it" ||
	bad "--resume with another --duration: exit $rc: $(cat err.txt)"
"$C" "$@" -o nosuch --resume >out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q "nosuch is not a sweep capsim started" err.txt &&
	ok "--resume of a directory that is no sweep: exit 2" ||
	bad "--resume of no sweep: exit $rc: $(cat err.txt)"

# a finished point whose summary is invalid runs again
echo '{ "truncated": ' > sw/points/0002/run/summary.json
"$C" "$@" -o sw --resume >out.txt 2>err.txt
rc=$?
[ $rc -eq 0 ] && ok "resumed: status 0" || bad "resumed: status $rc: $(cat err.txt)"
grep -q "resumed: 3 points were finished already, 5 run now" out.txt &&
	ok "resumed: only the 5 unfinished points ran" ||
	bad "resumed: $(grep resumed out.txt || cat out.txt err.txt)"
cmp -s sw/sweep.csv whole/sweep.csv &&
	ok "resumed: sweep.csv byte for byte the uninterrupted one's" ||
	bad "resumed: sweep.csv differs: $(diff sw/sweep.csv whole/sweep.csv | head -4)"
[ -f sw/pareto.png ] && ok "resumed: the Pareto plot" || bad "resumed: no pareto.png"

# collected with its first point gone: that row says missing, and every
# other row and the header are the whole sweep's (the rows written
# before the columns were known are written again)
cp -r whole gap
rm -rf gap/points/0001 gap/sweep.csv
"$C" sweep --collect gap --metric mixer.resp_p95_ms --quiet 2>err.txt
rc=$?
[ $rc -eq 1 ] && grep -q "points/0001 is missing" err.txt &&
	ok "first point missing: exit 1, named" || bad "first point missing: exit $rc: $(cat err.txt)"
head -1 gap/sweep.csv | cmp -s - "$(head -1 whole/sweep.csv >h; echo h)" &&
	tail -n +3 gap/sweep.csv | cmp -s - "$(tail -n +3 whole/sweep.csv >t; echo t)" &&
	sed -n 2p gap/sweep.csv | grep -q '^1,.*,missing,' &&
	ok "first point missing: the other rows as the whole sweep's" ||
	bad "first point missing: $(head -3 gap/sweep.csv)"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
