#!/usr/bin/env python3
"""How visible each code's rim is, for the codes a run read and those it missed.

    python3 tools/dev/score_dev.py out/frames/std --driver PATH --save run.jsonl
    python3 tools/dev/rim_contrast.py run.jsonl [--category hard] [--glare no|yes|any]

For every frame of the category in the saved run, samples the image just inside (385 SVG units
from the centre) and just outside (415) the disc's rim through the frame's ground-truth
homography, every 10 degrees, and reports per code the median luma step across the rim, the
median colour step (Euclidean, BGR), the share of the rim under 15 grey levels of luma step, and
the tilt. The outline search traces luma edges, so a rim with a small luma step (a code's ground
as bright as its surroundings) gives it no closed contour; the colour step says whether colour
edges would. Prints the two groups' medians and every missed code.
"""
import argparse
import json
import statistics

import cv2
import numpy as np

INSIDE, OUTSIDE = 385.0, 415.0   # SVG units from the centre; the rim lies at 400
FAINT = 15                       # grey levels


def rim_steps(image, gray, homography):
    h = np.array(homography, dtype=float).reshape(3, 3)

    def pixel(radius, angle):
        p = h @ [400 + radius * np.cos(angle), 400 + radius * np.sin(angle), 1.0]
        x, y = int(round(p[0] / p[2])), int(round(p[1] / p[2]))
        return (x, y) if 0 <= x < gray.shape[1] and 0 <= y < gray.shape[0] else None

    luma, colour = [], []
    for degrees in range(0, 360, 10):
        a, b = pixel(INSIDE, np.radians(degrees)), pixel(OUTSIDE, np.radians(degrees))
        if a is None or b is None:
            continue
        luma.append(abs(float(gray[a[1], a[0]]) - float(gray[b[1], b[0]])))
        colour.append(float(np.linalg.norm(image[a[1], a[0]].astype(float) - image[b[1], b[0]].astype(float))))
    return luma, colour


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", help="a score_dev.py --save file")
    ap.add_argument("--category", default="hard")
    ap.add_argument("--glare", choices=["no", "yes", "any"], default="no")
    args = ap.parse_args()
    groups = {True: [], False: []}
    for line in open(args.run):
        row = json.loads(line)
        if f"/{args.category}/" not in row["file"]:
            continue
        truth = json.load(open(row["file"].rsplit(".", 1)[0] + ".json"))
        if args.glare != "any" and bool(truth.get("glare")) != (args.glare == "yes"):
            continue
        image = cv2.imread(row["file"])
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        read_urls = {c.get("url") for c in row["codes"] if c["state"] == "decoded"}
        for code in truth["codes"]:
            luma, colour = rim_steps(image, gray, code["homography"])
            if not luma:
                continue
            decoded = code["url"] in read_urls if code["url"] else bool(read_urls)
            groups[decoded].append((statistics.median(luma), statistics.median(colour),
                                    sum(v < FAINT for v in luma) / len(luma), code["tilt_deg"],
                                    row["file"].rsplit("/", 1)[-1]))
    for decoded in (True, False):
        codes = groups[decoded]
        if not codes:
            continue
        print(f"{'decoded' if decoded else 'missed'}: {len(codes)} codes; medians: luma step "
              f"{statistics.median(c[0] for c in codes):.1f}, colour step {statistics.median(c[1] for c in codes):.1f}, "
              f"rim share under {FAINT} grey levels {statistics.median(c[2] for c in codes):.2f}")
    for luma, colour, faint, tilt, name in sorted(groups[False]):
        print(f"  {name}: luma step {luma:.1f}, colour step {colour:.1f}, faint {faint:.2f}, tilt {tilt:.0f} deg")


if __name__ == "__main__":
    main()
