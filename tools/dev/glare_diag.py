#!/usr/bin/env python3
"""Where glare frames fail when read from the true plane (diagnosis only).

    BUILD_DIR=/tmp/x tools/dev/build.sh debug
    python3 tools/dev/glare_diag.py out/frames/std/hard --driver /tmp/x/debug/detect_main [--all] [--arcs] [--json out.json]

With ACC_DEBUG_PLANE_AS_GIVEN=1 in the environment the debug driver reads the exact true plane
(no edge fit from it): what reading loses, apart from what the fit loses.

For every frame with a `glare` entry in its truth (every frame with `--all`), runs the debug
driver with `--truth-only` (the ground truth's plane as the hint, its stage trace with
ACC_TRACE_SOFT=1) and compares the first rotation hypothesis's soft bits with the truth's
ring bits (`detect_main --bits URL`). Per frame it prints: the first word that fails (the
codec's message), whether the read plane has the true orientation, how many gap and colour
bits are wrong (confidently: on the wrong side of 0.2/0.8; `?` counts the uncertain ones and
erasures) and where the wrong ones lie: within 1, 2, 3 highlight sigmas of the glare centre
or further, and how many of them sit on a clipped pixel (some channel >= 250 at the
position's centre in the image). With `--arcs`, also the arc word as the codec reads it: each
arc's colour is the mean of its positions' soft values (unseen ones count as 0.5). The line
names each arc that is unseen (`12U`: tried both ways at one bit of checking), misread (`*`
after its number), partly unseen (`part` after its value) or loose (read under 0.5 confidence,
which the close-rival rule counts as unknown), with the value read; at the end the frames that
stop at the arc word are sorted by why. `sat` counts the arc-word arcs whose every position lies on
saturated pixels (every channel >= 250, within 3 sigmas): such a colour is unseen, tried both
ways by the codec at one bit of the arc word's checking each, and the arc word takes no other
erasure or correction.
"""
import argparse
import collections
import json
import math
import os
import subprocess
import sys

import cv2
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The format's facts (ring geometry, the gap bits' permutation) from the shared tables.
SHARED = os.environ.get("APPCLIP_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
with open(os.path.join(SHARED, "format", "tables.json")) as _f:
    _TABLES = json.load(_f)
LUT = _TABLES["bits"]["gaps_bits_order_lut"]
# radius, rotation_deg, positions, half_gap_deg
RINGS = [(r["radius"], float(r["rotation_deg"]), r["positions"], r["half_gap_deg"]) for r in _TABLES["geometry"]["rings"]]
FIRST = [sum(r[2] for r in RINGS[:k]) for k in range(len(RINGS))]
# Which word each ring position's gap bit belongs to (pre-permutation index -> word).
WORD_OF_POSITION = {}
for pre, pos in enumerate(LUT):
    WORD_OF_POSITION[pos] = "meta" if pre < 16 else "gap" if pre < 120 else "template"


def apply(h, x, y):
    v = h @ np.array([x, y, 1.0])
    return v[0] / v[2], v[1] / v[2]


def position_points(h_svg):
    """Image point at the middle of each ring position (true plane, SVG -> pixels)."""
    pts = []
    for (r, rot, n, _), first in zip(RINGS, FIRST):
        for p in range(n):
            a = math.radians(rot + (p + 0.5) * 360.0 / n)
            pts.append(apply(h_svg, 400 + r * math.cos(a), 400 + r * math.sin(a)))
    return pts


def arcs_of(gaps):
    """Per position, the index of its arc in the colour stream (codec order); -1 if none."""
    arc = [-1] * 128
    k = 0
    for (r, rot, n, _), first in zip(RINGS, FIRST):
        for p in range(n):
            if gaps[first + p] != 0:
                continue
            q = p
            while True:
                arc[first + q] = k
                q = (q + 1) % n
                if gaps[first + q] == 0 or q == p:
                    break
            k += 1
    return arc


def arc_word_reading(soft_third, arc, colors):
    """The arc word's arcs (colour-stream arcs 1-56) that are unseen, misread or loose, as the
    codec reads them (codec.cpp: an arc's colour is the mean of its positions' values)."""
    values = {}
    for i, a in enumerate(arc):
        if 1 <= a <= 56:
            values.setdefault(a, []).append(soft_third[i])
    out, unseen, misread, part = [], 0, 0, 0
    for a in sorted(values):
        vs = values[a]
        p = sum(vs) / len(vs)
        conf = abs(2 * p - 1)
        partly = any(abs(v - 0.5) < 0.0005 for v in vs) and conf >= 0.001
        wrong = conf >= 0.001 and (p > 0.5) != (colors[a] == 1)
        if conf < 0.001:
            unseen += 1
            out.append("%dU" % a)
        elif wrong or partly or conf < 0.5:
            misread += wrong
            part += wrong and partly
            out.append("%d%s%.2f%s" % (a, "*" if wrong else "", p, "part" if partly else ""))
    counts = {"unseen": unseen, "misread": misread, "misread_partly_unseen": part}
    return "unseen %d, misread %d (%d partly unseen): %s" % (unseen, misread, part, " ".join(out)), counts


def parse_trace(err):
    """The direct read's trace (before the fused read or the full search)."""
    out = {"fit": None, "messages": [], "soft_arc": None, "soft_third": None, "H": None, "theta": None,
           "mirror": 0, "palette": None, "drawing": [], "unreliable": None, "departed": None}
    lines = err.splitlines()
    started = False
    for ln in lines:
        s = ln.strip()
        if s.startswith("=== truth hints"):
            started = True
            continue
        if not started:
            continue
        if s.startswith("align ") or s.startswith("level 0:") or s.startswith("turned "):
            break
        if s.startswith("fit "):
            out["fit"] = s.split(":")[0].split()[1]
        elif s.startswith("H ") and ("(initial)" not in s or out["H"] is None):
            # The fitted plane; with ACC_DEBUG_PLANE_AS_GIVEN=1 no fit runs, and the plane read
            # is the initial one.
            out["H"] = np.array([float(v) for v in s.split()[1:10]]).reshape(3, 3)
        elif s.startswith("palette:"):
            out["palette"] = s
        elif s.startswith("bands: departed"):
            out["departed"] = int(s.split()[3])
        elif s.startswith("palette contrast"):
            out["unreliable"] = int(s.split()[-1])
        elif s.startswith("hyp theta"):
            parts = s.split()
            msg = s.split("-> ", 1)[1]
            out["messages"].append(msg)
            if out["theta"] is None:
                out["theta"] = float(parts[2])
                out["mirror"] = int(parts[4])
        elif s.startswith("soft arc") and out["soft_arc"] is None:
            out["soft_arc"] = [float(v) for v in s.split()[2:]]
        elif s.startswith("soft third") and out["soft_third"] is None:
            out["soft_third"] = [float(v) for v in s.split()[2:]]
        elif s.startswith("drawing theta") or s.startswith("drawing arcs"):
            out["drawing"].append(s.split("-> ", 1)[1])
        elif s.startswith("no palette") or s.startswith("rings not sampled"):
            out["messages"].append(s)
    return out


def orientation_error_px(h_fit, theta, mirror, h_truth_svg):
    """Largest distance between the read plane's and the truth's ring points."""
    worst = 0
    for k in range(8):
        a = math.radians(45 * k)
        x, y = 300 * math.cos(a), 300 * math.sin(a)
        b = (theta - math.degrees(a)) if mirror else (theta + math.degrees(a))
        b = math.radians(b)
        p = apply(h_fit, 300 * math.cos(b), 300 * math.sin(b))
        q = apply(h_truth_svg, 400 + x, 400 + y)
        worst = max(worst, math.hypot(p[0] - q[0], p[1] - q[1]))
    return worst


def short(msg):
    table = [("template", "template"), ("metadata", "metadata"), ("not known", "version"), ("gap word", "gap word"),
             ("arc word", "arc word"), ("repeated gap", "repeats"), ("inversion", "inversion"),
             ("evidence", "evidence"), ("too few arcs", "arcs"), ("no palette", "palette"),
             ("not sampled", "sampling"), ("ok", "ok")]
    for key, name in table:
        if key in msg:
            return name
    return msg[:20]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set_dir")
    ap.add_argument("--driver", default="/tmp/acc_dev_build/debug/detect_main")
    ap.add_argument("--all", action="store_true", help="also frames without glare")
    ap.add_argument("--json", help="write the per-frame rows here")
    ap.add_argument("--arcs", action="store_true", help="also the arc word's arcs as the codec reads them")
    args = ap.parse_args()
    files = sorted(os.path.join(args.set_dir, f) for f in os.listdir(args.set_dir) if f.endswith(".jpg"))
    rows = []
    env = dict(os.environ, ACC_TRACE_SOFT="1")
    for f in files:
        truth = json.load(open(f[:-4] + ".json"))
        glare = truth.get("glare") or []
        if not glare and not args.all:
            continue
        code = truth["codes"][0]
        bits = json.loads(subprocess.run([args.driver, "--bits", code["url"]], capture_output=True, text=True).stdout)
        gaps = [int(c) for c in bits["gaps"]]
        colors = [int(c) for c in bits["colors"]]
        arc = arcs_of(gaps)
        res = subprocess.run([args.driver, "--truth-only", f], capture_output=True, text=True, env=env)
        line = json.loads(res.stdout.splitlines()[-1])
        hinted = line.get("truth_hinted", {}).get("detections", [])
        decoded = bool(hinted) and hinted[0]["state"] == "decoded"
        right = decoded and hinted[0]["url"] == code["url"]
        tr = parse_trace(res.stderr)
        h_svg = np.array(code["homography"]).reshape(3, 3)
        row = {"file": os.path.basename(f), "glare": glare, "diameter": code["diameter_px"],
               "contrast": code["contrast"], "decoded": decoded, "right": right, "fit": tr["fit"],
               "first": short(tr["messages"][0]) if tr["messages"] else "-",
               "any_ok": any(m == "ok" for m in tr["messages"]), "drawing": [short(m) for m in tr["drawing"]],
               "departed": tr["departed"], "unreliable": tr["unreliable"]}
        if tr["H"] is not None and tr["theta"] is not None:
            row["orient_px"] = orientation_error_px(tr["H"], tr["theta"], tr["mirror"], h_svg)
        img = cv2.imread(f, cv2.IMREAD_COLOR)
        pts = position_points(h_svg)
        g = glare[0] if glare else None
        # Per position: distance in sigmas, clipped?
        where = []
        saturated = []   # every channel at the top, within 3 sigmas of the highlight: nothing left
        for (x, y) in pts:
            xi, yi = int(round(x)), int(round(y))
            clip = sat = False
            d = math.hypot(x - g["x"], y - g["y"]) / g["radius_px"] if g else 99
            if 0 <= xi < img.shape[1] and 0 <= yi < img.shape[0]:
                patch = img[max(0, yi - 1):yi + 2, max(0, xi - 1):xi + 2].reshape(-1, 3)
                clip = bool(np.median(patch.max(axis=1)) >= 250)
                sat = bool(np.median(patch.min(axis=1)) >= 250) and d <= 3
            where.append((d, clip))
            saturated.append(sat)
        row["clipped_positions"] = sum(1 for d, c in where if c)
        # Arc-word arcs whose every position sits on saturated pixels: unseen colours, each tried
        # both ways at one bit of the arc word's checking (see the module's docstring).
        by_arc = {}
        for i in range(128):
            if 1 <= arc[i] <= 56:
                by_arc.setdefault(arc[i], []).append(saturated[i])
        row["arc_word_arcs_saturated"] = sum(1 for v in by_arc.values() if all(v))

        def zone(d):
            return "1s" if d <= 1 else "2s" if d <= 2 else "3s" if d <= 3 else "far"

        if tr["soft_arc"] and row.get("orient_px", 99) < 0.02 * code["diameter_px"] + 3:
            gw = {"1s": 0, "2s": 0, "3s": 0, "far": 0}
            cw = dict(gw)
            gap_wrong = gap_unsure = col_wrong = col_unsure = clip_wrong = 0
            words = {"meta": 0, "gap": 0, "template": 0}
            arc_wrong = set()
            for i in range(128):
                p = tr["soft_arc"][i]
                truth_arc = gaps[i] == 0
                d, c = where[i]
                if (truth_arc and p < 0.2) or (not truth_arc and p > 0.8):
                    gap_wrong += 1
                    gw[zone(d)] += 1
                    clip_wrong += c
                    words[WORD_OF_POSITION[i]] += 1
                elif 0.2 <= p <= 0.8:
                    gap_unsure += 1
                if arc[i] >= 0:
                    want = colors[arc[i]]
                    q = tr["soft_third"][i]
                    if (want == 1 and q < 0.2) or (want == 0 and q > 0.8):
                        col_wrong += 1
                        cw[zone(d)] += 1
                        clip_wrong += c
                        if 1 <= arc[i] <= 56:
                            arc_wrong.add((arc[i] - 1) // 8)
                    elif 0.2 <= q <= 0.8:
                        col_unsure += 1
            row.update(gap_wrong=gap_wrong, gap_unsure=gap_unsure, col_wrong=col_wrong, col_unsure=col_unsure,
                       gap_zones=gw, col_zones=cw, clip_wrong=clip_wrong, words=words,
                       arc_symbols_wrong=len(arc_wrong))
        rows.append(row)
        z = lambda w: "%d/%d/%d/%d" % (w["1s"], w["2s"], w["3s"], w["far"])
        if "gap_wrong" in row:
            detail = "gaps %2d?%-2d [%s] colours %2d?%-2d [%s] clip %2d  meta %d gapw %d tmpl %d arcsym %d" % (
                row["gap_wrong"], row["gap_unsure"], z(row["gap_zones"]), row["col_wrong"], row["col_unsure"],
                z(row["col_zones"]), row["clip_wrong"], row["words"]["meta"], row["words"]["gap"],
                row["words"]["template"], row["arc_symbols_wrong"])
        else:
            detail = "orientation off by %.0f px" % row.get("orient_px", -1) if "orient_px" in row else "no reading"
        print("%s %4.0fpx s=%.2f r=%4.0f cp%3d sat%2d %-9s %-5s %s" % (
            row["file"], row["diameter"], g["strength"] if g else 0, g["radius_px"] if g else 0,
            row["clipped_positions"], row["arc_word_arcs_saturated"], "READ" if right else row["first"],
            row["fit"] or "-", detail))
        if args.arcs and "arc_symbols_wrong" in row:
            reading, row["arc_word"] = arc_word_reading(tr["soft_third"], arc, colors)
            print("    arc word:", reading)
        sys.stdout.flush()
    n = len(rows)
    sat = [r for r in rows if r["arc_word_arcs_saturated"] > 0]
    print("%d frames: %d read from the true plane; %d have an arc-word arc entirely on saturated pixels, "
          "of which %d read (their unseen colours tried both ways)" % (
              n, sum(r["right"] for r in rows), len(sat), sum(r["right"] for r in sat)))
    stopped = [r for r in rows if r["first"] == "arc word" and not r["right"] and "arc_word" in r]
    if stopped:
        def kind(c):
            if c["misread"] == 0:
                # The codec tries unseen colours at one bit each and keeps 8 of the word's 16.
                return "no colour misread, more than 8 unseen (past the word's checking)" if c["unseen"] > 8 \
                    else "no colour misread, at most 8 unseen"
            if c["misread"] == c["misread_partly_unseen"]:
                return "misread only where an arc is partly unseen"
            return "other misreads"
        kinds = collections.Counter(kind(r["arc_word"]) for r in stopped)
        print("%d stop at the arc word: %s" % (len(stopped), "; ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
