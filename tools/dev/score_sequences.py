#!/usr/bin/env python3
"""Reads sequences with the development driver, each frame hinted with the last frame's
detections (detect_main --sequence), and prints per sequence one letter per frame
(D decoded the true URL, W a wrong URL, f a failed detection, . nothing) and the first
decoded frame.

    python3 tools/dev/score_sequences.py out/session/weak/*/ [--frames 30] [--bin PATH]
        [--acquire] [--seed-truth | --truth-every]

The detector alone, without the Swift session's prediction and evidence: tells the
reader's multi-frame fusion from the session's tracking.
"""
import argparse
import glob
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--bin", default="/tmp/acc_dev_build/release/detect_main")
    ap.add_argument("--acquire", action="store_true",
                    help="detector options as sessions set them: acquire_unread, and min_diameter_px 20")
    ap.add_argument("--truth-every", action="store_true",
                    help="hint every frame with its ground truth only (fusion's ceiling)")
    ap.add_argument("--seed-truth", action="store_true",
                    help="hint frames with their ground truth until something is found (tracking's own reach)")
    args = ap.parse_args()
    flags = [f for f, on in (("--seed-truth", args.seed_truth), ("--truth-every", args.truth_every),
                             ("--acquire", args.acquire)) if on]
    if args.acquire:
        flags += ["--min-diameter", "20"]
    decoded = wrong = 0
    for folder in args.folders:
        files = sorted(glob.glob(os.path.join(folder, "frame_*.jpg")))[: args.frames]
        if not files:
            continue
        with open(files[0][:-4] + ".json") as f:
            url = json.load(f)["codes"][0]["url"]
        out = subprocess.run([args.bin, "--sequence"] + flags + files, capture_output=True, text=True, check=True)
        letters, first = [], None
        for i, line in enumerate(out.stdout.splitlines()):
            letter = "."
            for d in json.loads(line).get("detections", []):
                if d["state"] == "decoded":
                    if d["url"] == url:
                        letter = "D"
                        first = i if first is None else first
                    else:
                        letter = "W"
                        wrong += 1
                elif letter == ".":
                    letter = "f"
            letters.append(letter)
        decoded += first is not None
        print("%-14s %s first decoded %s" % (os.path.basename(folder.rstrip("/")), "".join(letters), first))
    print("decoded %d/%d within %d frames, wrong URLs %d" % (decoded, len(args.folders), args.frames, wrong))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
