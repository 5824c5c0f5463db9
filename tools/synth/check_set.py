#!/usr/bin/env python3
"""Checks a frame set's ground truth against the category rules and prints the ranges.

    python3 tools/synth/check_set.py out/frames/std

Exit status 1 when a frame breaks its category's rule (for example a `small` code outside
56-90 px, a `hard` tilt outside 45-65 deg, an occlusion beyond the error correction).
"""
import json
import os
import sys

RULES = {
    # category: (codes per frame, diameter px, tilt deg, max blur sigma, min JPEG quality or None for PNG)
    "clean": ((1, 1), (64, 1000), (0, 0.001), 0.0, None),
    "camera": ((1, 1), (80, 1400), (0, 50), 1.2, 60),
    "small": ((1, 1), (56, 90), (0, 30), 1.2, 60),
    "hard": ((1, 1), (120, 520), (45, 65), 2.0, 35),
    "occluded": ((1, 1), (120, 500), (0, 35), 1.2, 60),
    "multi": ((2, 4), (80, 700), (0, 40), 1.2, 60),
    "mirrored": ((1, 1), (80, 600), (0, 40), 1.2, 60),
    "negatives": ((0, 0), None, None, 1.5, 35),
}


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    stats, bad = {}, []
    for dirpath, _, files in os.walk(argv[1]):
        for name in sorted(files):
            if not name.endswith(".json") or name in ("manifest.json", "sequence.json"):
                continue
            with open(os.path.join(dirpath, name)) as f:
                t = json.load(f)
            if t.get("schema") != "appclipcodekit.synth.frame/1":
                continue
            cat = t["category"]
            s = stats.setdefault(cat, {"frames": 0, "codes": 0, "d": [], "tilt": [], "blur": [], "jpeg": [],
                                       "templates": set(), "logos": set(), "custom": 0, "mirrored": 0,
                                       "sizes": set(), "occ": []})
            s["frames"] += 1
            s["codes"] += len(t["codes"])
            s["blur"].append(t["blur_sigma_px"])
            s["sizes"].add("%dx%d" % (t["width"], t["height"]))
            s["mirrored"] += bool(t["mirrored"])
            if t["jpeg_quality"] is not None:
                s["jpeg"].append(t["jpeg_quality"])
            for c in t["codes"]:
                s["d"].append(c["diameter_px"])
                s["tilt"].append(c["tilt_deg"])
                s["logos"].add(c["logo"])
                if c["template"] is None:
                    s["custom"] += 1
                else:
                    s["templates"].add(c["template"])
                if c.get("occlusion"):
                    s["occ"].append(c["occlusion"]["fraction"])
                    if not c["occlusion"]["within_capacity"]:
                        bad.append((name, "occlusion beyond capacity"))
            rule = RULES.get(cat)
            if not rule:
                continue
            (nlo, nhi), drange, trange, blur_max, jpeg_min = rule
            if not nlo <= len(t["codes"]) <= nhi:
                bad.append((name, "%d codes" % len(t["codes"])))
            for c in t["codes"]:
                if drange and not drange[0] - 0.01 <= c["diameter_px"] <= drange[1] + 0.01:
                    bad.append((name, "diameter %.1f" % c["diameter_px"]))
                if trange and not trange[0] - 0.01 <= c["tilt_deg"] <= trange[1] + 0.01:
                    bad.append((name, "tilt %.2f" % c["tilt_deg"]))
            if t["blur_sigma_px"] > blur_max + 1e-6:
                bad.append((name, "blur %.2f" % t["blur_sigma_px"]))
            if jpeg_min is None and t["jpeg_quality"] is not None:
                bad.append((name, "JPEG in a PNG category"))
            if jpeg_min is not None and (t["jpeg_quality"] is None or t["jpeg_quality"] < jpeg_min):
                bad.append((name, "JPEG quality %s" % t["jpeg_quality"]))
            if (cat == "mirrored") != bool(t["mirrored"]):
                bad.append((name, "mirrored flag"))

    def rng(v):
        return "%.1f-%.1f" % (min(v), max(v)) if v else "-"

    for cat, s in sorted(stats.items()):
        print("%-18s frames %5d codes %5d  diameter %-13s tilt %-11s blur %-9s jpeg %-7s templates %2d custom %3d "
              "logos %s sizes %s%s" % (cat, s["frames"], s["codes"], rng(s["d"]), rng(s["tilt"]), rng(s["blur"]),
                                       rng(s["jpeg"]), len(s["templates"]), s["custom"], ",".join(sorted(s["logos"])),
                                       ",".join(sorted(s["sizes"])),
                                       "  occlusion %.3f-%.3f" % (min(s["occ"]), max(s["occ"])) if s["occ"] else ""))
    for name, why in bad[:50]:
        print("RULE BROKEN: %s: %s" % (name, why))
    print("%d rule(s) broken" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
