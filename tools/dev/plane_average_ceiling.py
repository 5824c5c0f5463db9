#!/usr/bin/env python3
"""Prototype (measurement only): multi-frame averaging of a code's plane image.

Each frame of a sequence is warped into the code's canonical plane (SVG units, frontal, the
code `--scale` times as many pixels across as in the frames) with its ground-truth homography
(perfect registration), the first N warped frames are averaged, and the average is written
as a frame of its own (PNG + truth JSON whose homography maps SVG units to the canvas). Then
`detect_main --truth-hints` reads each average from its true plane, exactly as one frame:
the ceiling of "fuse the pixels, then read once".

    python3 tools/dev/plane_average_ceiling.py out/session/weak/*/ --bin /tmp/acc_build_weak/release/detect_main \
        [--counts 1,3,10,30] [--scale 2] [--work /tmp/plane_average]
"""
import argparse
import glob
import json
import os
import subprocess

import cv2
import numpy as np


def canvas_from_svg(diameter_px, size):
    """SVG units -> canvas pixels: frontal, code centred, `diameter_px` across."""
    s = diameter_px / 800.0
    c = (size - 1) / 2.0
    return np.array([[s, 0, c - 400 * s], [0, s, c - 400 * s], [0, 0, 1]], dtype=np.float64)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--bin", default="/tmp/acc_dev_build/release/detect_main")
    ap.add_argument("--counts", default="1,3,10,30")
    ap.add_argument("--scale", type=float, default=2.0)
    ap.add_argument("--work", default="/tmp/plane_average")
    args = ap.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    os.makedirs(args.work, exist_ok=True)
    rows = []
    files_all = []
    for folder in args.folders:
        name = os.path.basename(folder.rstrip("/"))
        frames = sorted(glob.glob(os.path.join(folder, "frame_*.jpg")))[: max(counts)]
        truth = [json.load(open(f[:-4] + ".json")) for f in frames]
        url = truth[0]["codes"][0]["url"]
        d_px = float(np.median([t["codes"][0]["diameter_px"] for t in truth]))
        diameter = d_px * args.scale
        size = int(round(diameter * 2.2))
        a = canvas_from_svg(diameter, size)
        acc = np.zeros((size, size, 3), np.float64)
        written = {}
        for i, (f, t) in enumerate(zip(frames, truth)):
            h = np.array(t["codes"][0]["homography"], dtype=np.float64).reshape(3, 3)
            img = cv2.imread(f, cv2.IMREAD_COLOR)
            # canvas pixel -> SVG -> frame pixel
            m = h @ np.linalg.inv(a)
            warped = cv2.warpPerspective(img, m, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                         borderMode=cv2.BORDER_REPLICATE)
            acc += warped
            n = i + 1
            if n in counts:
                out = os.path.join(args.work, "%s_n%02d.png" % (name, n))
                cv2.imwrite(out, np.clip(np.round(acc / n), 0, 255).astype(np.uint8))
                json.dump({"codes": [{"url": url, "homography": list(a.reshape(-1))}], "lookalikes": []},
                          open(out[:-4] + ".json", "w"))
                written[n] = out
        rows.append((name, url, written))
        files_all += list(written.values())
    res = subprocess.run([args.bin, "--truth-hints"] + files_all, capture_output=True, text=True)
    by_file = {}
    for line in res.stdout.splitlines():
        j = json.loads(line)
        hinted = [d for d in j.get("truth_hinted", {}).get("detections", [])]
        found = [d for d in j.get("detections", [])]
        by_file[j["file"]] = (hinted, found)
    totals = {n: 0 for n in counts}
    wrong = 0
    print("%-12s %s   (T: read from the true plane, S: also by the full search; x: failed, .: nothing)"
          % ("sequence", " ".join("n=%-3d" % n for n in counts)))
    for name, url, written in rows:
        cells = []
        for n in counts:
            hinted, found = by_file.get(written.get(n), ([], []))
            cell = ""
            for label, dets in (("T", hinted), ("S", found)):
                mark = "."
                for d in dets:
                    if d.get("state") == "decoded":
                        if d.get("url") == url:
                            mark = label
                        else:
                            mark = "W"
                            wrong += 1
                    elif mark == ".":
                        mark = "x"
                cell += mark
            totals[n] += cell[0] == "T"
            cells.append("%-5s" % cell)
        print("%-12s %s" % (name, " ".join(cells)))
    print("read from the true plane: " + ", ".join("n=%d: %d/%d" % (n, totals[n], len(rows)) for n in counts),
          "; wrong URLs %d" % wrong)


if __name__ == "__main__":
    main()
