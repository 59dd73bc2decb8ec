#!/usr/bin/env python3
"""Counts the pixels of given colours in a PNG (8-bit RGB/RGBA, not
interlaced), with nothing but the standard library: the HTML report test
checks that Chromium really drew the bands of the TMEM map.

usage: png_colors.py FILE NAME=RRGGBB[:MIN[:MAX[:TOLERANCE]]] ...
Prints "NAME COUNT" per colour (pixels whose channels are each within
TOLERANCE, default 0, of the colour); exits 1 when a count is outside
[MIN, MAX].
"""
import struct
import sys
import zlib


def read_png(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG file')
    pos, idat, header = 8, b'', None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        sys.exit(f'{path}: unsupported PNG (depth {depth}, colour type {color})')
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        filt = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if filt == 1:
                line[i] = (line[i] + a) & 0xFF
            elif filt == 2:
                line[i] = (line[i] + b) & 0xFF
            elif filt == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    width, height, bpp, rows = read_png(sys.argv[1])
    wanted = []
    for spec in sys.argv[2:]:
        name, value = spec.split('=')
        parts = value.split(':')
        rgb = tuple(int(parts[0][i:i + 2], 16) for i in (0, 2, 4))
        lo = int(parts[1]) if len(parts) > 1 and parts[1] else 0
        hi = int(parts[2]) if len(parts) > 2 and parts[2] else None
        tol = int(parts[3]) if len(parts) > 3 and parts[3] else 0
        wanted.append((name, rgb, lo, hi, tol))
    histogram = {}
    for line in rows:
        for x in range(0, width * bpp, bpp):
            px = (line[x], line[x + 1], line[x + 2])
            histogram[px] = histogram.get(px, 0) + 1
    print(f'size {width}x{height}')
    ok = True
    for name, rgb, lo, hi, tol in wanted:
        n = sum(count for px, count in histogram.items()
                if all(abs(p - q) <= tol for p, q in zip(px, rgb)))
        print(f'{name} {n}')
        if n < lo or (hi is not None and n > hi):
            print(f'{name}: {n} pixels, expected [{lo}, {hi}]', file=sys.stderr)
            ok = False
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
