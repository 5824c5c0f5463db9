"""Things that look a bit like an App Clip Code but are not one, for negative frames.

Each drawer paints into a compose.Canvas in the same 0..800 unit square a code uses
(center 400,400, radius <= 400), so look-alikes go through the same camera as codes.
"""
import math

import cv2
import numpy as np

import svgcode

KINDS = ("concentric_rings", "dashed_rings", "fake_code", "bullseye", "circular_logo", "qr_like", "dial",
         "dot_rings")

PALETTES = [((255, 255, 255), (0, 0, 0)), ((0, 0, 0), (255, 255, 255)), ((48, 59, 255), (255, 255, 255)),
            ((255, 122, 0), (255, 255, 255)), ((255, 255, 255), (214, 86, 88)), ((40, 40, 40), (0, 200, 255)),
            ((34, 170, 51), (255, 255, 255)), ((136, 136, 136), (255, 255, 255)), ((255, 255, 255), (60, 60, 60))]


def _colors(rng):
    fg, bg = PALETTES[int(rng.integers(len(PALETTES)))]
    if rng.random() < 0.5:
        fg, bg = bg, fg
    mid = tuple((a + b) // 2 for a, b in zip(fg, bg))
    return fg, bg, mid


def draw(kind, canvas, rng):
    fg, bg, mid = _colors(rng)
    return globals()["_" + kind](canvas, rng, fg, bg, mid)


def _concentric_rings(c, rng, fg, bg, mid):
    n = int(rng.integers(3, 9))
    c.circle(400, 400, 400, bg)
    step = 400.0 / (n + 0.5)
    for i in range(n, 0, -1):
        c.circle(400, 400, i * step, fg if i % 2 else bg)
    return {"kind": "concentric_rings", "rings": n}


def _dashed_rings(c, rng, fg, bg, mid):
    n = int(rng.integers(3, 7))
    if rng.random() < 0.7:
        c.circle(400, 400, 400, bg)
    width = float(rng.uniform(12, 40))
    for i in range(n):
        r = 120 + (360 - 120) * (i + 0.5) / n
        a = float(rng.uniform(0, 360))
        while a < 360 + 0:
            length = float(rng.uniform(6, 70))
            gap = float(rng.uniform(4, 25))
            c.arc(400, 400, r, a, a + length, fg if rng.random() < 0.7 else mid, width)
            a += length + gap
    return {"kind": "dashed_rings", "rings": n}


def _fake_code(c, rng, fg, bg, mid):
    """App Clip Code geometry (same radii, stroke, rotations) with random arcs: the hardest
    negative. Random arcs pass the format's checks with negligible probability."""
    c.circle(400, 400, 400, bg)
    width = svgcode.tables()["geometry"]["stroke_width"]
    for ring in svgcode.rings():
        n = ring["positions"]
        step = 360.0 / n
        visible = [p for p in range(n) if rng.random() < 0.55] or [0]
        for k, p in enumerate(visible):
            nxt = visible[(k + 1) % len(visible)]
            end = nxt * step if nxt > p else nxt * step + 360.0
            a0 = ring["rotation_deg"] + p * step + ring["half_gap_deg"]
            a1 = ring["rotation_deg"] + end - ring["half_gap_deg"]
            c.arc(400, 400, ring["radius"], a0, a1, fg if rng.random() < 0.6 else mid, width)
    if rng.random() < 0.6:
        c.circle(400, 400, 100, fg)
    return {"kind": "fake_code"}


def _bullseye(c, rng, fg, bg, mid):
    if rng.random() < 0.5:
        colors = [(255, 255, 255), (0, 0, 0), (220, 160, 0), (40, 40, 230), (0, 220, 255)]   # archery
        for i, col in enumerate(colors):
            c.circle(400, 400, 400 - i * 80, col)
        kind = "archery"
    else:
        n = int(rng.integers(2, 5))
        for i in range(n):
            c.circle(400, 400, 400 - i * 400 / n, fg if i % 2 == 0 else bg)
        c.circle(400, 400, float(rng.uniform(25, 70)), fg)
        kind = "bullseye"
    return {"kind": "bullseye", "style": kind}


def _circular_logo(c, rng, fg, bg, mid):
    c.circle(400, 400, 400, bg)
    c.circle(400, 400, 370, fg, thickness=float(rng.uniform(10, 30)))
    shape = int(rng.integers(4))
    if shape == 0:          # star
        k = int(rng.integers(5, 9))
        pts = []
        for i in range(2 * k):
            r = 260 if i % 2 == 0 else 120
            a = math.pi * i / k - math.pi / 2
            pts.append((400 + r * math.cos(a), 400 + r * math.sin(a)))
        c.polygon(pts, fg)
    elif shape == 1:        # pie sectors
        k = int(rng.integers(3, 9))
        for i in range(k):
            if i % 2 == 0:
                a0, a1 = 360.0 * i / k, 360.0 * (i + 1) / k
                pts = [(400, 400)] + [(400 + 300 * math.cos(math.radians(a)), 400 + 300 * math.sin(math.radians(a)))
                                      for a in np.linspace(a0, a1, 12)]
                c.polygon(pts, fg)
    elif shape == 2:        # letters
        text = "".join(chr(int(rng.integers(65, 91))) for _ in range(int(rng.integers(1, 4))))
        scale = 9.0 / len(text) * c.res
        thick = max(1, int(round(30 * c.res / len(text))))
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
        x, y = c.px(400, 400)
        cv2.putText(c.img, text, (int(x - tw / 2), int(y + th / 2)), cv2.FONT_HERSHEY_DUPLEX, scale,
                    tuple(fg) + (255,), thick, cv2.LINE_AA)
    else:                   # rings of a badge with a center disc
        c.circle(400, 400, 300, mid, thickness=24)
        c.circle(400, 400, 200, fg)
    return {"kind": "circular_logo", "shape": ["star", "sectors", "letters", "badge"][shape]}


def _qr_like(c, rng, fg, bg, mid):
    n = int(rng.integers(21, 38))
    cell = 760.0 / (n + 2)
    dark, light = ((0, 0, 0), (255, 255, 255)) if rng.random() < 0.8 else (fg, bg)
    c.polygon([(20, 20), (780, 20), (780, 780), (20, 780)], light)
    grid = rng.random((n, n)) < 0.5
    for fx, fy in ((0, 0), (n - 7, 0), (0, n - 7)):
        grid[fy:fy + 7, fx:fx + 7] = False
        block = np.zeros((7, 7), bool)
        block[0, :] = block[6, :] = block[:, 0] = block[:, 6] = True
        block[2:5, 2:5] = True
        grid[fy:fy + 7, fx:fx + 7] = block
    o = 20 + cell
    for y in range(n):
        for x in range(n):
            if grid[y, x]:
                u, v = o + x * cell, o + y * cell
                c.polygon([(u, v), (u + cell, v), (u + cell, v + cell), (u, v + cell)], dark)
    return {"kind": "qr_like", "modules": n}


def _dial(c, rng, fg, bg, mid):
    c.circle(400, 400, 400, bg)
    c.circle(400, 400, 385, fg, thickness=12)
    ticks = int(rng.choice([12, 24, 60]))
    for i in range(ticks):
        a = 2 * math.pi * i / ticks
        r0 = 300 if i % 5 == 0 or ticks == 12 else 340
        w = 16 if r0 == 300 else 7
        p0 = (400 + r0 * math.cos(a), 400 + r0 * math.sin(a))
        p1 = (400 + 365 * math.cos(a), 400 + 365 * math.sin(a))
        nx, ny = -math.sin(a) * w / 2, math.cos(a) * w / 2
        c.polygon([(p0[0] + nx, p0[1] + ny), (p1[0] + nx, p1[1] + ny), (p1[0] - nx, p1[1] - ny),
                   (p0[0] - nx, p0[1] - ny)], fg)
    for length, width in ((200, 18), (290, 10)):
        a = float(rng.uniform(0, 2 * math.pi))
        ex, ey = 400 + length * math.cos(a), 400 + length * math.sin(a)
        nx, ny = -math.sin(a) * width / 2, math.cos(a) * width / 2
        c.polygon([(400 + nx, 400 + ny), (ex + nx, ey + ny), (ex - nx, ey - ny), (400 - nx, 400 - ny)], fg)
    return {"kind": "dial", "ticks": ticks}


def _dot_rings(c, rng, fg, bg, mid):
    c.circle(400, 400, 400, bg)
    n = int(rng.integers(3, 6))
    for i in range(n):
        r = 130 + 240 * (i + 0.5) / n
        dots = int(rng.integers(16, 48))
        size = min(14.0, math.pi * r / dots * 0.35)
        for k in range(dots):
            if rng.random() < 0.8:
                a = 2 * math.pi * k / dots
                c.circle(400 + r * math.cos(a), 400 + r * math.sin(a), size, fg)
    return {"kind": "dot_rings", "rings": n}
