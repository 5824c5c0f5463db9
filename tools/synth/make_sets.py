#!/usr/bin/env python3
"""Makes ground-truthed frame sets for the reader, one folder per category.

    python3 tools/synth/make_sets.py --out out/frames/std --seed 1
    python3 tools/synth/make_sets.py --out out/frames/quick --seed 1 --preset quick
    python3 tools/synth/make_sets.py --out out/frames/neg --seed 2 --counts negatives=1000

Each frame is FILE.jpg or FILE.png with FILE.json beside it (ground truth); the set's
manifest.json lists every frame. The same seed and arguments give the same files (on the
same package versions). See tools/README.md for the conventions.
"""
import argparse
import json
import os
import sys
import time

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import backgrounds  # noqa: E402
import codes  # noqa: E402
import degrade  # noqa: E402
import sampling  # noqa: E402
import scene  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))

# Fixed ids: a category's frames depend on (seed, id, index) only, whatever else is made.
CATEGORY_IDS = {"clean": 1, "camera": 2, "small": 3, "hard": 4, "occluded": 5, "multi": 6, "mirrored": 7,
                "negatives": 8}
PRESETS = {
    "standard": {"clean": 250, "camera": 400, "small": 200, "hard": 250, "occluded": 200, "multi": 150,
                 "mirrored": 150, "negatives": 1000},
    "quick": {"clean": 16, "camera": 24, "small": 12, "hard": 16, "occluded": 12, "multi": 10, "mirrored": 10,
              "negatives": 40},
}


class Maker:
    def __init__(self, factory, bgs, pool, size=None):
        self.factory = factory
        self.bgs = bgs
        self.pool = pool
        self.fixed_size = size

    def size(self, rng, weights):
        return self.fixed_size or sampling.pick_size(rng, weights)

    def code(self, rng):
        return self.pool[int(rng.integers(len(self.pool)))]

    def _codes(self, rng, spec, k, n, d_range, tilt_range, card_prob, occlude=False, contrast=(0.85, 1.0)):
        W, H = spec["width"], spec["height"]
        others = []
        spec["codes"] = []
        for _ in range(n):
            code = self.code(rng)
            c = sampling.card(rng, code, card_prob)
            placed = sampling.place(rng, k, W, H, d_range, tilt_range, others, extent=sampling.card_extent(c))
            if placed is None:
                continue
            R, t, D, center, radius = placed
            others.append((center, radius))
            obj = {"code": code, "R": R, "t": t, "diameter_m": D, "card": c,
                   "contrast": float(rng.uniform(*contrast))}
            if occlude:
                occ = sampling.occluders_within_capacity(rng, code)
                if occ is None:
                    continue
                obj["occluders"] = occ
            spec["codes"].append(obj)
        return others

    def frame(self, category, rng):
        spec = {"category": category}
        if category == "clean":
            W, H = self.size(rng, {"720p": 1, "1080p": 1})
            k = sampling.intrinsics(rng, W, H)
            spec.update(width=W, height=H, intrinsics=k)
            u = rng.random()
            spec["background"] = "white" if u < 0.35 else ("flat" if u < 0.6 else "photo")
            self._codes(rng, spec, k, 1, (64, min(1000, 0.92 * H)), (0, 0), card_prob=0.3, contrast=(1, 1))
            spec["jpeg_quality"] = None
        elif category in ("camera", "mirrored"):
            sizes = {"720p": 0.47, "1080p": 0.47, "photo": 0.06} if category == "camera" else {"720p": 1, "1080p": 1}
            W, H = self.size(rng, sizes)
            k = sampling.intrinsics(rng, W, H)
            spec.update(width=W, height=H, intrinsics=k, background="photo")
            dmax = 1400 if W > 2000 else 600
            others = self._codes(rng, spec, k, 1, (80, dmax), (0, 50 if category == "camera" else 40),
                                 card_prob=0.5, contrast=(0.75, 1.0))
            if rng.random() < 0.2:
                spec["lookalikes"] = sampling.lookalike_objects(rng, k, W, H, 1, others)
            sampling.camera_degradation(rng, spec, blur_max=1.2, jpeg=(60, 95))
            spec["mirrored"] = category == "mirrored"
        elif category == "small":
            W, H = self.size(rng, {"720p": 1, "1080p": 1})
            k = sampling.intrinsics(rng, W, H)
            spec.update(width=W, height=H, intrinsics=k, background="photo" if rng.random() < 0.8 else "flat")
            self._codes(rng, spec, k, 1, (56, 90), (0, 30), card_prob=0.5, contrast=(0.85, 1.0))
            sampling.camera_degradation(rng, spec, blur_max=0.7, jpeg=(75, 95), dim_prob=0.1, motion_prob=0.1,
                                        motion_max=1.2)
        elif category == "hard":
            # Always steep (45-65 deg); blur, JPEG and noise always; then each of low contrast,
            # glare, dim light, veiling glare and motion blur with some probability.
            W, H = self.size(rng, {"720p": 1, "1080p": 1})
            k = sampling.intrinsics(rng, W, H)
            spec.update(width=W, height=H, intrinsics=k, background="photo")
            low = rng.random() < 0.5
            self._codes(rng, spec, k, 1, (120, 520), (45, 65), card_prob=0.4,
                        contrast=(0.45, 0.8) if low else (0.85, 1.0))
            sampling.camera_degradation(rng, spec, blur_max=2.0, jpeg=(35, 70), dim_prob=0.35, motion_prob=0.25,
                                        motion_max=3.0)
            if spec["codes"] and rng.random() < 0.5:
                spec["glares"] = highlight_over_code(spec, rng)
            if rng.random() < 0.25:
                spec["veil"] = {"amount": round(float(rng.uniform(0.1, 0.3)), 4),
                                "level": round(float(rng.uniform(0.3, 0.9)), 4)}
        elif category == "occluded":
            W, H = self.size(rng, {"720p": 1, "1080p": 1})
            k = sampling.intrinsics(rng, W, H)
            spec.update(width=W, height=H, intrinsics=k, background="photo")
            self._codes(rng, spec, k, 1, (120, 500), (0, 35), card_prob=0.5, occlude=True)
            sampling.camera_degradation(rng, spec, blur_max=1.0, jpeg=(70, 95), dim_prob=0.1)
        elif category == "multi":
            W, H = self.size(rng, {"720p": 0.45, "1080p": 0.5, "photo": 0.05})
            k = sampling.intrinsics(rng, W, H)
            spec.update(width=W, height=H, intrinsics=k, background="photo" if rng.random() < 0.85 else "flat")
            n = int(rng.integers(2, 5))
            dmax = 700 if W > 2000 else (300 if W < 1500 else 400)
            self._codes(rng, spec, k, n, (80, dmax), (0, 40), card_prob=0.4, contrast=(0.8, 1.0))
            sampling.camera_degradation(rng, spec, blur_max=1.0, jpeg=(65, 95), dim_prob=0.1)
        elif category == "negatives":
            W, H = self.size(rng, {"720p": 0.47, "1080p": 0.47, "photo": 0.06})
            k = sampling.intrinsics(rng, W, H)
            spec.update(width=W, height=H, intrinsics=k, background="photo" if rng.random() < 0.8 else "flat")
            u = rng.random()
            n = 0 if u < 0.25 else int(rng.integers(1, 5))
            spec["codes"] = []
            spec["lookalikes"] = sampling.lookalike_objects(rng, k, W, H, n, [], d_range=(50, 600 if W < 2000 else 1200))
            sampling.camera_degradation(rng, spec, blur_max=1.5, jpeg=(40, 95), dim_prob=0.2)
        else:
            raise ValueError(category)
        return spec


def code_centre_and_major(spec):
    """The first code's centre in the image and its image ellipse's major axis (pixels)."""
    c = spec["codes"][0]
    hm = scene.camera.homography(spec["intrinsics"], c["R"], c["t"], c["diameter_m"])
    cx, cy = scene.camera.apply_h(hm, [(400.0, 400.0)])[0]
    major, _ = scene.camera.ellipse_axes(hm)
    return cx, cy, major


def highlight_over_code(spec, rng):
    """A specular highlight on the first code (the `glares` entry): a Gaussian of 0.04-0.16
    major axes, strength 0.3-1.2 in linear light, its centre within 0.4 major axes of the code's."""
    cx, cy, major = code_centre_and_major(spec)
    a = float(rng.uniform(0, 2 * np.pi))
    off = float(rng.uniform(0, 0.4)) * major
    return [{"x": float(cx + off * np.cos(a)), "y": float(cy + off * np.sin(a)),
             "radius": float(rng.uniform(0.04, 0.16)) * major,
             "strength": float(rng.uniform(0.3, 1.2))}]


def parse_counts(text, preset):
    counts = dict(PRESETS[preset])
    if text:
        for item in text.split(","):
            name, _, value = item.partition("=")
            if name not in CATEGORY_IDS:
                raise SystemExit("unknown category %r (known: %s)" % (name, ", ".join(CATEGORY_IDS)))
            counts[name] = int(value)
    return counts


PNG_LEVEL = 1   # fast; make_testimages.py raises it to 9 for the committed sample


def write_frame(out_dir, name, img, truth, jpeg_quality):
    ext = ".png" if jpeg_quality is None else ".jpg"
    path = os.path.join(out_dir, name + ext)
    degrade.encode(img, path, jpeg_quality, PNG_LEVEL)
    truth = dict(truth, file=name + ext)
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(truth, f, indent=1, default=_json_default)
        f.write("\n")
    return truth


def _json_default(o):
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    raise TypeError(type(o))


def make_frame(maker, category, seed, index, out_dir):
    rng = np.random.default_rng([seed, CATEGORY_IDS[category], index])
    for attempt in range(20):
        spec = maker.frame(category, rng)
        wants_codes = category != "negatives"
        if not wants_codes or len(spec.get("codes", [])) >= (2 if category == "multi" else 1):
            break
    else:
        raise RuntimeError("could not place a code for %s #%d" % (category, index))
    img, truth = scene.render(spec, maker.factory, maker.bgs, rng)
    truth["seed"] = [seed, CATEGORY_IDS[category], index]
    name = "%s_%05d" % (category, index)
    return write_frame(out_dir, name, img, truth, spec.get("jpeg_quality"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output folder (e.g. out/frames/std)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    ap.add_argument("--counts", help="per-category counts, e.g. camera=100,negatives=1000 (overrides the preset)")
    ap.add_argument("--only", help="comma-separated categories to make (others are skipped)")
    ap.add_argument("--generator", help="appclipcode executable (default: .build-synth/release/appclipcode, "
                                        "else .build/release/appclipcode; an error when neither exists "
                                        "and --corpus is not given)")
    ap.add_argument("--corpus", action="store_true", help="codes from the recolored Apple corpus instead of the generator")
    ap.add_argument("--pool", type=int, default=160, help="number of distinct codes (default 160)")
    ap.add_argument("--backgrounds", choices=["all", "permissive"], default="all")
    ap.add_argument("--cache", default=os.path.join(ROOT, "out", "cache"), help="SVG/render cache folder")
    args = ap.parse_args(argv)

    cv2.setNumThreads(1)
    counts = parse_counts(args.counts, args.preset)
    only = set(args.only.split(",")) if args.only else set(counts)
    factory = codes.CodeFactory(args.cache, generator=args.generator, use_corpus=args.corpus)
    pool = sampling.build_pool(factory, args.seed, args.pool)
    maker = Maker(factory, backgrounds.Backgrounds(args.backgrounds), pool)

    os.makedirs(args.out, exist_ok=True)
    frames = []
    start = time.time()
    done = 0
    total = sum(n for c, n in counts.items() if c in only)
    for category in CATEGORY_IDS:
        if category not in only or counts.get(category, 0) <= 0:
            continue
        out_dir = os.path.join(args.out, category)
        os.makedirs(out_dir, exist_ok=True)
        for i in range(counts[category]):
            truth = make_frame(maker, category, args.seed, i, out_dir)
            frames.append({"file": os.path.join(category, truth["file"]), "category": category,
                           "codes": len(truth["codes"]), "urls": [c["url"] for c in truth["codes"]]})
            done += 1
            if done % 100 == 0:
                el = time.time() - start
                print("%d/%d frames, %.1f s (%.0f ms/frame)" % (done, total, el, 1000 * el / done), flush=True)
    manifest = {
        "schema": "appclipcodekit.synth.set/1",
        "seed": args.seed,
        "counts": {c: n for c, n in counts.items() if c in only},
        "code_source": factory.mode,
        "generator": factory.generator,
        "generator_sha1_16": factory.generator_id,
        "backgrounds": args.backgrounds,
        "pool": args.pool,
        "versions": {"numpy": np.__version__, "opencv": cv2.__version__},
        "frames": frames,
    }
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print("wrote %d frames to %s in %.1f s" % (len(frames), args.out, time.time() - start))


if __name__ == "__main__":
    main()
