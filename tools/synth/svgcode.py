"""Reads an App Clip Code SVG's geometry: palette, logo and which ring positions carry arcs.

Only the drawing is used (never the data-payload attribute), so the facts recorded in
the ground truth (gap bits, color bits, version) are what a reader of the picture sees.
The layout facts come from ../shared/format/tables.json.
"""
import json
import math
import os
import re
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SHARED = os.environ.get("ACC_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
TABLES_PATH = os.path.join(SHARED, "format", "tables.json")

_tables = None


def tables():
    global _tables
    if _tables is None:
        with open(TABLES_PATH) as f:
            _tables = json.load(f)
    return _tables


def rings():
    return tables()["geometry"]["rings"]


def ring_offsets():
    """Global index of each ring's position 0 (ring 1 first)."""
    out, total = [], 0
    for ring in rings():
        out.append(total)
        total += ring["positions"]
    return out


_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _style(el):
    """Style properties of an element: the style attribute, then presentation attributes."""
    props = {}
    for key in ("fill", "stroke"):
        if el.get(key) is not None:
            props[key] = el.get(key).strip()
    for item in (el.get("style") or "").split(";"):
        if ":" in item:
            k, v = item.split(":", 1)
            props[k.strip()] = v.strip()
    return props


def _hex(color):
    """'#ffffff', '#fff' or 'rgb(...)' -> 'FFFFFF'; None for anything else."""
    if not color:
        return None
    c = color.strip().lower()
    if c.startswith("#"):
        c = c[1:]
        if len(c) == 3:
            c = "".join(ch * 2 for ch in c)
        return c.upper() if len(c) == 6 else None
    m = re.match(r"rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)", c)
    if m:
        return "%02X%02X%02X" % tuple(int(v) for v in m.groups())
    return None


def _rotation(transform):
    """Degrees of a 'rotate(a 400 400)' or 'rotate(a)' transform (0 when absent)."""
    if not transform:
        return 0.0
    m = re.search(r"rotate\(([^)]*)\)", transform)
    if not m:
        return 0.0
    nums = [float(v) for v in _NUM.findall(m.group(1))]
    if len(nums) == 3 and (abs(nums[1] - 400) > 1e-6 or abs(nums[2] - 400) > 1e-6):
        raise ValueError("ring rotation about a point other than the code center")
    return nums[0] if nums else 0.0


def _local_tag(el):
    return el.tag.rsplit("}", 1)[-1]


def parse(svg_text):
    """Returns a dict: palette, logo, gaps (128 ints), colors (per visible position),
    arcs per ring, version, inverted, template_byte_ok."""
    root = ET.fromstring(svg_text)
    geo = tables()["geometry"]
    ring_list = rings()
    offsets = ring_offsets()

    background = None
    logo = "none"
    arcs = []  # (ring index 0..4, position, stroke hex, data-color or None)
    logo_fill = None

    def walk(el, rotation, in_logo):
        nonlocal background, logo, logo_fill
        tag = _local_tag(el)
        rot = rotation + _rotation(el.get("transform"))
        is_logo = in_logo or el.get("id") == "Logo" or el.get("data-logo-type") is not None
        if el.get("data-logo-type") is not None:
            kind = el.get("data-logo-type").lower()
            logo = "camera" if "cam" in kind else ("nfc" if "nfc" in kind or "phone" in kind else kind)
        if tag == "circle" and background is None and not is_logo:
            r = float(el.get("r", "0"))
            if abs(r - geo["background_radius"]) < 1.0:
                background = _hex(_style(el).get("fill"))
        elif tag == "path" and not is_logo:
            d = el.get("d", "")
            if "A" in d or "a" in d:
                arcs.append(_arc(d, rot, _style(el), el.get("data-color"), ring_list))
        elif tag == "path" and is_logo:
            if logo == "none":
                logo = "unknown"
            fill = _hex(_style(el).get("fill"))
            if fill and logo_fill is None:
                logo_fill = fill
        for child in el:
            walk(child, rot, is_logo)

    walk(root, 0.0, False)

    gaps = [1] * 128
    stroke_of = {}
    for ring_index, position, stroke, data_color in arcs:
        g = offsets[ring_index] + position
        if gaps[g] == 0:
            raise ValueError("two arcs start at ring %d position %d" % (ring_index + 1, position))
        gaps[g] = 0
        stroke_of[g] = (stroke, data_color)

    # Foreground vs third color: data-color when present, else the logo's color is the
    # foreground, else the more common stroke color.
    strokes = [s for s, _ in stroke_of.values()]
    counts = {}
    for s in strokes:
        counts[s] = counts.get(s, 0) + 1
    foreground = logo_fill if logo_fill in counts else (max(counts, key=counts.get) if counts else None)
    third = None
    colors = []
    for g in range(128):
        if gaps[g] == 0:
            stroke, data_color = stroke_of[g]
            if data_color is not None:
                bit = 1 if data_color.strip() == "1" else 0
            else:
                bit = 0 if stroke == foreground else 1
            colors.append(bit)
            if bit == 1 and third is None:
                third = stroke
            if bit == 0 and data_color is not None:
                foreground = stroke
    palette = {"foreground": foreground, "background": background, "third": third}

    lut = tables()["bits"]["gaps_bits_order_lut"]
    pre = [gaps[lut[i]] for i in range(128)]
    sym = [int("".join(str(b) for b in pre[4 * k:4 * k + 4]), 2) for k in range(4)]
    version = (sym[0] << 3) | ((sym[1] >> 1) & 7)
    inverted = bool(sym[1] & 1)
    template_bits = tables()["bits"]["template_bits_lsb_first"]
    template_ok = pre[120:128] == template_bits

    return {
        "palette": palette,
        "logo": logo,
        "gaps": gaps,
        "colors": colors,
        "visible": [g for g in range(128) if gaps[g] == 0],
        "version": version,
        "inverted": inverted,
        "template_byte_ok": template_ok,
    }


def _arc(d, rotation, style, data_color, ring_list):
    nums = [float(v) for v in _NUM.findall(d)]
    if not re.match(r"\s*M", d) or len(nums) < 9:
        raise ValueError("unsupported arc path: %r" % d[:60])
    x0, y0, rx, _ry, _xrot, _large, sweep, x1, y1 = nums[:9]
    # Clockwise on screen (SVG angles grow clockwise with y down): sweep 1 runs M -> end.
    if sweep == 1:
        sx, sy = x0, y0
    else:
        sx, sy = x1, y1
    radius = math.hypot(sx - 400, sy - 400)
    ring_index = min(range(len(ring_list)), key=lambda i: abs(ring_list[i]["radius"] - radius))
    ring = ring_list[ring_index]
    if abs(ring["radius"] - radius) > 3.0:
        raise ValueError("arc of radius %.2f matches no ring" % radius)
    start = math.degrees(math.atan2(sy - 400, sx - 400)) + rotation - ring["rotation_deg"]
    step = 360.0 / ring["positions"]
    f = (start - ring["half_gap_deg"]) / step
    position = int(round(f)) % ring["positions"]
    if abs(f - round(f)) * step > 0.5:
        raise ValueError("arc start %.3f deg is not on a ring position" % start)
    return ring_index, position, _hex(style.get("stroke")), data_color


def position_windows():
    """For each of the 128 positions: (ring index, radius, start angle deg, end angle deg) of
    the angular window the position owns, in absolute SVG angles (ring rotation applied)."""
    out = []
    for ri, ring in enumerate(rings()):
        step = 360.0 / ring["positions"]
        for p in range(ring["positions"]):
            a0 = ring["rotation_deg"] + p * step
            out.append((ri, ring["radius"], a0, a0 + step))
    return out
