# Rows of the bad-input table (sourced by table.sh): hostile traces given
# to plot, trace-dat and xcheck (issue 23). Each is refused as bad input
# (exit 2) with its file:line:column, in bounded time and memory, and
# leaves nothing. tests/safety/trace-bounds.sh keeps the cases that need
# more than a row (the output left intact, a full disk).

# trace_line CPU TEXT: one ftrace line on CPU at 1.000100 s
trace_line() {
	printf '          <idle>-0     [%03d] d..2.  1.000100: %s\n' "$1" "$2"
}

for pid in 1073741823 2147483647 -1 99999999999999999999; do
	fresh
	{ echo '# tracer: nop'
	  trace_line 0 "sched_wakeup: comm=a pid=$pid prio=120 target_cpu=000"; } >t.txt
	row "plot: sched_wakeup pid=$pid" 2 \
		"t.txt:2:72: error: pid=$pid: a pid is in [0, 4194304] (the kernel's PID_MAX_LIMIT)" \
		10 256 $W plot t.txt -o plots --quiet
done

fresh
trace_line 0 "sched_switch: prev_comm=a prev_pid=4194305 prev_prio=120 prev_state=S ==> next_comm=b next_pid=1 next_prio=120" >t.txt
row "plot: sched_switch prev_pid=4194305" 2 \
	"t.txt:1:82: error: prev_pid=4194305: a pid is in [0, 4194304]" \
	10 256 $W plot t.txt -o plots --quiet

fresh
trace_line 4096 "cpu_idle: state=1 cpu_id=0" >t.txt
row "plot: CPU 4096 without a platform" 2 \
	"t.txt:1:25: error: CPU 4096 is out of range: allowed [0, 4095] without a platform" \
	10 256 $W plot t.txt -o plots --quiet

fresh
trace_line 0 "cpu_frequency: state=1000000 cpu_id=4" >t.txt
row "plot: cpu_id=4 on a 4-CPU platform" 2 \
	"t.txt:1:83: error: cpu_id 4 is beyond the platform's 4 CPUs (sym4)" \
	10 256 $W plot t.txt -o plots --quiet --platform sym4

fresh
trace_line 0 "cpu_frequency: state=0 cpu_id=0" >t.txt
row "plot: cpu_frequency state=0" 2 \
	"t.txt:1:68: error: state=0: a frequency is in [1, 4294967295] kHz" \
	10 256 $W plot t.txt -o plots --quiet

fresh
awk 'BEGIN { for (i = 1; i <= 257; i++)
	printf "          <idle>-0     [000] d..2.  1.%06d: cpu_frequency: state=%d cpu_id=0\n", i, i * 1000 }' >t.txt
row "plot: 257 frequencies in one domain" 2 \
	"t.txt:257:68: error: CPU 0's domain shows more than 256 distinct frequencies" \
	10 256 $W plot t.txt -o plots --quiet

fresh
truncate -s 1G t.txt
row "plot: 1 GiB of NULs (sparse file)" 2 \
	"capsim: t.txt is a binary file: not a trace capsim reads" \
	10 256 $W plot t.txt -o plots --quiet

# ... text, then the rest a line of a gigabyte (its first 4 KiB text, so
# the file is read as text)
fresh
head -c 4096 /dev/zero | tr '\000' x >t.txt
truncate -s 1G t.txt
row "plot: a 1 GiB line (sparse file)" 2 \
	"t.txt:1:1: error: line longer than 65536 bytes: not a trace" \
	10 256 $W plot t.txt -o plots --quiet

# The trace reader's formats (src/trace/trace_reader.h): each refusal
# names its line and column
fresh
{ trace_line 0 "cpu_idle: state=1 cpu_id=0"
  printf '          <idle>-0     [000] d..2.  1.0001'; } >t.txt
row "plot: a line cut in its timestamp" 2 \
	"t.txt:2:37: error: expected SECS.USECS: timestamp" \
	10 256 $W plot t.txt -o plots --quiet

fresh
{ echo 'version = 6'; echo 'cpus=4'
  trace_line 0 "sched_switch:         a:12 [120] S"; } >t.txt
row "plot: trace-cmd's plugin sched_switch cut before ==>" 2 \
	"t.txt:3:60: error: sched_switch without prev_pid= nor \" ==> \"" \
	10 256 $W plot t.txt -o plots --quiet

fresh
{ trace_line 0 "sched_switch:         a:12 [120] S ==> b [120]"; } >t.txt
row "plot: plugin sched_switch with no next pid" 2 \
	"t.txt:1:86: error: sched_switch: expected COMM:PID after ==>" \
	10 256 $W plot t.txt -o plots --quiet

fresh
{ printf '          <idle>-0     [000] d..2.  2.000000: cpu_idle: state=1 cpu_id=0\n'
  trace_line 1 "cpu_idle: state=1 cpu_id=1"; } >t.txt
row "plot: timestamps going back" 2 \
	"t.txt:2:37: error: timestamp 1.000100000 is before the previous event's 2.000000000" \
	10 256 $W plot t.txt -o plots --quiet

fresh
trace_line 4 "sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120" >t.txt
row "plot: [004] on a 4-CPU platform" 2 \
	"t.txt:1:25: error: CPU 4 is beyond the platform's 4 CPUs (sym4)" \
	10 256 $W plot t.txt -o plots --quiet --platform sym4

fresh
trace_line 0 "cpu_frequency: state=1234567 cpu_id=0" >t.txt
row "plot: a frequency not in the platform's OPP table" 2 \
	"t.txt:1:68: error: CPU 0 at 1234567 kHz: not an OPP of its domain in sym4 (500000..2500000 kHz, 5 OPPs)" \
	10 256 $W plot t.txt -o plots --quiet --platform sym4

fresh
trace_line 0 "cpu_idle: state=1 cpu_id=0" >t.txt
row "plot: no sched_switch and no frequency event" 2 \
	"capsim: t.txt: no sched_switch event, so no task lanes and no frequency event: nothing to plot" \
	10 256 $W plot t.txt -o plots --quiet

fresh
{ printf '\027\010Dtracing6\0'; head -c 4096 /dev/zero; } >t.dat
row "plot: a trace.dat libtracecmd cannot read" 2 \
	"capsim: t.dat: not a trace.dat libtracecmd can read" \
	10 256 $W plot t.dat -o plots --quiet

# Perfetto protobuf (src/trace/perfetto_reader.h): each refusal names the
# byte and what was expected there (tests/badinput/pftrace.py makes them)
PF=$SRC/tests/badinput/pftrace.py
pf_row() {	# CASE MESSAGE [MB]: plot of that case
	fresh
	python3 "$PF" "$1" t.pftrace
	row "plot: Perfetto $1" 2 "$2" 30 "${3:-256}" $W plot t.pftrace -o plots --quiet
}
pf_row wire-type "t.pftrace: byte 2: error: Perfetto trace: TracePacket.ftrace_events: expected a length-delimited message, found a varint"
pf_row group "t.pftrace: byte 4: error: Perfetto trace: TracePacket.ftrace_events: expected a length-delimited message, found a group's start"
pf_row varint-11 "t.pftrace: byte 5: error: Perfetto trace: TracePacket.timestamp: a varint longer than 10 bytes"
pf_row header-varint "t.pftrace: byte 1: error: Perfetto trace: a packet's length is a varint longer than 10 bytes"
pf_row length-past "t.pftrace: byte 3: error: Perfetto trace: TracePacket.ftrace_events: a length past the end of its message"
pf_row huge-packet "t.pftrace: byte 0: error: Perfetto trace: a packet of 1099511627776 bytes: capsim reads packets of at most 64 MiB"
pf_row interned "t.pftrace: byte 0: error: Perfetto trace: compact_sched: switch_next_comm_index[0] = 3 names an interned comm the bundle never defined (its intern_table has 1)"
pf_row arrays "t.pftrace: byte 0: error: Perfetto trace: compact_sched: switch_* arrays of different lengths (2 and 1)"
pf_row back "t.pftrace: byte 22: error: Perfetto trace: CPU 0's events go back in time: one at 1.000000000 s after events up to 2.000000000 s were handed out"
pf_row tasks "t.pftrace: byte 0: error: Perfetto trace: pid 262145 is task 262145: capsim reads at most 262144 tasks" 512
pf_row zlib-bad "t.pftrace: byte 0: error: Perfetto trace: compressed_packets (18 bytes): not deflate data"
pf_row zlib-bomb "t.pftrace: byte 0: error: Perfetto trace: compressed_packets (" 512
grep -q "inflates past 64 MiB" "$tmp/err" ||
	{ fail=$((fail + 1)); echo "FAIL plot: Perfetto zlib-bomb: not said to inflate past 64 MiB"; }
# 64 MiB of 2-byte empty events, gigabytes as protobuf-c's structs: the
# decoding is bounded (512 MiB, or what the machine gives first)
fresh
python3 "$PF" dense t.pftrace
row "plot: Perfetto dense (a 64 MiB packet decoding into GBs)" 2 \
	"t.pftrace: byte 0: error: Perfetto trace: a packet that decodes into more than 512 MiB (or more memory than there is)" \
	120 768 $W plot t.pftrace -o plots --quiet
rm -f t.pftrace

fresh
head -c 5000 "$SRC/tests/fixtures/traces/capture.pftrace" >t.pftrace
row "plot: a Perfetto trace cut short" 2 \
	"t.pftrace: byte 4852: error: Perfetto trace: a packet of 508 bytes, the file ends after 145 of them (cut short?)" \
	10 256 $W plot t.pftrace -o plots --quiet
row "import: a Perfetto trace cut short" 2 \
	"t.pftrace: byte 4852: error: Perfetto trace: a packet of 508 bytes, the file ends after 145 of them (cut short?)" \
	10 256 $W import t.pftrace -o w.json --platform juno-r0

# A file that is no trace is named for what it is, with the forms read
fresh
printf '{"traceEvents": [{"name": "a", "ph": "X", "ts": 1, "dur": 2}]}\n' >t.json
row "plot: a JSON trace" 2 \
	"capsim: t.json is a JSON trace (Chrome's trace event format, or Perfetto's JSON export): capsim reads Perfetto's protobuf: not a trace capsim reads (it reads ftrace text" \
	10 256 $W plot t.json -o plots --quiet

fresh
printf '# tracer\n' | gzip >t.txt.gz
row "plot: a gzip-compressed trace" 2 \
	"capsim: t.txt.gz is gzip-compressed data (a trace to decompress first: gunzip): not a trace capsim reads" \
	10 256 $W plot t.txt.gz -o plots --quiet

fresh
printf '         swapper     0 [002] 12345.678901: sched:sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=7 next_prio=120\n' >t.txt
row "plot: perf script text" 2 \
	"capsim: t.txt is \`perf script\` text, perf's own layout (capsim reads ftrace's: trace-cmd record, or Perfetto): not a trace capsim reads" \
	10 256 $W plot t.txt -o plots --quiet

fresh
awk 'BEGIN { for (i = 0; i < 512; i++) printf "%c", i % 8 + 1 }' >t.bin
row "plot: some binary file" 2 \
	"capsim: t.bin is a binary file: not a trace capsim reads (it reads ftrace text" \
	10 256 $W plot t.bin -o plots --quiet

fresh
row "plot of /dev/zero" 2 \
	"capsim: /dev/zero: not a regular file (a trace must be a file: not a device, a FIFO or a directory)" \
	10 256 $W plot /dev/zero -o plots --quiet

fresh
row "trace-dat of /dev/zero" 2 "capsim: /dev/zero: not a regular file" \
	10 256 $W trace-dat /dev/zero t.dat

fresh
printf '# entries-in-buffer/entries-written: 0/0   #P:2000000000\n' >t.txt
row "trace-dat: #P:2000000000" 2 \
	"t.txt: error: t.txt:1:47: #P:2000000000: the CPU count is out of range: allowed [1, 4096]" \
	10 256 $W trace-dat t.txt t.dat

fresh
trace_line 4096 "cpu_idle: state=1 cpu_id=0" >t.txt
row "trace-dat: CPU 4096" 2 \
	"t.txt: error: t.txt:1:25: CPU 4096 is out of range: allowed [0, 4095]" \
	10 256 $W trace-dat t.txt t.dat

fresh
trace_line 0 "cpu_idle: state=1 cpu_id=0" >t.txt
row "trace-dat: the input as the output" 2 \
	"capsim: trace-dat: t.txt is the input t.txt: choose another OUT.dat" \
	10 256 $W trace-dat t.txt t.txt

fresh
trace_line 0 "cpu_idle: state=1 cpu_id=0" >t.txt
echo 'not a trace.dat' >notes
row "trace-dat over a file that is no trace.dat" 2 \
	"capsim: trace-dat: notes exists and is not a trace.dat: not replaced (--force replaces it)" \
	10 256 $W trace-dat t.txt notes

fresh
workload "{ $G, $T }"
row "xcheck --guest-trace /dev/zero" 2 "capsim: /dev/zero: not a regular file" \
	30 512 $W xcheck w.json --guest-trace /dev/zero -o xo --quiet --no-plots
