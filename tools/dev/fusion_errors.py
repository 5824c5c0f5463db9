#!/usr/bin/env python3
"""Where a sequence's fused read stands against the truth, frame by frame (measurement only).

    tools/dev/build.sh debug
    python3 tools/dev/fusion_errors.py out/acquire/weak15/noisy_004 [--frames 30] [--truth-every]
        [--bin /tmp/acc_dev_build/debug/detect_main]

Runs the debug driver with --sequence --acquire --min-diameter 20 (as score_sequences.py does)
and prints per frame:
  - the plane reported on the code against the true one: centre error, rim error (mean and
    largest, px; a plane at the wrong scale shows a large mean), and the in-plane angle of the
    reported code frame in the true one (M: mirrored). Between frames the angle should hold
    still: fused sums are kept in that frame;
  - for each fused read (the trace's "fused N frames"), the rotation hypothesis whose gap bits
    match the truth best: gap bits wrong / erased (p in 0.2..0.8) and, over the arcs, colour bits
    wrong / erased. Errors that stop falling as frames are added are systematic, not noise.
With --truth-every every frame is hinted with its true plane (fusion with perfect hints).
"""
import argparse
import glob
import json
import math
import os
import subprocess

import numpy as np


def truth_bits(binary, url):
    """Expected per-position letters: arc start ('1'/'0') and arc colour ('0'/'1', '-' inside an arc)."""
    bits = json.loads(subprocess.run([binary, "--bits", url], capture_output=True, text=True, check=True).stdout)
    arcs = "".join("1" if g == "0" else "0" for g in bits["gaps"])
    colours, k = [], 0
    for g in bits["gaps"]:
        colours.append(bits["colors"][k] if g == "0" else "-")
        k += g == "0"
    return arcs, colours


def bit_errors(arcs, colours, seen_arcs, seen_colours):
    wrong = sum(1 for e, o in zip(arcs, seen_arcs) if o != "?" and o != e)
    erased = seen_arcs.count("?")
    c_wrong = sum(1 for e, o in zip(colours, seen_colours) if e != "-" and o != "?" and o != e)
    c_erased = sum(1 for e, o in zip(colours, seen_colours) if e != "-" and o == "?")
    return wrong, erased, c_wrong, c_erased


def plane_error(detection, truth):
    """Centre error, rim error mean / largest (px) and in-plane angle of the reported frame."""
    t = np.array(truth["homography"]).reshape(3, 3)
    inverse = np.linalg.inv(np.array(detection["homography"]).reshape(3, 3))

    def to_reported(u, v):
        p = t @ np.array([u, v, 1.0])
        q = inverse @ (p / p[2])
        return q[:2] / q[2]

    px = truth["diameter_px"] / 800.0
    radial = [px * (np.hypot(*(to_reported(400 + r * math.cos(a), 400 + r * math.sin(a)) - 400)) - r)
              for a in np.linspace(0, 2 * math.pi, 64, endpoint=False) for r in (400.0, 200.0)]
    x_axis = to_reported(700, 400) - 400
    y_axis = to_reported(400, 700) - 400
    angle = math.degrees(math.atan2(x_axis[1], x_axis[0]))
    mirrored = ((math.degrees(math.atan2(y_axis[1], y_axis[0])) - angle) % 360) > 180
    centre = math.hypot(detection["center"][0] - truth["center"][0], detection["center"][1] - truth["center"][1])
    return centre, float(np.mean(radial)), float(np.max(np.abs(radial))), angle, mirrored


def fused_reads(trace, arcs, colours):
    """Per fused read in the trace: (frames fused, best hypothesis's errors, its line, codec verdict)."""
    out, block, hypothesis = [], [], None
    for line in trace.splitlines():
        s = line.strip()
        if s.startswith("hyp theta"):
            hypothesis = s
        elif s.startswith("bits ") and hypothesis is not None:
            seen_arcs, seen_colours = s.split()[1:3]
            block.append((bit_errors(arcs, colours, seen_arcs, seen_colours), hypothesis))
            hypothesis = None
        elif s.startswith("fused "):
            if block:
                errors, hyp = min(block, key=lambda b: 2 * b[0][0] + b[0][1])
                out.append((int(s.split()[1]), errors, hyp.split(":")[0], hyp.split("->")[-1].strip()))
            block = []
        elif s.startswith("turned "):   # read_fused's own hypotheses follow
            block, hypothesis = [], None
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--truth-every", action="store_true")
    ap.add_argument("--bin", default="/tmp/acc_dev_build/debug/detect_main")
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(args.folder, "frame_*.jpg")))[: args.frames]
    truths = [json.load(open(f[:-4] + ".json"))["codes"][0] for f in files]
    arcs, colours = truth_bits(args.bin, truths[0]["url"])
    flags = ["--sequence", "--acquire", "--min-diameter", "20"] + (["--truth-every"] if args.truth_every else [])
    run = subprocess.run([args.bin] + flags + files, capture_output=True, text=True, check=True)
    if "fused" not in run.stderr and "acquire" not in run.stderr:
        print("(no trace on stderr: is %s a debug build?)" % args.bin)
    print("frame  state  centre  rim mean/max px  angle")
    for i, (line, truth) in enumerate(zip(run.stdout.splitlines(), truths)):
        on_code = [d for d in json.loads(line).get("detections", [])
                   if math.hypot(d["center"][0] - truth["center"][0], d["center"][1] - truth["center"][1])
                   < 0.3 * truth["diameter_px"]]
        if not on_code:
            print("%5d  -" % i)
            continue
        d = on_code[-1]
        centre, rim, rim_max, angle, mirrored = plane_error(d, truth)
        state = "D" if d["state"] == "decoded" and d["url"] == truth["url"] else "W" if d["state"] == "decoded" else "f"
        print("%5d  %s  %6.2f  %+6.2f / %5.2f  %7.2f%s" % (i, state, centre, rim, rim_max, angle, " M" if mirrored else ""))
    print("fused  gap wrong/erased  colour wrong/erased  best hypothesis (by gap bits)")
    for frames, (wrong, erased, c_wrong, c_erased), hyp, verdict in fused_reads(run.stderr, arcs, colours):
        print("%5d  %5d / %3d        %5d / %3d          %s: %s" % (frames, wrong, erased, c_wrong, c_erased, hyp, verdict[:50]))


if __name__ == "__main__":
    main()
