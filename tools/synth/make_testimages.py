#!/usr/bin/env python3
"""Makes the small committed sample in TestImages/ (keep it under ~3 MB):

    python3 tools/synth/make_testimages.py            # writes TestImages/
    python3 tools/synth/make_testimages.py --out /tmp/ti --corpus

  TestImages/<category>/<category>_NN.{jpg,png,json}  18 frames, 1280x720, ground truth beside each
  TestImages/sample_photo.jpg + sample_photo.json     a photo-like 2016x1512 JPEG of a printed box
  TestImages/manifest.json

Only permissively licensed photos (scikit-image's CC0 / public-domain samples) are used, so
the sample can be redistributed with the project.
"""
import argparse
import json
import os
import shutil
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import backgrounds  # noqa: E402
import codes  # noqa: E402
import degrade  # noqa: E402
import make_sets  # noqa: E402
import packaging  # noqa: E402
import sampling  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
SAMPLE = [("clean", 2), ("camera", 3), ("small", 2), ("hard", 2), ("occluded", 2), ("mirrored", 2), ("multi", 2),
          ("negatives", 3)]
# Folders of frames chosen from larger sets for what they exercise (see TestImages/README.md).
KEPT_FOLDERS = ["second_look", "parted_rings"]


def manifest_entry(folder, truth):
    """The manifest's line for a frame in `folder` with ground truth `truth`."""
    return {"file": os.path.join(folder, truth["file"]), "category": truth["category"],
            "codes": len(truth["codes"]), "urls": [c["url"] for c in truth["codes"]]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "TestImages"))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--generator")
    ap.add_argument("--corpus", action="store_true")
    ap.add_argument("--cache", default=os.path.join(ROOT, "out", "cache"))
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    make_sets.PNG_LEVEL = 9

    factory = codes.CodeFactory(args.cache, generator=args.generator, use_corpus=args.corpus)
    pool = sampling.build_pool(factory, args.seed, 48)
    bgs = backgrounds.Backgrounds("permissive")
    maker = make_sets.Maker(factory, bgs, pool, size=sampling.FRAME_SIZES["720p"])

    for category, _ in SAMPLE:
        shutil.rmtree(os.path.join(args.out, category), ignore_errors=True)
    frames = []
    for category, n in SAMPLE:
        out_dir = os.path.join(args.out, category)
        os.makedirs(out_dir, exist_ok=True)
        for i in range(n):
            frames.append(manifest_entry(category, make_sets.make_frame(maker, category, args.seed, i, out_dir)))

    # the photo-like sample
    rng = np.random.default_rng([args.seed, 99])
    code = None
    for url in ("https://example.com/shop?p=123", "https://example.com/shop"):
        code = factory.make(url, template=0, logo="camera")
        if code is not None:
            break
    if code is None:
        code = pool[0]
    photo8 = cv2.imread(os.path.join(backgrounds.SKIMAGE_DIR, "coffee.png"), cv2.IMREAD_COLOR)
    wall8 = cv2.imread(os.path.join(backgrounds.SKIMAGE_DIR, "brick.png"), cv2.IMREAD_COLOR)
    img, truth = packaging.render(factory, code, photo8, wall8, rng)
    truth["background"] = {"kind": "scene", "description": "a printed coffee box in front of a brick wall",
                           "sources": ["skimage/coffee.png (CC0, Rachel Michetti)", "skimage/brick.png (CC0)"]}
    truth["seed"] = [args.seed, 99]
    truth = make_sets.write_frame(args.out, "sample_photo", img, truth, 88)
    frames.append({"file": "sample_photo.jpg", "category": "photo", "codes": 1, "urls": [code.url]})

    # Frames kept from other sets (not remade here; see TestImages/README.md), listed as well.
    for folder in KEPT_FOLDERS:
        kept = os.path.join(args.out, folder)
        if not os.path.isdir(kept):
            continue
        for name in sorted(n for n in os.listdir(kept) if n.endswith(".json")):
            with open(os.path.join(kept, name)) as f:
                frames.append(manifest_entry(folder, json.load(f)))

    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump({"schema": "appclipcodekit.synth.set/1", "seed": args.seed, "code_source": factory.mode,
                   "generator": "appclipcode generate" if factory.generator else None,
                   "backgrounds": "permissive", "frames": frames}, f, indent=1)
        f.write("\n")
    total = 0
    for dirpath, _, files in os.walk(args.out):
        total += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files)
    print("wrote %d frames to %s (%.2f MB)" % (len(frames), args.out, total / 1e6))


if __name__ == "__main__":
    main()
