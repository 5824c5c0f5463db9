#!/usr/bin/env python3
"""Makes the small committed fixtures of the session tests with tools/synth (rsvg-rendered
codes, independent of the project's own renderer):

    python3 tools/session/make_fixtures.py        # writes Tests/Fixtures/Session/

  pose/FRAME.{jpg,json}        single 640x480 camera-like frames, one code >= 100 px each, with
                               intrinsics and the true pose (tools/synth ground truth)
  orbit/                       a 640x360, 12-frame camera-path sequence (sequence.json: per-frame camera
                               poses) of a readable code, for the size by triangulation
  tiny/, noisy/                480x272, 30-frame sequences of a code too small / too noisy to read in any
                               single frame (sequences.py kinds "tiny" and "noisy")

Only permissively licensed photos (scikit-image's CC0 / public-domain samples) are used as
backgrounds. Keep the whole folder under ~3 MB.
"""
import argparse
import json
import os
import shutil
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "synth"))

import backgrounds  # noqa: E402
import codes  # noqa: E402
import make_sets  # noqa: E402
import sampling  # noqa: E402
import sequences  # noqa: E402


def pose_frames(maker, seed, count, out_dir):
    """Camera-category frames at 640x480, keeping those whose code is at least 100 px across."""
    os.makedirs(out_dir, exist_ok=True)
    kept = []
    index = 0
    while len(kept) < count and index < 200:
        rng = np.random.default_rng([seed, 40, index])
        index += 1
        spec = maker.frame("camera", rng)
        codes_ = spec.get("codes", [])
        if len(codes_) != 1:
            continue
        import scene
        img, truth = scene.render(spec, maker.factory, maker.bgs, rng)
        c = truth["codes"][0]
        if c["diameter_px"] < 100 or c["diameter_px"] > 420:
            continue
        truth["seed"] = [seed, 40, index - 1]
        name = "pose_%02d" % len(kept)
        make_sets.write_frame(out_dir, name, img, truth, spec.get("jpeg_quality") or 90)
        kept.append({"file": name + ".jpg", "diameter_px": c["diameter_px"], "tilt_deg": c["tilt_deg"]})
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump({"schema": "appclipcodekit.session.fixtures.pose/1", "seed": seed, "frames": kept}, f, indent=1)
        f.write("\n")
    return kept


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "Tests", "Fixtures", "Session"))
    ap.add_argument("--seed", type=int, default=4040)
    ap.add_argument("--generator")
    ap.add_argument("--cache", default=os.path.join(ROOT, "out", "cache"))
    ap.add_argument("--pose-frames", type=int, default=10)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    factory = codes.CodeFactory(args.cache, generator=args.generator)
    pool = sampling.build_pool(factory, args.seed, 24)
    bgs = backgrounds.Backgrounds("permissive")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)

    maker = make_sets.Maker(factory, bgs, pool, size=(640, 480))
    kept = pose_frames(maker, args.seed, args.pose_frames, os.path.join(args.out, "pose"))
    print("pose: %d frames" % len(kept))

    maker = make_sets.Maker(factory, bgs, pool)
    for kind, frames, size in (("orbit", 12, (640, 360)), ("tiny", 30, (480, 272)), ("noisy", 30, (480, 272))):
        tmp = os.path.join(args.out, "_" + kind)
        seq = sequences.make_sequence(maker, kind, args.seed, 0, frames, tmp, size)
        os.rename(os.path.join(tmp, seq["name"]), os.path.join(args.out, kind))
        os.rmdir(tmp)
        print("%s: %d frames, code %.1f-%.1f px" % (kind, frames, min(f["diameter_px"] for f in seq["frames"]),
                                                   max(f["diameter_px"] for f in seq["frames"])))
    total = 0
    for d, _, files in os.walk(args.out):
        total += sum(os.path.getsize(os.path.join(d, f)) for f in files)
    print("total %.2f MB" % (total / 1e6))


if __name__ == "__main__":
    main()
