# Rows of the bad-input table (sourced by table.sh): corrupt trace.dat
# files on which libtracecmd 3.1.6 / libtraceevent 1.7.1 crash (so does
# `trace-cmd report`), and systrace HTML whose trace data a </script>
# cuts (issue 36). capsim reads a trace.dat in a child process: each is
# bad input (exit 2) naming the section, with nothing left by any command
# that reads traces (plot, import, import-check, xcheck --guest-trace).
# The offsets are tests/fixtures/traces/capture.dat's (made by its
# make.sh): its event formats from byte 487, CPU 0's data at 12288, CPU
# 1's at 24576, 4096-byte pages whose commit word starts at byte 8.

DAT=$SRC/tests/fixtures/traces/capture.dat

# poke FILE OFFSET FORMAT: printf FORMAT's bytes over FILE at OFFSET
poke() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# sched_switch's "comm[16];" as "comm[\xff\xff\xff\x7f": libtraceevent's
# tep_parse_event() dies in tracecmd_open_head()
comm_dat() {
	cp "$DAT" t.dat
	poke t.dat "$(grep -aob 'comm\[16\];' t.dat | head -1 | cut -d: -f1)" \
		'comm[\377\377\377\177'
}
comm_msg="capsim: t.dat: trace.dat: corrupt event format of sched/sched_switch (bytes 487-1982): libtracecmd died of SIGSEGV reading it"

fresh; comm_dat
row "plot: trace.dat with sched_switch's comm[\\xff\\xff\\xff\\x7f" 2 \
	"$comm_msg" 10 256 $W plot t.dat -o plots --quiet
fresh; comm_dat
row "import: the same trace.dat" 2 "$comm_msg" \
	10 256 $W import t.dat -o w.json --platform juno-r0
fresh; comm_dat
row "import-check: the same trace.dat" 2 "$comm_msg" \
	10 256 $W import-check t.dat "$SRC/traces/audio.json" -o ic \
	--platform juno-r0 --quiet
fresh; comm_dat
row "xcheck --guest-trace: the same trace.dat" 2 "$comm_msg" \
	30 512 $W xcheck "$SRC/traces/audio.json" --guest-trace t.dat -o xo \
	--quiet --no-plots --platform juno-r0

# a NUL and a byte 0x8b in sched_switch's print fmt (a byte-flipped
# mutant): tep_parse_event() dies in another place
fresh; cp "$DAT" t.dat; poke t.dat 1478 '\000\213'
row "plot: trace.dat with sched_switch's print fmt cut by a NUL" 2 \
	"capsim: t.dat: trace.dat: corrupt event format of sched/sched_switch (bytes 487-1982): libtracecmd died of SIGSEGV" \
	10 256 $W plot t.dat -o plots --quiet

# a page's commit with its lost-events flags set and a size beyond the
# page: kbuffer_load_subbuffer() reads past the page. CPU 0's first page
# is loaded by tracecmd_init_data(), its second while reading
fresh; cp "$DAT" t.dat; poke t.dat $((12288 + 11)) '\377'
row "plot: trace.dat whose CPU 0 first page's commit is 0xff......" 2 \
	"capsim: t.dat: trace.dat: corrupt CPU 0's data at offset 12288 (its header says 117444544 bytes of events in a page of 4080): libtracecmd died of SIGSEGV reading it" \
	10 256 $W plot t.dat -o plots --quiet
fresh; cp "$DAT" t.dat; poke t.dat $((16384 + 11)) '\377'
row "import: trace.dat whose CPU 0 second page's commit is 0xff......" 2 \
	"t.dat:161:1: error: trace.dat: corrupt CPU 0's data at offset 16384 (its header says 117444592 bytes of events in a page of 4080): libtracecmd died of SIGSEGV reading it" \
	10 256 $W import t.dat -o w.json --platform juno-r0
fresh; cp "$DAT" t.dat; poke t.dat $((16384 + 11)) '\377'
row "import-check: the same trace.dat" 2 \
	"t.dat:161:1: error: trace.dat: corrupt CPU 0's data at offset 16384" \
	10 256 $W import-check t.dat "$SRC/traces/audio.json" -o ic \
	--platform juno-r0 --quiet
fresh; cp "$DAT" t.dat; poke t.dat $((24576 + 11)) '\307'
row "xcheck --guest-trace: CPU 1's first page's commit 0xc7......" 2 \
	"trace.dat: corrupt CPU 1's data at offset 24576 (its header says 117443616 bytes" \
	30 512 $W xcheck "$SRC/traces/audio.json" --guest-trace t.dat -o xo \
	--quiet --no-plots --platform juno-r0

# version 7 (trace-cmd 3.x's own), uncompressed: its sections walked too
fresh; cp "$SRC/tests/fixtures/traces/capture-v7-none.dat" t.dat
poke t.dat "$(grep -aob 'comm\[16\];' t.dat | head -1 | cut -d: -f1)" \
	'comm[\377\377\377\177'
row "import: version-7 trace.dat with sched_switch's comm[\\xff..." 2 \
	"capsim: t.dat: trace.dat: corrupt event format of sched/sched_switch (bytes 549-2044): libtracecmd died of SIGSEGV reading it" \
	10 256 $W import t.dat -o w.json --platform juno-r0

# systrace HTML (tests/fixtures/traces/systrace.html: its text block
# opens at line 9, its "</script>" is line 438): the trace text is
# written unescaped and ends with "</script>" alone on its line
HTML=$SRC/tests/fixtures/traces/systrace.html
fresh; head -200 "$HTML" >t.html
row "plot: systrace HTML cut inside its trace data" 2 \
	"t.html:200:1: error: the trace data's <script> at line 9 has no </script>: the file is cut short" \
	10 256 $W plot t.html -o plots --quiet
fresh; { head -100 "$HTML"; echo '</script>'; tail -n +101 "$HTML"; } >t.html
row "import: systrace HTML with trace lines after a </script> line" 2 \
	"t.html:102:1: error: a trace line after the trace data ended at line 101's </script>: a </script> inside the trace ended its block early (systrace writes the text unescaped)" \
	10 256 $W import t.html -o w.json --platform juno-r0
fresh; { head -437 "$HTML"; echo '</script>'; tail -n +438 "$HTML"; } >t.html
row "plot: systrace HTML with two </script> lines" 2 \
	"t.html:439:1: error: another </script> after the trace data ended at line 438's </script>" \
	10 256 $W plot t.html -o plots --quiet
fresh; grep -v 'END TRACE' "$HTML" >t.html
row "plot: systrace HTML without <!-- END TRACE -->" 2 \
	"error: no <!-- END TRACE --> after <!-- BEGIN TRACE -->: the file is cut short" \
	10 256 $W plot t.html -o plots --quiet
