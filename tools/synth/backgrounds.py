"""Real photographs (from packages, never the internet) and flat surfaces for backgrounds.

Two groups, both redistributable (see tools/README.md):
  - permissive: scikit-image's bundled sample photos (CC0 / public domain), taken from the
    pinned scikit-image wheel by tools/setup_synth.sh into out/backgrounds/skimage/.
    Only these are used for the committed TestImages/.
  - copyleft: Debian's mate-backgrounds (GPL-2+) and plasma-workspace-wallpapers (LGPL-3)
    photographs, used for generated (uncommitted) sets.
"""
import os

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SKIMAGE_DIR = os.path.join(os.environ.get("ACC_BACKGROUNDS", os.path.join(ROOT, "out", "backgrounds")), "skimage")

# (file, license, credit) — licenses as stated by scikit-image's data documentation.
SKIMAGE_PHOTOS = [
    ("astronaut.png", "public domain", "NASA (Eileen Collins)"),
    ("brick.png", "CC0", "CC0Textures Bricks25"),
    ("camera.png", "CC0", "Lav Varshney"),
    ("chelsea.png", "CC0", "Stefan van der Walt"),
    ("clock_motion.png", "public domain", "Stefan van der Walt"),
    ("coffee.png", "CC0", "Rachel Michetti"),
    ("coins.png", "no known copyright restrictions", "Brooklyn Museum"),
    ("grass.png", "CC0", "CC0Textures"),
    ("gravel.png", "CC0", "CC0Textures Gravel04"),
    ("hubble_deep_field.jpg", "public domain", "NASA"),
    ("retina.jpg", "CC0", "Mikael Haggstrom"),
    ("rocket.jpg", "public domain", "SpaceX"),
    ("text.png", "public domain", "scikit-image"),
]

MATE_DIR = "/usr/share/backgrounds/mate/nature"
MATE_PHOTOS = ["Aqua.jpg", "Blinds.jpg", "Dune.jpg", "FreshFlower.jpg", "Garden.jpg", "GreenMeadow.jpg",
               "LadyBird.jpg", "RainDrops.jpg", "Storm.jpg", "TwoWings.jpg", "Wood.jpg", "YellowFlower.jpg"]
PLASMA_DIR = "/usr/share/wallpapers"
PLASMA_PHOTOS = ["BytheWater", "ColdRipple", "ColorfulCups", "DarkestHour", "EveningGlow", "FallenLeaf",
                 "Grey", "Kite", "OneStandsOut", "Path", "summer_1am"]


def catalog(kind="all"):
    """List of dicts {path, name, license, package}. kind: all | permissive."""
    out = []
    for name, lic, credit in SKIMAGE_PHOTOS:
        p = os.path.join(SKIMAGE_DIR, name)
        if os.path.exists(p):
            out.append({"path": p, "name": "skimage/" + name, "license": lic, "credit": credit,
                        "package": "scikit-image 0.26.0 (PyPI wheel, data only)"})
    if kind == "all":
        for name in MATE_PHOTOS:
            p = os.path.join(MATE_DIR, name)
            if os.path.exists(p):
                out.append({"path": p, "name": "mate/" + name, "license": "GPL-2+",
                            "credit": "see /usr/share/doc/mate-backgrounds/copyright",
                            "package": "mate-backgrounds (Debian)"})
        for name in PLASMA_PHOTOS:
            d = os.path.join(PLASMA_DIR, name, "contents", "images")
            if os.path.isdir(d):
                files = sorted(f for f in os.listdir(d) if not os.path.islink(os.path.join(d, f)))
                if files:
                    out.append({"path": os.path.join(d, files[-1]), "name": "plasma/" + name,
                                "license": "LGPL-3", "credit": "see its metadata.json",
                                "package": "plasma-workspace-wallpapers (Debian)"})
    if not out:
        raise SystemExit("no background photos found: run tools/setup_synth.sh")
    return out


class Backgrounds:
    def __init__(self, kind="all"):
        self.items = catalog(kind)
        self._cache = {}

    def _load(self, item):
        img = self._cache.get(item["path"])
        if img is None:
            img = cv2.imread(item["path"], cv2.IMREAD_COLOR)
            if img is None:
                raise RuntimeError("cannot read " + item["path"])
            self._cache[item["path"]] = img
        return img

    def photo(self, rng, width, height):
        """A random crop of a random photo, resized to width x height (BGR uint8), and its record."""
        item = self.items[int(rng.integers(len(self.items)))]
        img = self._load(item)
        h, w = img.shape[:2]
        # The crop keeps the output's aspect ratio; it covers 45-100% of the limiting side.
        frac = float(rng.uniform(0.45, 1.0))
        aspect = width / height
        cw = min(w, h * aspect) * frac
        ch = cw / aspect
        cw, ch = max(2, int(cw)), max(2, int(ch))
        x0 = int(rng.integers(0, w - cw + 1))
        y0 = int(rng.integers(0, h - ch + 1))
        flip = bool(rng.random() < 0.5)
        crop = img[y0:y0 + ch, x0:x0 + cw]
        interp = cv2.INTER_AREA if cw > width else cv2.INTER_LINEAR
        out = cv2.resize(crop, (width, height), interpolation=interp)
        if flip:
            out = out[:, ::-1].copy()
        record = {"kind": "photo", "source": item["name"], "license": item["license"],
                  "package": item["package"], "crop": [x0, y0, cw, ch],
                  "flipped": flip}
        return out, record


def flat(rng, width, height, white=False):
    """A flat surface: white, or a random paper/wall color."""
    if white:
        color = (255, 255, 255)
    else:
        choices = [(255, 255, 255), (242, 242, 238), (225, 232, 240), (40, 40, 40), (200, 200, 200),
                   (170, 205, 235), (120, 160, 200), (60, 90, 140), (230, 215, 190)]
        color = choices[int(rng.integers(len(choices)))]
    out = np.empty((height, width, 3), np.uint8)
    out[:] = color
    return out, {"kind": "flat", "bgr": list(color)}
