#!/usr/bin/env python3
"""How much of each code a frame's highlights leave readable at all: an upper bound for readers.

A highlight (the `glare` entries of a frame's truth) adds light that clips the sensor. Where
even the code's darkest arc colour clips, no reader can tell an arc from the background there;
where the foreground and the third colour both clip, nor which of the two an arc has. This tool
rebuilds, from the truth alone (homography, palette, contrast fade, light field, highlight,
veil, digital gain: the generator's own model, without noise or blur), the 8-bit colour each of
the code's three colours would have at every point of the rings, marks the points where they no
longer differ by `--levels` sRGB steps in any channel, and counts through the format's bit layout
(occlusion.account_mask) the gap and arc bits those points hide.

The Reed-Solomon words are linear over GF(2) bit by bit, so a word with more hidden bits than
parity bits has at least two codewords agreeing with every bit seen: such a code is *beyond*
any reader. `--list` also prints each frame's hidden gap and arc bits, to compare with what an
acceptance rule lets a reading leave unseen (the codec reads the arc word as sampled, its
unseen colours tried both ways, with 8 of its 16 parity bits kept for checking). Noise, blur
and JPEG only hide more, so the counts are a lower bound on what is lost and the readable
share an upper bound.

    python3 tools/synth/glare_capacity.py out/frames/std --category hard [--levels 4] [--list]
"""
import argparse
import glob
import hashlib
import json
import math
import os
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compose      # noqa: E402
import degrade      # noqa: E402
import occlusion    # noqa: E402
import svgcode      # noqa: E402


def linear_rgb(hex_colour):
    """'RRGGBB' -> linear RGB floats (the generator's sRGB table)."""
    px = np.array([[[int(hex_colour[i:i + 2], 16) for i in (0, 2, 4)]]], np.uint8)
    return compose.to_linear(px)[0, 0].astype(np.float64)


def fade_target(code, cache_dir):
    """The colour compose.fade moves a faded code toward: the mean of its canvas in linear
    light (the rendered code, and its card when it has one), or None when the render is gone."""
    renders = glob.glob(os.path.join(cache_dir, "render", "%s_*.png" % code["svg_sha1"]))
    img = cv2.imread(renders[0], cv2.IMREAD_UNCHANGED) if renders else None
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        return None
    alpha = img[:, :, 3:4].astype(np.float64) / 255.0
    lin = compose.to_linear(np.ascontiguousarray(img[:, :, :3])).astype(np.float64)[:, :, ::-1]  # BGR -> RGB
    code_sum, code_area = (lin * alpha).sum(axis=(0, 1)), float(alpha.sum())
    card = code.get("card")
    if card:
        scale = (img.shape[1] / 800.0) ** 2   # render pixels per SVG unit, squared
        m = card["margin"]
        # (a rounded card counted as its square: the corners are a few per cent of its area)
        outer = (math.pi * (400 + m) ** 2 if card["shape"] == "circle" else (800 + 2 * m) ** 2) * scale
        ring_area = max(0.0, outer - code_area)
        b, g, r = card["bgr"]
        card_lin = linear_rgb("%02X%02X%02X" % (r, g, b))
        return (code_sum + card_lin * ring_area) / (code_area + ring_area)
    return code_sum / max(code_area, 1e-9)


class Exposure:
    """Where a frame's code colours end up in 8-bit sRGB, point by point (SVG units)."""

    def __init__(self, truth, code, cache_dir):
        self.h = np.array(code["homography"], np.float64).reshape(3, 3)
        w, hgt = truth["width"], truth["height"]
        light = truth.get("light")
        self.field = (degrade.light_field(w, hgt, light["gain"], light["gradient"], light["gradient_angle_deg"],
                                          light["vignetting"]) if light else np.ones((hgt, w), np.float32))
        if truth.get("mirrored"):
            self.field = np.ascontiguousarray(self.field[:, ::-1])   # the field was lit before the mirror
        if truth.get("shade"):
            raise ValueError("shaded frames are not modelled")
        self.glares = truth.get("glare") or []
        veil = truth.get("veil") or {}
        self.veil_amount, self.veil_level = veil.get("amount", 0.0), veil.get("level", 0.0)
        self.gain = (truth.get("noise") or {}).get("digital_gain", 1.0)
        pal = code["palette"]
        colours = {k: linear_rgb(pal[k]) for k in ("foreground", "background", "third") if pal.get(k)}
        contrast = code.get("contrast", 1.0)
        if contrast < 0.999:
            toward = fade_target(code, cache_dir)
            if toward is None:
                raise ValueError("no render of %s in %s to fade toward" % (code["svg_sha1"], cache_dir))
            colours = {k: c * contrast + toward * (1 - contrast) for k, c in colours.items()}
        self.colours = colours

    def srgb(self, u, v):
        """8-bit sRGB of each code colour at SVG points (u, v): {name: array (..., 3)}."""
        p = np.stack([u, v, np.ones_like(u)], axis=-1) @ self.h.T
        x, y = p[..., 0] / p[..., 2], p[..., 1] / p[..., 2]
        fh, fw = self.field.shape
        xi = np.clip(np.rint(x), 0, fw - 1).astype(int)
        yi = np.clip(np.rint(y), 0, fh - 1).astype(int)
        field = self.field[yi, xi].astype(np.float64)
        blob = np.zeros_like(x)
        for g in self.glares:
            blob += degrade.glare_light(x - g["x"], y - g["y"], g["radius_px"], g["strength"])
        out = {}
        for name, c in self.colours.items():
            lin = c[None, :] * field.reshape(-1, 1) + blob.reshape(-1, 1)
            lin = degrade.veil(lin, self.veil_amount, self.veil_level) * self.gain
            out[name] = compose.to_srgb8(lin.astype(np.float32)).astype(np.int32).reshape(np.shape(u) + (3,))
        return out


def svg_index(cache_dir):
    """The cache's SVGs by the SHA-1 of their content (the truth's `svg_sha1`): generated codes
    are filed under their request's key, not their content's, so names alone do not find them."""
    index = {}
    for path in glob.glob(os.path.join(cache_dir, "svg", "*.svg")):
        with open(path, "rb") as f:
            index[hashlib.sha1(f.read()).hexdigest()] = path
    return index


def code_info(code, index, cache_dir):
    """svgcode.parse() of the code's SVG in the generator's cache."""
    path = index.get(code["svg_sha1"])
    if path is None:
        raise ValueError("no SVG for %s in %s" % (code["svg_sha1"], cache_dir))
    with open(path) as f:
        return svgcode.parse(f.read())


def lost_record(exposure, info, levels, gap_share, color_share):
    """occlusion.account_mask's record of what the light `exposure` describes hides of the
    code `info`: gap bits where neither arc colour stands `levels` sRGB steps off the
    background in any channel, colour bits where the foreground and third colour do not."""
    def apart(a, b):
        return np.abs(a - b).max(axis=-1) >= levels

    def gap_lost(u, v):
        c = exposure.srgb(np.asarray(u, np.float64), np.asarray(v, np.float64))
        seen = np.zeros(np.shape(u), bool)
        for k in ("foreground", "third"):
            if k in c:
                seen |= apart(c[k], c["background"])
        return ~seen

    def color_lost(u, v):
        c = exposure.srgb(np.asarray(u, np.float64), np.asarray(v, np.float64))
        if "third" not in c:
            return np.zeros(np.shape(u), bool)
        return ~apart(c["foreground"], c["third"])

    return occlusion.account_mask(gap_lost, color_lost, info, gap_share, color_share)


def lost_bits(record, info):
    """Bits of the gap word (104) and the arc word (56) no reader can see. A gap RS bit whose
    repeat in the colour stream (its positions past the arc word) is seen is not lost."""
    tables = svgcode.tables()
    lut = tables["bits"]["gaps_bits_order_lut"]
    inv = {g: i for i, g in enumerate(lut)}
    color_index = {g: k for k, g in enumerate(info["visible"])}
    colors_lost = {color_index[g] for g in record["color_bits_at_risk"]}
    arc_bits = sum(1 for k in colors_lost if 1 <= k <= 56)
    repeated = {k - 57 for k in range(57, len(info["visible"])) if k not in colors_lost}
    gap_bits = sum(1 for g in record["gap_bits_at_risk"] if 16 <= inv[g] < 120 and inv[g] - 16 not in repeated)
    return gap_bits, arc_bits


def verdict(record, info):
    """'beyond' when a word has more bits lost than parity bits (the RS words are linear over
    GF(2): then at least two codewords agree with every bit seen, and nothing tells them apart
    but the URL itself), else 'within'. The metadata word is left out: its data is the version
    and the inversion flag, which a reader can all but guess."""
    versions = svgcode.tables()["codec"]["versions"]
    p = versions.get(str(info["version"]))
    if p is None:
        return "within", (0, 0)
    gap_bits, arc_bits = lost_bits(record, info)
    if gap_bits > 8 * p["gaps_parity"] or arc_bits > 8 * p["arcs_parity"]:
        return "beyond", (gap_bits, arc_bits)
    return "within", (gap_bits, arc_bits)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set_dir")
    ap.add_argument("--category", default="hard")
    ap.add_argument("--levels", type=int, default=4, help="sRGB steps two colours must differ by (default 4)")
    ap.add_argument("--gap-share", type=float, default=0.99,
                    help="a gap bit is lost when more of its gap zone than this is (default 0.99: all of it)")
    ap.add_argument("--color-share", type=float, default=0.99,
                    help="an arc's colour is lost when more of the arc than this is (default 0.99: all of it)")
    ap.add_argument("--cache", default=None, help="the generator's cache (default: SET/../../cache)")
    ap.add_argument("--list", action="store_true", help="one line per frame with a highlight")
    args = ap.parse_args()
    cache = args.cache or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.set_dir))), "cache")
    index = svg_index(cache)
    counts = {"frames": 0, "with highlight": 0, "within": 0, "beyond": 0}
    for path in sorted(glob.glob(os.path.join(args.set_dir, args.category, "*.json"))):
        with open(path) as f:
            truth = json.load(f)
        counts["frames"] += 1
        if not truth.get("glare") or not truth.get("codes"):
            continue
        counts["with highlight"] += 1
        code = truth["codes"][0]
        info = code_info(code, index, cache)
        record = lost_record(Exposure(truth, code, cache), info, args.levels, args.gap_share, args.color_share)
        v, (gap_bits, arc_bits) = verdict(record, info)
        counts[v] += 1
        if args.list:
            print("%s %s v%d bits lost: gaps %d arcs %d" % (os.path.basename(truth["file"]), v, info["version"],
                                                           gap_bits, arc_bits))
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
