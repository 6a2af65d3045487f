#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hostile Perfetto traces for the bad-input table (rows-trace.sh), made
with protobuf's wire format only. Usage: pftrace.py CASE OUT

  wire-type      a TracePacket whose ftrace_events (a message) is a varint
  varint-11      a TracePacket's timestamp a varint of 11 bytes
  length-past    a bundle whose length runs past its packet's end
  group          a TracePacket holding a group (wire type 3)
  header-varint  a packet's length a varint of 11 bytes
  huge-packet    a packet claiming 2^40 bytes
  interned       a compact_sched switch naming intern_table[3] of 1
  arrays         compact_sched with 2 switch timestamps and 1 next_pid
  tasks          10^6 tasks woken in compact_sched (a bundle of 7 MB)
  back           CPU 0's second bundle earlier than its first
  zlib-bad       compressed_packets that are no deflate data
  zlib-bomb      compressed_packets inflating to 65 MiB of zeros
  dense          a 64 MiB packet of 2-byte empty FtraceEvents (GBs decoded)
and, a trace that reads (tests/trace/perfetto.sh):
  lost           3 events; a bundle after lost events, a packet after a
                 drop on its sequence (its first packet's flag no loss)
"""
import os
import sys
import zlib

# the wire format's encoder is the converter's (tests/trace/to_perfetto.py);
# no __pycache__ left in the source tree
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'trace'))
from to_perfetto import f_bytes as ln, key as tag, varint  # noqa: E402


def vi(f, v):
    return tag(f, 0) + varint(v)


def packed(f, vals):
    return ln(f, b''.join(varint(v) for v in vals))


def packet(body):
    return ln(1, body)


def bundle(cpu, body):
    return packet(ln(1, vi(1, cpu) + body))


def idle_event(ts, cpu):
    ev = vi(1, ts) + vi(2, 0) + ln(13, vi(1, 1) + vi(2, cpu))
    return ln(2, ev)


def main():
    case, out = sys.argv[1], sys.argv[2]
    if case == 'wire-type':
        data = packet(vi(1, 5))
    elif case == 'varint-11':
        data = packet(vi(10, 1) + tag(8, 0) + b'\xff' * 10 + b'\x01')
    elif case == 'length-past':
        data = packet(tag(1, 2) + varint(16) + vi(1, 0))
    elif case == 'group':
        data = packet(vi(10, 1) + tag(1, 3))
    elif case == 'header-varint':
        data = b'\x0a' + b'\xff' * 10 + b'\x01'
    elif case == 'huge-packet':
        data = b'\x0a' + varint(1 << 40)
    elif case == 'interned':
        cs = (packed(1, [1000]) + packed(2, [1]) + packed(3, [7]) +
              packed(4, [120]) + packed(6, [3]) + ln(5, b'a'))
        data = bundle(0, ln(4, cs))
    elif case == 'arrays':
        cs = (packed(1, [1000, 5]) + packed(2, [1, 1]) + packed(3, [7]) +
              packed(4, [120, 120]) + packed(6, [0, 0]) + ln(5, b'a'))
        data = bundle(0, ln(4, cs))
    elif case == 'tasks':
        n = 10 ** 6
        cs = (packed(7, [1000] + [1] * (n - 1)) +
              packed(8, range(1, n + 1)) + packed(9, [0] * n) +
              packed(10, [120] * n) + packed(11, [0] * n) + ln(5, b't'))
        data = bundle(0, ln(4, cs))
    elif case == 'back':
        data = (bundle(0, idle_event(2000000000, 0)) +
                bundle(0, idle_event(1000000000, 0)))
    elif case == 'zlib-bad':
        data = packet(ln(50, b'not deflate at all'))
    elif case == 'zlib-bomb':
        data = packet(ln(50, zlib.compress(bytes(65 << 20), 9)))
    elif case == 'lost':
        first = packet(ln(1, vi(1, 0) + idle_event(1000, 0)) + vi(10, 7) +
                       vi(42, 1))
        lostb = packet(ln(1, vi(1, 0) + vi(3, 1) + idle_event(2000, 0)) +
                       vi(10, 7))
        drop = packet(ln(1, vi(1, 0) + idle_event(3000, 0)) + vi(10, 7) +
                      vi(42, 1))
        data = first + lostb + drop
    elif case == 'dense':
        body = ln(1, vi(1, 0) + b'\x12\x00' * ((64 << 20) // 2 - 8))
        data = packet(body)
    else:
        sys.exit('pftrace.py: unknown case ' + case)
    with open(out, 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    main()
