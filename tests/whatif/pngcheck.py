#!/usr/bin/env python3
"""Check a PNG written by capsim's plots: its size, and that it is not
blank. Decodes the PNG itself (zlib + the five row filters) so the test
needs nothing beyond Python's standard library.

  pngcheck.py FILE WIDTH HEIGHT
exits 1 with the reason if the size differs, if fewer than 4 colours are
used, or if less than 1 % of the pixels differ from the background.
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype = hdr[:4]
    if depth != 8 or ctype not in (2, 6):
        sys.exit(f"{path}: unexpected PNG format depth {depth} type {ctype}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    w, h, bpp, rows = decode(path)
    if (w, h) != (want_w, want_h):
        sys.exit(f"{path}: {w}x{h}, expected {want_w}x{want_h}")
    colours, other = {}, 0
    bg = rows[0][:3]
    for r in rows[::2]:
        for x in range(0, w * bpp, bpp * 2):
            px = r[x:x + 3]
            colours[px] = colours.get(px, 0) + 1
            if px != bg:
                other += 1
    total = len(rows[::2]) * len(range(0, w * bpp, bpp * 2))
    if len(colours) < 4 or other < 0.01 * total:
        sys.exit(f"{path}: looks blank ({len(colours)} colours, "
                 f"{100.0 * other / total:.2f}% non-background)")
    print(f"{path}: {w}x{h}, {len(colours)} colours, "
          f"{100.0 * other / total:.1f}% drawn")


main()
