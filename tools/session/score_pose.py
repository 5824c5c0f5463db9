#!/usr/bin/env python3
"""Pose accuracy of `appclipcode decode --intrinsics --code-diameter` on tools/synth frames.

    python3 tools/session/score_pose.py out/frames/std --categories clean,camera \
        --exe .build-session/release/appclipcode [--min-diameter 100] [--json out/session/pose.json]

For every frame FILE.json (ground truth written by tools/synth), runs decode with the frame's
own intrinsics and code diameter, matches each reported code to the true code whose center is
nearest (within a quarter of its diameter), and compares:
  center error   |c_est - t| / |t|         (t = code center in camera coordinates, meters)
  normal error   angle(n_est, -R[:,2])     (the printed face's normal, toward the camera)
Codes under --min-diameter pixels (major axis of the rim) are left out. Prints medians and
percentiles; frames are independent of the reader (tools/synth renders with rsvg).
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys


def normalize(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def angle_deg(a, b):
    a, b = normalize(a), normalize(b)
    d = max(-1.0, min(1.0, sum(x * y for x, y in zip(a, b))))
    return math.degrees(math.acos(d))


def percentile(v, q):
    if not v:
        return float("nan")
    s = sorted(v)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("--categories", default="clean,camera")
    ap.add_argument("--exe", default=".build-session/release/appclipcode")
    ap.add_argument("--min-diameter", type=float, default=100.0)
    ap.add_argument("--limit", type=int, default=0, help="at most this many frames per category")
    ap.add_argument("--json", help="write per-code results here")
    args = ap.parse_args()

    rows = []
    frames = 0
    missed = 0
    for cat in args.categories.split(","):
        files = sorted(glob.glob(os.path.join(args.root, cat, "*.json")))
        if args.limit:
            files = files[: args.limit]
        for path in files:
            truth = json.load(open(path))
            if "codes" not in truth or truth.get("mirrored"):
                continue
            big = [c for c in truth["codes"] if c["diameter_px"] >= args.min_diameter]
            if not big:
                continue
            frames += 1
            k = truth["intrinsics"]
            image = os.path.join(os.path.dirname(path), truth["file"])
            # All codes of a frame share one printed diameter only by chance: run once per code size.
            for c in big:
                cmd = [args.exe, "decode", "--json", "--intrinsics",
                       "%.10g,%.10g,%.10g,%.10g" % (k["fx"], k["fy"], k["cx"], k["cy"]),
                       "--code-diameter", "%.10g" % c["diameter_m"], image]
                out = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0])
                best = None
                for code in out["codes"]:
                    if code.get("pose") is None:
                        continue
                    d = math.hypot(code["center"][0] - c["center"][0], code["center"][1] - c["center"][1])
                    if d < 0.25 * c["diameter_px"] and (best is None or d < best[0]):
                        best = (d, code)
                if best is None:
                    missed += 1
                    rows.append({"file": image, "found": False, "diameter_px": c["diameter_px"],
                                 "tilt_deg": c["tilt_deg"]})
                    continue
                code = best[1]
                R = c["pose"]["rotation"]
                t = c["pose"]["translation"]
                n_true = [-R[2], -R[5], -R[8]]
                est = code["pose"]["center_camera_m"]
                err = math.sqrt(sum((a - b) ** 2 for a, b in zip(est, t))) / math.sqrt(sum(x * x for x in t))
                nerr = angle_deg(code["pose"]["normal_camera"], n_true)
                rows.append({"file": image, "found": True, "state": code["state"], "diameter_px": c["diameter_px"],
                             "tilt_deg": c["tilt_deg"], "center_error_rel": err, "normal_error_deg": nerr,
                             "center_sigma_rel": code["pose"]["center_sigma_m"] / math.sqrt(sum(x * x for x in t)),
                             "normal_sigma_deg": code["pose"]["normal_sigma_deg"]})
    found = [r for r in rows if r["found"]]
    ce = [r["center_error_rel"] for r in found]
    ne = [r["normal_error_deg"] for r in found]
    print("frames %d, codes >= %.0f px: %d, located with a pose: %d (%d missed)" %
          (frames, args.min_diameter, len(rows), len(found), missed))
    if found:
        print("center error / distance: median %.4f%%  p90 %.4f%%  max %.4f%%" %
              (100 * percentile(ce, 0.5), 100 * percentile(ce, 0.9), 100 * max(ce)))
        print("normal error: median %.3f deg  p90 %.3f deg  max %.3f deg" %
              (percentile(ne, 0.5), percentile(ne, 0.9), max(ne)))
        print("predicted 1-sigma: center median %.4f%%, normal median %.3f deg" %
              (100 * percentile([r["center_sigma_rel"] for r in found], 0.5),
               percentile([r["normal_sigma_deg"] for r in found], 0.5)))
        for lo, hi in ((0, 10), (10, 25), (25, 45), (45, 90)):
            sel = [r for r in found if lo <= r["tilt_deg"] < hi]
            if sel:
                print("  tilt %2d-%2d deg: %4d codes, center median %.4f%%, normal median %.3f deg" %
                      (lo, hi, len(sel), 100 * percentile([r["center_error_rel"] for r in sel], 0.5),
                       percentile([r["normal_error_deg"] for r in sel], 0.5)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
