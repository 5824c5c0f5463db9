#!/usr/bin/env python3
"""How far the locator's candidates got towards each missed code, from a debug trace.

    python3 tools/dev/locate_funnel.py run.jsonl [more.jsonl ...] --driver DEBUG_DRIVER [--show]

For every code a saved run did not decode (as `misses.py` lists them), the frame is read
again by a `tools/dev/build.sh debug` driver and its stage trace is searched for lines
placed within 0.6 diameters of the code's true centre. Each miss is then put at the furthest
stage it reached. The stages, furthest first:

    examined    a candidate near it was read (rough fit, rings) and failed
    ranked      ranked, but the candidate budget ended before it was read
    merged      among the merged peaks or their midpoints, not within the ranked candidates
    outline     found only as an outline (ellipse contour), not read
    raw peak    a level's peak, merged away or outvoted before ranking
    no peak     none of these lines near the code

A line within reach of a neighbouring code counts for both in a frame of several codes.
`--show` prints the matching trace lines under each miss. The stage is the trace's word,
not a judgement of the cause: a miss `examined` from a peak 15 % off the centre is lost by
the rough fit, one `ranked` by the budget.
"""
import argparse
import math
import re
import subprocess

from misses import conditions, missed_codes   # this folder

STAGE_LINE = re.compile(r"\s*(raw candidate|outline|ellipse candidate|merged|midpoint|ranked|candidate|ellipse|refine)"
                        r"\s+(-?[\d.]+),(-?[\d.]+)")
# Furthest first: the first stage of this list a miss has a line for is where it is put.
ORDER = [("examined", {"candidate", "ellipse", "refine"}), ("ranked", {"ranked"}),
         ("merged", {"merged", "midpoint"}), ("outline", {"outline", "ellipse candidate"}),
         ("raw peak", {"raw candidate"})]


def trace(driver, image):
    return subprocess.run([driver, image], capture_output=True, text=True).stderr.splitlines()


def near_lines(lines, code):
    cx, cy = code["center"]
    reach = 0.6 * code["diameter_px"]
    for line in lines:
        m = STAGE_LINE.match(line)
        if m and math.hypot(float(m.group(2)) - cx, float(m.group(3)) - cy) < reach:
            yield m.group(1), line.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="score_dev.py --save files")
    ap.add_argument("--driver", required=True, help="a tools/dev/build.sh debug detect_main")
    ap.add_argument("--show", action="store_true", help="print the trace lines near each missed code")
    args = ap.parse_args()
    traces = {}
    counts = {}
    for run in args.runs:
        for d, truth, code in missed_codes(run):
            if d["file"] not in traces:
                traces[d["file"]] = trace(args.driver, d["file"])
            near = list(near_lines(traces[d["file"]], code))
            kinds = {k for k, _ in near}
            stage = next((name for name, words in ORDER if kinds & words), "no peak")
            counts[stage] = counts.get(stage, 0) + 1
            print(f"{stage:9s}  {conditions(d, truth, code)}")
            if args.show:
                for _, line in near:
                    if not line.startswith("raw candidate"):
                        print("           " + line[:150])
    stages = [name for name, _ in ORDER] + ["no peak"]
    print(f"{sum(counts.values())} codes missed: " + ", ".join(f"{s} {counts[s]}" for s in stages if s in counts))


if __name__ == "__main__":
    main()
