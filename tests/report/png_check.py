#!/usr/bin/env python3
"""Looks at a browser's screenshot of the report: decodes the PNG (zlib and
the five filters, no library needed) and counts the pixels of the colours
the report uses, so that a page that failed to lay out, lost its charts or
its table shows as too few of them.

usage: png_check.py SHOT.png
Prints the counts; exits 1 when the bars of the first two configurations
(blue #0072b2 and orange #e69f00 at 85 % opacity over white) or the grey
of the table headers (#f0f0f0) cover too few pixels.
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    assert depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG kind %s" % (hdr,)
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def blend(rgb, alpha=0.85):
    return tuple(round(alpha * c + (1 - alpha) * 255) for c in rgb)


def main():
    w, h, bpp, rows = decode(sys.argv[1])
    want = {"blue bars": blend((0x00, 0x72, 0xb2)), "orange bars": blend((0xe6, 0x9f, 0x00)),
            "table headers": (0xf0, 0xf0, 0xf0)}
    count = dict.fromkeys(want, 0)
    for line in rows:
        for x in range(0, w * bpp, bpp):
            px = (line[x], line[x + 1], line[x + 2])
            for name, c in want.items():
                if all(abs(px[i] - c[i]) <= 6 for i in range(3)):
                    count[name] += 1
    print("png_check: %dx%d: %s" % (w, h, ", ".join("%s %d px" % kv for kv in count.items())))
    low = [n for n, k in count.items() if k < (2000 if "bars" in n else 1500)]
    if low:
        print("png_check: too little of: %s" % ", ".join(low))
        sys.exit(1)


main()
