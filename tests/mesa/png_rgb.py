"""Read an 8-bit RGB PNG (what the shim's display writes: IHDR, IDAT, the five
row filters) into (width, height, rows of bytes R G B ...): for the tests of
the fake display (real_clients.sh, display.sh). Standard library only."""
import struct
import zlib


def read(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype == 2, (path, depth, ctype)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), 3 * w, [], bytearray(3 * w)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            p = a + b - c
            if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c):
                pr = a
            elif abs(p - b) <= abs(p - c):
                pr = b
            else:
                pr = c
            line[i] = (line[i] + [0, a, b, (a + b) // 2, pr][f]) & 255
        rows.append(line)
        prev = line
    return w, h, rows


def pixel(img, x, y):
    return tuple(img[2][y][3 * x:3 * x + 3])
