"""Things covering part of a code's outer rings, and what they put at risk.

An occluder is a shape in SVG units drawn on the code's plane (a sticker, a strip of tape,
a fingertip). For ground truth we work out which ring positions it touches and, through
the format's bit layout, which Reed-Solomon symbols those belong to, so a set only holds
occlusions the error correction can undo:
  - a position's gap bit is at risk when the occluder touches the gap zone around the
    position's boundary (half gap + round cap on both sides);
  - a visible arc's color bit is at risk when more than half of the arc is covered;
  - counted as ERRORS (the worst case): metadata and template must be untouched, gap
    symbols <= 2 (version 0) or 1 (version 1), arc symbols <= 1.
Color-stream bits that repeat gap parity bits are counted and reported separately.
"""
import math

import numpy as np

import svgcode

OCCLUDER_COLORS = {
    "skin": [(140, 170, 225), (110, 150, 205), (90, 120, 175), (60, 85, 130)],
    "sticker": [(255, 255, 255), (80, 230, 250), (240, 240, 240), (120, 200, 120)],
    "tape": [(190, 195, 200), (150, 150, 150), (60, 60, 60)],
}


def sample_occluder(rng, reach_min, reach_max):
    """A random occluder entering from outside the rim down to radius `reach`."""
    ang = float(rng.uniform(0, 360))
    reach = float(rng.uniform(reach_min, reach_max))
    kind = ["finger", "sticker", "tape"][int(rng.integers(3))]
    if kind == "finger":
        width = float(rng.uniform(70, 150))
        return {"shape": "finger", "angle_deg": ang, "reach": reach, "width": width,
                "bgr": list(OCCLUDER_COLORS["skin"][int(rng.integers(4))])}
    if kind == "sticker":
        radius = float(rng.uniform(45, 130))
        return {"shape": "disc", "angle_deg": ang, "reach": reach, "radius": radius,
                "bgr": list(OCCLUDER_COLORS["sticker"][int(rng.integers(4))])}
    return {"shape": "tape", "angle_deg": ang, "reach": reach, "length": float(rng.uniform(80, 260)),
            "bgr": list(OCCLUDER_COLORS["tape"][int(rng.integers(3))])}


def contains(occ, u, v):
    """Vectorised inside test in SVG units."""
    a = math.radians(occ["angle_deg"])
    ca, sa = math.cos(a), math.sin(a)
    # radial coordinate along the occluder's direction, and across it
    du, dv = u - 400.0, v - 400.0
    along = du * ca + dv * sa
    across = -du * sa + dv * ca
    if occ["shape"] == "disc":
        cr = occ["reach"] + occ["radius"]
        return (along - cr) ** 2 + across ** 2 <= occ["radius"] ** 2
    if occ["shape"] == "finger":
        half = occ["width"] / 2.0
        tip = occ["reach"] + half
        body = (along >= tip) & (np.abs(across) <= half)
        cap = (along - tip) ** 2 + across ** 2 <= half * half
        return body | cap
    # tape: a strip perpendicular to the radius, its inner edge at `reach`
    return (along >= occ["reach"]) & (np.abs(across) <= occ["length"] / 2.0)


def polygon(occ, steps=24):
    """Outline in SVG units (reaching well outside the code) for drawing."""
    a = math.radians(occ["angle_deg"])
    ca, sa = math.cos(a), math.sin(a)

    def to_uv(al, ac):
        return (400 + al * ca - ac * sa, 400 + al * sa + ac * ca)

    far = 700.0
    if occ["shape"] == "disc":
        cr = occ["reach"] + occ["radius"]
        return [to_uv(cr + occ["radius"] * math.cos(t), occ["radius"] * math.sin(t))
                for t in np.linspace(0, 2 * math.pi, 48, endpoint=False)]
    if occ["shape"] == "finger":
        half = occ["width"] / 2.0
        tip = occ["reach"] + half
        pts = [to_uv(far, half)]
        for t in np.linspace(math.pi / 2, 3 * math.pi / 2, steps):
            pts.append(to_uv(tip + half * math.cos(t), half * math.sin(t)))
        pts.append(to_uv(far, -half))
        return pts
    h = occ["length"] / 2.0
    return [to_uv(occ["reach"], -h), to_uv(occ["reach"] + 90.0, -h), to_uv(occ["reach"] + 90.0, h),
            to_uv(occ["reach"], h)]


def account(occ_list, info):
    """What the occluders put at risk, for the code described by svgcode.parse() `info`."""
    def covered(u, v):
        m = np.zeros(np.shape(u), bool)
        for occ in occ_list:
            m |= contains(occ, u, v)
        return m

    return account_mask(covered, covered, info)


def account_mask(gap_lost, color_lost, info, gap_share=0.0, color_share=0.5):
    """The symbols at risk where `gap_lost(u, v)` (vectorised, SVG units) hides whether an arc
    starts, and `color_lost(u, v)` which of the two arc colors a visible arc has (`covered`
    both for an occluder; a highlight can wash out the second and leave the first). A gap bit
    is at risk when more than `gap_share` of its gap zone is lost (0: any of it), a color bit
    when more than `color_share` of its arc is."""
    tables = svgcode.tables()
    width = tables["geometry"]["stroke_width"]
    lut = tables["bits"]["gaps_bits_order_lut"]
    inv = [0] * 128
    for i, g in enumerate(lut):
        inv[g] = i
    offsets = svgcode.ring_offsets()
    gaps = info["gaps"]
    visible = info["visible"]
    color_index = {g: k for k, g in enumerate(visible)}

    touched, gap_risk, color_risk = set(), set(), set()
    for ri, ring in enumerate(svgcode.rings()):
        n, r, rot, hg = ring["positions"], ring["radius"], ring["rotation_deg"], ring["half_gap_deg"]
        step = 360.0 / n
        angles = np.arange(0.0, 360.0, 0.1)
        cov = np.zeros(len(angles), bool)
        cov_color = np.zeros(len(angles), bool)
        for rr in (r - width / 2, r - width / 4, r, r + width / 4, r + width / 2):
            rad = np.radians(angles)
            cov |= gap_lost(400 + rr * np.cos(rad), 400 + rr * np.sin(rad))
            cov_color |= color_lost(400 + rr * np.cos(rad), 400 + rr * np.sin(rad))
        if not (cov.any() or cov_color.any()):
            continue

        def any_in(a0, a1, mask=cov):
            idx = (np.arange(int(math.floor(a0 * 10)), int(math.ceil(a1 * 10)) + 1)) % 3600
            return bool(mask[idx].any()), float(mask[idx].mean())

        cap = math.degrees(width / 2.0 / r)
        local = [p for p in range(n) if gaps[offsets[ri] + p] == 0]
        for p in range(n):
            g = offsets[ri] + p
            b = rot + p * step
            if any_in(b, b + step)[0]:
                touched.add(g)
            if any_in(b - hg - cap, b + hg + cap)[1] > gap_share:
                gap_risk.add(g)
            if gaps[g] == 0:
                j = local.index(p)
                q = local[(j + 1) % len(local)]
                if q <= p:
                    q += n   # wraps around this ring
                a0, a1 = b + hg, rot + q * step - hg
                if any_in(a0, a1, cov_color)[1] > color_share:
                    color_risk.add(g)

    meta, gapsyms, template = set(), set(), 0
    for g in gap_risk:
        i = inv[g]
        if i < 16:
            meta.add(i // 4)
        elif i >= 120:
            template += 1
        else:
            gapsyms.add((i - 16) // 8)
    arcsyms, repeats, separator = set(), 0, False
    for g in color_risk:
        k = color_index[g]
        if k == 0:
            separator = True
        elif k <= 56:
            arcsyms.add((k - 1) // 8)
        else:
            repeats += 1
    version = info["version"]
    gap_limit = 2 if version == 0 else 1
    within = (not meta and template == 0 and len(gapsyms) <= gap_limit and len(arcsyms) <= 1
              and not separator)

    # fraction of the code disc covered
    g = (np.arange(160) + 0.5) * 5.0
    uu, vv = np.meshgrid(g, g)
    disc = (uu - 400) ** 2 + (vv - 400) ** 2 <= 400 ** 2
    frac = float(((gap_lost(uu, vv) | color_lost(uu, vv)) & disc).sum() / disc.sum())
    return {
        "fraction": round(frac, 4),
        "positions_touched": sorted(int(x) for x in touched),
        "gap_bits_at_risk": sorted(int(x) for x in gap_risk),
        "color_bits_at_risk": sorted(int(x) for x in color_risk),
        "symbols_at_risk": {"metadata": sorted(meta), "gaps": sorted(gapsyms), "template_bits": template,
                            "arcs": sorted(arcsyms), "color_repeat_bits": repeats, "separator": separator},
        "gap_symbol_limit": gap_limit,
        "within_capacity": bool(within),
    }
