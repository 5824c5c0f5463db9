#!/usr/bin/env python3
"""Makes robustness probes: camera-category frames (make_sets.py's `camera`) with one
degradation pushed past the standard sets' range, one folder per probe.

    python3 tools/synth/make_probes.py --out out/frames/probes --seed 7 --count 100 --corpus
    python3 tools/score.py out/frames/probes --cli .build/release/appclipcode

Probes (the frame index fixes the code, pose, background and the camera's other settings,
so frame i shows the same scene under each probe):
  baseline the camera settings unchanged, for comparison
  motion   linear motion blur of 3-7 px (camera: up to 2.5 px, on a quarter of frames)
  defocus  Gaussian blur of sigma 1.5-3.0 px (camera: up to 1.2)
  jpeglow  JPEG quality 15-35 (camera: 60-95)
  noisy    150-500 photons at white (camera: 600-8000), about 3-4x the shot noise
  shade    light falling off across the code (camera: the frame's gentle gradient only):
           half the frames a linear ramp changing the light by 30-80 % across the code's
           major axis, half a soft shadow edge (logistic, 0.05-0.4 major axes wide, its middle
           within 0.3 of the centre) taking 30-70 % of the light on one side; linear light
  glare    a specular highlight over the code (camera: none), as the hard category's: a
           Gaussian of 0.04-0.16 major axes, strength 0.3-1.2 added in linear light (it clips),
           its centre within 0.4 major axes of the code's
Ground truth and conventions are make_sets.py's (tools/README.md).
"""
import argparse
import os
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import backgrounds  # noqa: E402
import codes  # noqa: E402
import make_sets  # noqa: E402
import sampling  # noqa: E402
import scene  # noqa: E402

PROBES = ("baseline", "motion", "defocus", "jpeglow", "noisy", "shade", "glare")
PROBE_ID = 100   # beside make_sets' category ids; one for all probes, so that frame i is one scene


def push(spec, probe, rng):
    """Pushes one degradation of a camera frame's spec past the standard range."""
    if probe == "baseline":
        return
    if probe == "motion":
        spec["motion_blur"] = {"length_px": float(rng.uniform(3, 7)), "angle_deg": float(rng.uniform(0, 180))}
    elif probe == "defocus":
        spec["blur_sigma"] = float(rng.uniform(1.5, 3.0))
    elif probe == "jpeglow":
        spec["jpeg_quality"] = int(rng.integers(15, 36))
    elif probe == "noisy":
        spec["noise"]["photons_at_white"] = float(rng.uniform(150, 500))
    elif probe == "shade":
        if not spec["codes"]:
            return
        cx, cy, major = make_sets.code_centre_and_major(spec)
        shade = {"x": round(float(cx), 2), "y": round(float(cy), 2), "major_px": round(float(major), 2),
                 "angle_deg": round(float(rng.uniform(0, 360)), 2)}
        if rng.random() < 0.5:
            shade.update(kind="ramp", change=round(float(rng.uniform(0.3, 0.8)), 3))
        else:
            shade.update(kind="edge", depth=round(float(rng.uniform(0.3, 0.7)), 3),
                         width=round(float(rng.uniform(0.05, 0.4)), 3), offset=round(float(rng.uniform(-0.3, 0.3)), 3))
        spec["shade"] = shade
    elif probe == "glare":
        if not spec["codes"]:
            return
        spec["glares"] = make_sets.highlight_over_code(spec, rng)
    else:
        raise ValueError(probe)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=100, help="frames per probe")
    ap.add_argument("--only", help="comma-separated probes (default: all)")
    ap.add_argument("--generator", help="appclipcode executable (as make_sets.py)")
    ap.add_argument("--corpus", action="store_true", help="codes from the recolored Apple corpus instead of the generator")
    ap.add_argument("--cache", default=os.path.join(make_sets.ROOT, "out", "cache"))
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    probes = args.only.split(",") if args.only else list(PROBES)
    for p in probes:
        if p not in PROBES:
            raise SystemExit("unknown probe %r (known: %s)" % (p, ", ".join(PROBES)))
    factory = codes.CodeFactory(args.cache, generator=args.generator, use_corpus=args.corpus)
    pool = sampling.build_pool(factory, args.seed, 160)
    maker = make_sets.Maker(factory, backgrounds.Backgrounds("all"), pool)
    for probe in probes:
        out_dir = os.path.join(args.out, probe)
        os.makedirs(out_dir, exist_ok=True)
        for i in range(args.count):
            rng = np.random.default_rng([args.seed, PROBE_ID, i])
            spec = maker.frame("camera", rng)
            push(spec, probe, rng)
            img, truth = scene.render(spec, factory, maker.bgs, rng)
            truth["seed"] = [args.seed, PROBE_ID, i]
            truth["category"] = probe
            make_sets.write_frame(out_dir, "%s_%05d" % (probe, i), img, truth, spec.get("jpeg_quality"))
        print("%s: %d frames" % (probe, args.count), flush=True)


if __name__ == "__main__":
    main()
