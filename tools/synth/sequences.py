#!/usr/bin/env python3
"""Frame sequences of a camera moving smoothly around one code, with known poses per frame.

    python3 tools/synth/sequences.py --out out/sequences/std --seed 1
    python3 tools/synth/sequences.py --out out/sequences/tiny --seed 2 --kinds tiny,noisy --count 4 --frames 90

Kinds:
  orbit     the camera circles the code at a readable distance (diameter ~140-400 px)
  approach  the camera moves in from far (~25 px) to near (~260 px)
  tiny      the code stays ~42-54 px across: under what one frame reads reliably, yet with
            the rings still resolved (measured at the true plane on the approach sequences,
            the rings' modulation is under 3% of the code's contrast below ~44 px: smaller
            codes hold no readable rings, however many frames are fused)
  noisy     ~50-70 px, very dim light and strong noise, low JPEG quality: no single frame
            should read; only accumulating evidence over frames can

The code is printed on a large flat surface textured with a background photograph, so the
background moves with correct parallax. Each sequence folder holds frame_NNNN.jpg, the
usual per-frame ground truth frame_NNNN.json (category "sequence-KIND") and sequence.json
with every frame's camera-to-world transform. World = the code frame (origin at the code
center, x = SVG +u, y = SVG +v, z into the printed surface, meters); the camera frame is x
right, y down, z forward; camera_to_world is a row-major 4x4 [R_cw | C; 0 0 0 1] with
X_world = R_cw @ X_cam + C.
"""
import argparse
import json
import math
import os
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import backgrounds  # noqa: E402
import camera  # noqa: E402
import codes  # noqa: E402
import compose  # noqa: E402
import make_sets  # noqa: E402
import sampling  # noqa: E402
import scene  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
KIND_IDS = {"orbit": 1, "approach": 2, "tiny": 3, "noisy": 4}
FPS = 30.0


def smooth(rng, amplitude, freqs=(0.15, 0.4)):
    """A smooth random function of time: two sinusoids with random phases."""
    f1, f2 = (float(rng.uniform(*freqs)) for _ in range(2))
    p1, p2 = (float(rng.uniform(0, 2 * math.pi)) for _ in range(2))
    w = float(rng.uniform(0.3, 0.7))
    return lambda t: amplitude * (w * math.sin(2 * math.pi * f1 * t + p1) + (1 - w) * math.sin(2 * math.pi * f2 * t + p2))


def shake(rng, amplitude):
    """Hand tremor: small, faster motion (2-6 Hz)."""
    parts = [(float(rng.uniform(2, 6)), float(rng.uniform(0, 2 * math.pi)), float(rng.normal())) for _ in range(3)]
    return lambda t: amplitude * sum(a * math.sin(2 * math.pi * f * t + p) for f, p, a in parts) / 1.7


def plan(kind, rng, k, D, n):
    """Per-frame (camera position C, world->camera R) in the code frame."""
    fx = k["fx"]
    if kind == "orbit":
        d0, d1 = float(rng.uniform(140, 400)), None
    elif kind == "approach":
        d0, d1 = float(rng.uniform(22, 30)), float(rng.uniform(220, 300))
    elif kind == "tiny":
        d0, d1 = float(rng.uniform(42, 54)), None
    else:
        d0, d1 = float(rng.uniform(52, 68)), None
    dist0 = fx * D / d0
    theta0 = math.radians(float(rng.uniform(5, 35) if kind == "orbit" else rng.uniform(0, 25)))
    phi0 = float(rng.uniform(0, 2 * math.pi))
    phi_rate = float(rng.uniform(0.2, 0.6)) * (1 if rng.random() < 0.5 else -1)   # rad/s
    d_theta = smooth(rng, math.radians(10 if kind == "orbit" else 5))
    d_dist = smooth(rng, 0.12)
    roll = smooth(rng, math.radians(15))
    roll0 = float(rng.uniform(-math.pi, math.pi)) if rng.random() < 0.5 else 0.0
    wander = [smooth(rng, 0.15 * D), smooth(rng, 0.15 * D)]
    tremor = [shake(rng, 0.0015) for _ in range(3)] + [shake(rng, math.radians(0.15)) for _ in range(2)]
    out = []
    for i in range(n):
        t = i / FPS
        if d1 is None:
            dist = dist0 * math.exp(d_dist(t))
        else:
            f = i / max(1, n - 1)
            dist = fx * D / (d0 * (d1 / d0) ** f)
        theta = min(math.radians(60), max(0.0, theta0 + d_theta(t)))
        phi = phi0 + phi_rate * t
        C = np.array([dist * math.sin(theta) * math.cos(phi), dist * math.sin(theta) * math.sin(phi),
                      -dist * math.cos(theta)])
        C += np.array([tremor[0](t), tremor[1](t), tremor[2](t)])
        target = np.array([wander[0](t), wander[1](t), 0.0])
        # image "up" follows the code's own up (-y), turned by a slowly varying roll
        r = roll0 + roll(t)
        up = np.array([math.sin(r), -math.cos(r), 0.0])
        R = camera.look_at(C, target, up)
        R = camera.rodrigues((1, 0, 0), tremor[3](t)) @ camera.rodrigues((0, 1, 0), tremor[4](t)) @ R
        out.append((C, R))
    return out


def photo_plane_background(bgs, rng, k, R, t, D, width, height, photo_state, extent_units):
    """The background photo as a texture on the code's plane, seen by this camera."""
    if "canvas" not in photo_state:
        img8, record = bgs.photo(rng, 1600, 1600)
        photo_state["canvas"] = compose.premult_to_linear(
            np.concatenate([img8, np.full(img8.shape[:2] + (1,), 255, np.uint8)], axis=2))
        photo_state["record"] = dict(record, kind="photo-plane")
        photo_state["fill"] = compose.to_linear(np.full((1, 1, 3), np.median(img8.reshape(-1, 3), axis=0),
                                                        np.uint8))[0, 0]
    canvas = photo_state["canvas"]
    frame = np.empty((height, width, 3), np.float32)
    frame[:] = photo_state["fill"]
    H = camera.homography(k, R, t, D)
    L = extent_units                       # SVG units each side of the code
    while True:
        corners = [(-L, -L), (800 + L, -L), (800 + L, 800 + L), (-L, 800 + L)]
        zs = [(R @ np.array([(u - 400) * D / 800, (v - 400) * D / 800, 0.0]) + t)[2] for u, v in corners]
        if min(zs) > 0.05 or L < 400:
            break
        L *= 0.7
    size = canvas.shape[0]
    span = 800 + 2 * L
    p2u = np.array([[span / size, 0, -L + 0.5 * span / size], [0, span / size, -L + 0.5 * span / size], [0, 0, 1]])
    compose.warp_into(frame, canvas, p2u, H, 1)
    return frame, photo_state["record"]


def make_sequence(maker, kind, seed, index, n_frames, out_root, size):
    rng = np.random.default_rng([seed, 100 + KIND_IDS[kind], index])
    W, H = size
    k = sampling.intrinsics(rng, W, H)
    code = maker.code(rng)
    D = float(rng.uniform(0.03, 0.08))
    card = sampling.card(rng, code, 0.5)
    name = "%s_%03d" % (kind, index)
    out_dir = os.path.join(out_root, name)
    os.makedirs(out_dir, exist_ok=True)

    # fixed per sequence: light, sensor, file
    base = {}
    if kind == "noisy":
        sampling.camera_degradation(rng, base, blur_max=0.8, jpeg=(45, 70), dim_prob=1.0, motion_prob=0.0)
        base["noise"]["photons_at_white"] = round(float(rng.uniform(40, 120)), 1)
    else:
        sampling.camera_degradation(rng, base, blur_max=0.8 if kind != "tiny" else 0.6, jpeg=(70, 92),
                                    dim_prob=0.15, motion_prob=0.0)
    shutter = float(rng.uniform(0.15, 0.5))    # exposure as a fraction of the frame interval

    poses = plan(kind, rng, k, D, n_frames)
    photo_state = {}
    frames = []
    centers = []
    for i, (C, R) in enumerate(poses):
        t = -R @ C
        Hm = camera.homography(k, R, t, D)
        centers.append(camera.apply_h(Hm, [(400.0, 400.0)])[0])
    d_min = min(camera.ellipse_axes(camera.homography(k, R, -R @ C, D))[0] for C, R in poses)
    extent = 800.0 * 0.75 * max(W, H) / d_min + 800.0
    for i, (C, R) in enumerate(poses):
        frng = np.random.default_rng([seed, 100 + KIND_IDS[kind], index, i])
        t = -R @ C
        spec = dict(base, category="sequence-" + kind, width=W, height=H, intrinsics=k, background="plane",
                    codes=[{"code": code, "R": R, "t": t, "diameter_m": D, "card": card, "contrast": 1.0}])
        nxt = centers[min(i + 1, n_frames - 1)] - centers[max(i - 1, 0)]
        speed = float(np.hypot(*nxt)) / (2 if 0 < i < n_frames - 1 else 1)
        if speed * shutter >= 0.75:
            spec["motion_blur"] = {"length_px": round(speed * shutter, 3),
                                   "angle_deg": round(math.degrees(math.atan2(nxt[1], nxt[0])), 2)}
        else:
            spec.pop("motion_blur", None)
        bg = photo_plane_background(maker.bgs, rng, k, R, t, D, W, H, photo_state, extent)
        img, truth = scene.render(spec, maker.factory, maker.bgs, frng, background=bg)
        truth["seed"] = [seed, 100 + KIND_IDS[kind], index, i]
        truth["sequence"] = {"name": name, "index": i, "t_s": round(i / FPS, 6)}
        truth = make_sets.write_frame(out_dir, "frame_%04d" % i, img, truth, spec["jpeg_quality"])
        Rcw = R.T
        T = np.eye(4)
        T[:3, :3] = Rcw
        T[:3, 3] = C
        Tw = np.eye(4)
        Tw[:3, :3] = R
        Tw[:3, 3] = t
        c = truth["codes"][0]
        frames.append({"file": truth["file"], "index": i, "t_s": round(i / FPS, 6),
                       "camera_to_world": [float(v) for v in T.reshape(-1)],
                       "world_to_camera": [float(v) for v in Tw.reshape(-1)],
                       "diameter_px": c["diameter_px"], "tilt_deg": c["tilt_deg"], "center": c["center"],
                       "homography": c["homography"], "motion_blur": spec.get("motion_blur")})
    seq = {
        "schema": "appclipcodekit.synth.sequence/1",
        "name": name,
        "kind": kind,
        "fps": FPS,
        "width": W,
        "height": H,
        "intrinsics": k,
        "code": dict(code.truth(), diameter_m=D, card=card),
        "world": "the code frame: origin at the code center, x = SVG +u, y = SVG +v, z into the printed surface, meters",
        "camera": "x right, y down, z forward; camera_to_world is row-major 4x4 with X_world = R_cw @ X_cam + C",
        "degradation": {"noise": base.get("noise"), "jpeg_quality": base.get("jpeg_quality"), "light": base.get("light"),
                        "blur_sigma_px": base.get("blur_sigma"), "shutter_fraction": round(shutter, 4)},
        "readable_in_single_frames": kind in ("orbit", "approach"),
        "frames": frames,
    }
    with open(os.path.join(out_dir, "sequence.json"), "w") as f:
        json.dump(seq, f, indent=1)
        f.write("\n")
    return seq


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kinds", default="orbit,approach,tiny,noisy")
    ap.add_argument("--count", type=int, default=3, help="sequences per kind (default 3)")
    ap.add_argument("--frames", type=int, default=60, help="frames per sequence (default 60, 2 s at 30 fps)")
    ap.add_argument("--size", default="1280x720", help="frame size (default 1280x720)")
    ap.add_argument("--generator")
    ap.add_argument("--corpus", action="store_true")
    ap.add_argument("--pool", type=int, default=160)
    ap.add_argument("--backgrounds", choices=["all", "permissive"], default="all")
    ap.add_argument("--cache", default=os.path.join(ROOT, "out", "cache"))
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    W, H = (int(v) for v in args.size.lower().split("x"))
    factory = codes.CodeFactory(args.cache, generator=args.generator, use_corpus=args.corpus)
    pool = sampling.build_pool(factory, args.seed, args.pool)
    maker = make_sets.Maker(factory, backgrounds.Backgrounds(args.backgrounds), pool)
    index = []
    for kind in args.kinds.split(","):
        if kind not in KIND_IDS:
            raise SystemExit("unknown kind %r (known: %s)" % (kind, ", ".join(KIND_IDS)))
        for i in range(args.count):
            seq = make_sequence(maker, kind, args.seed, i, args.frames, args.out, (W, H))
            index.append({"name": seq["name"], "kind": kind, "frames": len(seq["frames"]), "url": seq["code"]["url"]})
            print("%s: %d frames" % (seq["name"], len(seq["frames"])), flush=True)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump({"schema": "appclipcodekit.synth.sequences/1", "seed": args.seed, "sequences": index}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
