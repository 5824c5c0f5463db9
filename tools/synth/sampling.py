"""Random choices for frames: the code pool, poses that satisfy a category, degradations.

Every function takes a numpy Generator; nothing here reads the clock or global state.
"""
import math

import numpy as np

import camera
import codes
import lookalikes
import occlusion

FRAME_SIZES = {"720p": (1280, 720), "1080p": (1920, 1080), "photo": (4032, 3024)}

WORDS = ["shop", "cafe", "menu", "park", "ride", "bike", "book", "tea", "pay", "car", "scan", "play", "eat",
         "news", "help", "pizza", "go", "try", "app", "order", "ticket", "museum", "store", "event"]
TLDS = ["com", "net", "org", "io", "app", "de", "co", "fr"]


def random_urls(rng, n):
    """Short URLs of the kinds App Clip Codes carry; the generator rejects what does not fit."""
    out = []
    for _ in range(n):
        w1, w2 = WORDS[int(rng.integers(len(WORDS)))], WORDS[int(rng.integers(len(WORDS)))]
        tld = TLDS[int(rng.integers(len(TLDS)))]
        form = int(rng.integers(6))
        num = int(rng.integers(1, 100000))
        if form == 0:
            out.append("https://example.com/%s?p=%d" % (w1, num % 1000))
        elif form == 1:
            out.append("https://%s.%s/%s" % (w1, tld, w2))
        elif form == 2:
            out.append("https://appclip.%s%s.%s/%s" % (w1, w2, tld, w1))
        elif form == 3:
            out.append("https://%s.%s/%s?id=%d" % (w1, tld, w2, num))
        elif form == 4:
            out.append("https://%s%d.%s" % (w1, num % 100, tld))
        else:
            out.append("https://www.%s.%s/%s/%d" % (w1, tld, w2, num % 10000))
    return out


def _luma(hexcolor):
    r, g, b = (int(hexcolor[i:i + 2], 16) / 255.0 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def random_color_pair(rng):
    """A custom foreground/background pair with enough luminance difference to be a sane design."""
    while True:
        fg = "%02X%02X%02X" % tuple(int(v) for v in rng.integers(0, 256, 3))
        bg = "%02X%02X%02X" % tuple(int(v) for v in rng.integers(0, 256, 3))
        if abs(_luma(fg) - _luma(bg)) >= 0.45:
            return fg, bg


def build_pool(factory, seed, size, log=print):
    """A fixed list of codes covering all 18 templates, custom colors and the three logos."""
    rng = np.random.default_rng([seed, 7777])
    urls = list(factory.candidate_urls())
    if factory.mode == "generator":
        urls += random_urls(rng, max(size, 64))
    order = rng.permutation(len(urls))
    pool, rejected = [], 0
    i = 0
    for j in order:
        if len(pool) >= size:
            break
        url = urls[int(j)]
        logo = codes.LOGO_KINDS[i % 3]
        if i % 7 == 6:
            code = factory.make(url, colors=random_color_pair(rng), logo=logo)
        else:
            code = factory.make(url, template=(i - i // 7) % 18, logo=logo)
        if code is None:
            rejected += 1
            continue
        pool.append(code)
        i += 1
    if not pool:
        raise SystemExit("no code could be generated")
    log("code pool: %d codes (%d URLs rejected by the generator)" % (len(pool), rejected))
    return pool


def loguniform(rng, lo, hi):
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def intrinsics(rng, width, height):
    hfov = float(rng.uniform(58, 74))
    off = (float(rng.uniform(-0.01, 0.01)) * width, float(rng.uniform(-0.01, 0.01)) * height)
    return camera.intrinsics(width, height, hfov, off)


def place(rng, k, width, height, d_range, tilt_range, others=(), extent=1.0, margin=4.0, tries=400,
          mirror_ok=True):
    """A pose for a disc (code or look-alike) whose projected major axis lies in d_range px,
    fully inside the frame, not overlapping `others` (list of (center, radius) in pixels).
    extent: the planar object's radius relative to the code's (card margins).
    Returns (R, t, D, center, radius_px) or None."""
    dlo, dhi = d_range
    for _ in range(tries):
        D = float(rng.uniform(0.025, 0.12))
        d = loguniform(rng, dlo, dhi)
        tilt = float(rng.uniform(*tilt_range))
        tdir = float(rng.uniform(0, 360))
        roll = float(rng.uniform(0, 360))
        r_img = d / 2.0 * extent + margin
        if 2 * r_img >= min(width, height) - 2:
            continue
        cx = float(rng.uniform(r_img, width - 1 - r_img))
        cy = float(rng.uniform(r_img, height - 1 - r_img))
        depth = k["fx"] * D / d
        R, t = camera.pose_at_pixel(k, (cx, cy), depth, tilt, tdir, roll)
        if camera.depths(R, t, D * extent).min() <= 0.01:
            continue
        H = camera.homography(k, R, t, D)
        major, _ = camera.ellipse_axes(H)
        if not (dlo <= major <= dhi):
            continue
        poly = camera.rim_polygon(H, 72, 400.0 * extent)
        if (poly[:, 0].min() < margin or poly[:, 1].min() < margin or poly[:, 0].max() > width - 1 - margin
                or poly[:, 1].max() > height - 1 - margin):
            continue
        center = camera.apply_h(H, [(400.0, 400.0)])[0]
        radius = float(np.max(np.hypot(poly[:, 0] - center[0], poly[:, 1] - center[1])))
        if any(math.hypot(center[0] - c[0], center[1] - c[1]) < (radius + r) * 1.05 for c, r in others):
            continue
        return R, t, D, (float(center[0]), float(center[1])), radius
    return None


def card(rng, code, prob):
    """Maybe a printed surround (label/poster) around the code."""
    if rng.random() >= prob:
        return None
    choice = rng.random()
    if choice < 0.45:
        bgr = [255, 255, 255]
    elif choice < 0.7:
        bg = code.palette["background"]
        bgr = [int(bg[4:6], 16), int(bg[2:4], 16), int(bg[0:2], 16)]
    else:
        bgr = [int(v) for v in rng.integers(30, 256, 3)]
    return {"shape": "circle" if rng.random() < 0.25 else "square", "margin": float(rng.uniform(40, 220)),
            "corner": float(rng.uniform(0.02, 0.2)), "bgr": bgr}


def card_extent(c):
    if not c:
        return 1.0
    m = c["margin"]
    return (400 + m) / 400.0 * (1.0 if c["shape"] == "circle" else 1.42)


def camera_degradation(rng, spec, blur_max=1.2, jpeg=(60, 95), dim_prob=0.2, motion_prob=0.25, motion_max=2.5):
    """Phone-like light, optics, sensor and file settings, written into spec."""
    dim = rng.random() < dim_prob
    gain = float(rng.uniform(0.15, 0.45)) if dim else float(rng.uniform(0.6, 1.1))
    spec["light"] = {"gain": round(gain, 4), "gradient": round(float(rng.uniform(0, 0.6)), 4),
                     "gradient_angle_deg": round(float(rng.uniform(0, 360)), 2),
                     "vignetting": round(float(rng.uniform(0, 0.35)), 4), "dim": bool(dim)}
    spec["blur_sigma"] = float(rng.uniform(0, blur_max))
    if rng.random() < motion_prob:
        spec["motion_blur"] = {"length_px": round(float(rng.uniform(0.8, motion_max)), 3),
                               "angle_deg": round(float(rng.uniform(0, 180)), 2)}
    photons = loguniform(rng, 600, 8000)
    spec["noise"] = {"photons_at_white": round(photons, 1), "read_noise_e": round(float(rng.uniform(1.5, 6)), 3),
                     "digital_gain": round(min(4.0, (1.0 / gain) ** 0.8), 4)}
    spec["jpeg_quality"] = int(rng.integers(jpeg[0], jpeg[1] + 1))


def pick_size(rng, weights):
    names = list(weights)
    p = np.array([weights[n] for n in names], dtype=np.float64)
    name = names[int(rng.choice(len(names), p=p / p.sum()))]
    return FRAME_SIZES[name]


def lookalike_objects(rng, k, width, height, count, others, d_range=(60, 500), tilt_range=(0, 50)):
    out = []
    for _ in range(count):
        kind = lookalikes.KINDS[int(rng.integers(len(lookalikes.KINDS)))]
        c = None
        if rng.random() < 0.3:
            c = {"shape": "square", "margin": float(rng.uniform(30, 150)), "bgr": [int(v) for v in rng.integers(40, 256, 3)]}
        placed = place(rng, k, width, height, d_range, tilt_range, others, extent=card_extent(c))
        if placed is None:
            continue
        R, t, D, center, radius = placed
        others.append((center, radius))
        out.append({"kind": kind, "R": R, "t": t, "diameter_m": D, "card": c,
                    "contrast": float(rng.uniform(0.6, 1.0))})
    return out


def occluders_within_capacity(rng, code, tries=150):
    """1-2 occluders over the outer rings that the error correction can undo (worst case),
    touching at least three ring positions. Most of the time the largest of several valid
    candidates is kept, so the set leans toward what the code can only just survive."""
    r4 = 317.9
    r5 = 364.8
    greedy = rng.random() < 0.6
    best, best_frac, valid = None, -1.0, 0
    for _ in range(tries):
        n = 1 if rng.random() < 0.7 else 2
        occ = []
        for _ in range(n):
            deep = rng.random() < 0.45
            occ.append(occlusion.sample_occluder(rng, (r4 - 6) if deep else (r5 - 14), (r4 + 12) if deep else r5))
        acc = occlusion.account(occ, code.info)
        if acc["within_capacity"] and len(acc["positions_touched"]) >= 3:
            valid += 1
            if acc["fraction"] > best_frac:
                best, best_frac = occ, acc["fraction"]
            if not greedy or valid >= 8:
                break
    return best
