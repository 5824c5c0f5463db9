#!/usr/bin/env python3
"""Writes the image loader's fuzz seeds (tools/fuzz/seeds/image/): small JPEG and PNG files
covering the decoder paths a fuzzer should start from.

    python3 tools/fuzz/make_image_seeds.py [OUT_DIR]

PNGs are written byte by byte here (every colour type, bit depths 1-16, a palette with
transparency, a CRC-broken chunk); JPEGs come from OpenCV (baseline grey, progressive
colour) with EXIF orientation segments (little- and big-endian TIFF) spliced in after SOI.
Deterministic: the committed seeds are this script's output. `png()` also writes the
narrow frames of tools/sanitize_check.sh (it needs no OpenCV).
"""
import os
import struct
import sys
import zlib

W, H = 24, 16


def chunk(kind, body, crc=None):
    c = zlib.crc32(kind + body) if crc is None else crc
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", c & 0xFFFFFFFF)


def png(color_type, depth, rows, extra=b"", break_crc=False, width=W, height=H):
    """A non-interlaced PNG of `rows` (each row's bytes, unfiltered)."""
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0)
    raw = b"".join(b"\x00" + r for r in rows)
    idat = zlib.compress(raw, 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra +
            chunk(b"IDAT", idat, crc=0 if break_crc else None) + chunk(b"IEND", b""))


def rows_for(channels, depth):
    out = []
    for y in range(H):
        if depth < 8:
            bits = "".join(format((x + y) % (1 << depth), f"0{depth}b") for x in range(W))
            bits += "0" * (-len(bits) % 8)
            out.append(int(bits, 2).to_bytes(len(bits) // 8, "big"))
        else:
            fmt = ">H" if depth == 16 else ">B"
            top = (1 << depth) - 1
            out.append(b"".join(struct.pack(fmt, (x * 37 + y * 11 + c * 53) * top // 1000 % (top + 1))
                                for x in range(W) for c in range(channels)))
    return out


def exif(orientation, little):
    e = "<" if little else ">"
    tiff = (b"II" if little else b"MM") + struct.pack(e + "HI", 42, 8)
    tiff += struct.pack(e + "H", 1) + struct.pack(e + "HHI", 0x0112, 3, 1)
    tiff += struct.pack(e + "H", orientation) + b"\x00\x00" + struct.pack(e + "I", 0)
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def jpeg(image, params, segment=b""):
    import cv2
    ok, data = cv2.imencode(".jpg", image, params)
    assert ok
    data = data.tobytes()
    return data[:2] + segment + data[2:]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds", "image")
    os.makedirs(out, exist_ok=True)
    import cv2
    import numpy as np
    y, x = np.mgrid[0:H, 0:W]
    colour = np.dstack([(x * 10) % 256, (y * 15) % 256, ((x + y) * 7) % 256]).astype(np.uint8)
    grey = ((x * 9 + y * 5) % 256).astype(np.uint8)
    seeds = {
        "gray1.png": png(0, 1, rows_for(1, 1)),
        "gray8.png": png(0, 8, rows_for(1, 8)),
        "gray16.png": png(0, 16, rows_for(1, 16)),
        "rgb8.png": png(2, 8, rows_for(3, 8)),
        "rgb16.png": png(2, 16, rows_for(3, 16)),
        "palette4_trns.png": png(3, 4, rows_for(1, 4),
                                 extra=chunk(b"PLTE", bytes(range(48))) + chunk(b"tRNS", bytes([0, 128, 255]))),
        "gray_alpha8.png": png(4, 8, rows_for(2, 8)),
        "rgba8.png": png(6, 8, rows_for(4, 8)),
        "bad_crc.png": png(2, 8, rows_for(3, 8), break_crc=True),
        "gray_baseline.jpg": jpeg(grey, [cv2.IMWRITE_JPEG_QUALITY, 90]),
        "colour_progressive.jpg": jpeg(colour, [cv2.IMWRITE_JPEG_QUALITY, 75, cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
        "colour_exif6_le.jpg": jpeg(colour, [cv2.IMWRITE_JPEG_QUALITY, 60], exif(6, True)),
        "colour_exif8_be.jpg": jpeg(colour, [cv2.IMWRITE_JPEG_QUALITY, 60], exif(8, False)),
        "gray_exif3_be.jpg": jpeg(grey, [cv2.IMWRITE_JPEG_QUALITY, 50], exif(3, False)),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(seeds)} seeds to {out}")


if __name__ == "__main__":
    main()
