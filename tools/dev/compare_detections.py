#!/usr/bin/env python3
"""Compares two builds of the development driver, or two saved scoring runs.

    # do two drivers give the same detections (timings aside) on every frame of the sets?
    python3 tools/dev/compare_detections.py identical OLD_DRIVER NEW_DRIVER out/frames/std out/frames/held2 [--jobs 2]

    # which codes did a change gain and lose, frame by frame (files from score_dev.py --save)?
    python3 tools/dev/compare_detections.py gains OLD.jsonl NEW.jsonl

`identical` exits 1 when any frame differs and names the first few; `gains` prints one line
per frame that gained (+) or lost (-) decoded URLs, then the totals.
"""
import argparse
import json
import sys
from score_dev import driver_lines, frames as set_frames   # this folder


def frames(set_dirs):
    return [f for set_dir in set_dirs for f in set_frames(set_dir)]


def detections(driver, files, jobs):
    """Each frame's driver line without its "stats" (timings differ from run to run)."""
    lines = {}
    for d in driver_lines(driver, files, jobs):
        d.pop("stats", None)
        lines[d["file"]] = json.dumps(d, sort_keys=True)
    return lines


def identical(args):
    files = frames(args.sets)
    old = detections(args.old, files, args.jobs)
    new = detections(args.new, files, args.jobs)
    differing = [f for f in files if old.get(f) != new.get(f)]
    print(f"{len(files)} frames, {len(differing)} with different detections")
    for f in differing[:10]:
        print("  " + f)
    return 1 if differing else 0


def decoded(path):
    out = {}
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            out[d["file"]] = {c["url"] for c in d.get("codes", []) if c.get("state") == "decoded"}
    return out


def gains(args):
    old, new = decoded(args.old), decoded(args.new)
    gained = lost = 0
    for f in sorted(set(old) | set(new)):
        plus, minus = new.get(f, set()) - old.get(f, set()), old.get(f, set()) - new.get(f, set())
        if plus:
            gained += len(plus)
            print(f"+ {f} {' '.join(sorted(plus))}")
        if minus:
            lost += len(minus)
            print(f"- {f} {' '.join(sorted(minus))}")
    print(f"gained {gained}, lost {lost}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    a = sub.add_parser("identical", help="same detections from two drivers?")
    a.add_argument("old")
    a.add_argument("new")
    a.add_argument("sets", nargs="+")
    a.add_argument("--jobs", type=int, default=2)
    b = sub.add_parser("gains", help="codes gained and lost between two saved runs")
    b.add_argument("old")
    b.add_argument("new")
    args = ap.parse_args()
    sys.exit(identical(args) if args.command == "identical" else gains(args))


if __name__ == "__main__":
    main()
