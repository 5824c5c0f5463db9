#!/usr/bin/env python3
"""Median single-core latency of the development driver on a frame set.

    tools/dev/build.sh release
    python3 tools/dev/latency.py out/frames/std [--driver PATH] [--count 25] [--nv12]

Takes the first `--count` frames of each size from `camera/` (one code) and `negatives/`
(no code), runs `detect_main --repeat 5 --track` on each (one thread) and prints, per group,
the median over frames of each frame's median time, and of the tracked (hinted) time
where the frame had a code to track. --nv12 hands the driver each frame as a camera's NV12
planes (converted before its clock starts) instead of the JPEG's decoded BGR. Run it on a
quiet machine: other jobs inflate it.
"""
import argparse
import json
import os
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def group_frames(folder, count):
    groups = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".jpg", ".png")):
            continue
        with open(os.path.join(folder, name.rsplit(".", 1)[0] + ".json")) as f:
            truth = json.load(f)
        key = f"{truth['width']}x{truth['height']}"
        groups.setdefault(key, [])
        if len(groups[key]) < count:
            groups[key].append(os.path.join(folder, name))
    return groups


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set_dir")
    ap.add_argument("--driver", default="/tmp/acc_dev_build/release/detect_main")
    ap.add_argument("--count", type=int, default=25)
    ap.add_argument("--nv12", action="store_true", help="read NV12 planes, as a camera delivers them")
    args = ap.parse_args()
    for category in ("camera", "negatives"):
        for size, files in sorted(group_frames(os.path.join(args.set_dir, category), args.count).items()):
            command = [args.driver, "--repeat", "5", "--track"] + (["--nv12"] if args.nv12 else []) + files
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            medians, tracked = [], []
            for line in out.splitlines():
                d = json.loads(line)
                medians.append(d["stats"]["median_ms"])
                # Tracking is timed on frames that hold a code (a failed look-alike in a
                # negative frame would be re-read from its own hint, which says nothing).
                if category == "camera" and "tracked" in d:
                    tracked.append(d["tracked"]["median_ms"])
            text = f"{category:10s} {size:10s} frames {len(medians):3d}  median {statistics.median(medians):6.2f} ms"
            if tracked:
                text += f"  tracked {statistics.median(tracked):5.2f} ms ({len(tracked)} frames)"
            print(text)


if __name__ == "__main__":
    main()
