"""Turns a frame specification (everything already chosen) into pixels and ground truth."""
import math

import numpy as np

import backgrounds
import camera
import compose
import degrade
import lookalikes
import occlusion

PIXEL_CONVENTION = ("pixel (0,0) is the CENTER of the top-left pixel (OpenCV convention); x right, y down")
POSE_CONVENTION = ("X_cam = R @ X_code + t; code frame: origin at the code center, x = SVG +u (right), "
                   "y = SVG +v (down), z into the printed surface; X_code = ((u-400)*D/800, (v-400)*D/800, 0) "
                   "meters; camera frame x right, y down, z forward. Pose and intrinsics are those of the "
                   "physical capture BEFORE any mirroring.")
H_CONVENTION = ("row-major 3x3, SVG user units (viewBox 0..800) -> final image pixels (after mirroring), "
                "H[2][2] = 1; rim_points = H applied to (400,0),(800,400),(400,800),(0,400): top, right, "
                "bottom, left in the code's own orientation; center = H applied to (400,400)")


def _r(x, nd=4):
    return round(float(x), nd)


def code_canvas(factory, obj, H, ss):
    """The premultiplied linear canvas of one code (with its card and occluders)."""
    card = obj.get("card")
    occ = obj.get("occluders") or []
    lo, hi = 0.0, 800.0
    if card:
        lo, hi = -card["margin"], 800.0 + card["margin"]
    if occ:
        lo, hi = min(lo, -160.0), max(hi, 960.0)
    res = compose.code_canvas_res(H, lo, hi, ss)
    level = 1024 if 800 * res <= 1024 else (2048 if 800 * res <= 2048 else 4096)
    size = int(min(level, max(16, math.ceil(800 * res))))
    res = size / 800.0
    src = factory.render(obj["code"], level)
    if size != level:
        import cv2
        src = cv2.resize(src, (size, size), interpolation=cv2.INTER_AREA)
    canvas = compose.Canvas(res, lo, hi)
    if card:
        m = card["margin"]
        if card["shape"] == "circle":
            canvas.circle(400, 400, 400 + m, card["bgr"])
        else:
            canvas.rounded_rect(-m, -m, 800 + m, 800 + m, card.get("corner", 0.15) * (800 + 2 * m) + 1e-3,
                                card["bgr"])
    canvas.paste(src, 0.0, 0.0)
    for o in occ:
        canvas.polygon(occlusion.polygon(o), o["bgr"])
    lin = compose.premult_to_linear(canvas.img)
    lin = compose.fade(lin, obj.get("contrast", 1.0))
    return lin, canvas.pix_to_units()


def lookalike_canvas(obj, H, ss, rng):
    card = obj.get("card")
    lo, hi = 0.0, 800.0
    if card:
        lo, hi = -card["margin"], 800.0 + card["margin"]
    res = compose.code_canvas_res(H, lo, hi, ss)
    res = min(res, 2600.0 / (hi - lo))
    canvas = compose.Canvas(res, lo, hi)
    if card:
        m = card["margin"]
        canvas.rounded_rect(-m, -m, 800 + m, 800 + m, 0.1 * (800 + 2 * m), card["bgr"])
    desc = lookalikes.draw(obj["kind"], canvas, rng)
    lin = compose.premult_to_linear(canvas.img)
    lin = compose.fade(lin, obj.get("contrast", 1.0))
    return lin, canvas.pix_to_units(), desc


def geometry_truth(k, R, t, diameter_m, width, mirrored):
    H = camera.homography(k, R, t, diameter_m)
    Hf = camera.mirror_matrix(width) @ H if mirrored else H
    Hf = Hf / Hf[2, 2]
    major, minor = camera.ellipse_axes(H)
    center = camera.apply_h(Hf, [(400.0, 400.0)])[0]
    rim = camera.apply_h(Hf, camera.RIM_SVG)
    return H, {
        "diameter_m": _r(diameter_m, 5),
        "diameter_px": _r(major, 2),
        "minor_axis_px": _r(minor, 2),
        "tilt_deg": _r(camera.tilt_deg(R), 3),
        "view_angle_deg": _r(camera.view_angle_deg(R, t), 3),
        "pose": {"rotation": [float(v) for v in R.reshape(-1)], "translation": [float(v) for v in t]},
        "homography": camera.h_list(Hf),
        "center": [_r(center[0]), _r(center[1])],
        "rim_points": [[_r(x), _r(y)] for x, y in rim],
    }


def render(spec, factory, bgs, rng, background=None):
    """spec -> (final uint8 BGR image, truth dict). rng: the frame's own generator.
    background: optional (linear float32 frame, record) made by the caller."""
    W, Hh = spec["width"], spec["height"]
    k = spec["intrinsics"]
    bg = spec["background"]
    if background is not None:
        frame, bg_record = background
    elif bg == "photo":
        img8, bg_record = bgs.photo(rng, W, Hh)
        frame = compose.to_linear(img8)
    else:
        img8, bg_record = backgrounds.flat(rng, W, Hh, white=(bg == "white"))
        frame = compose.to_linear(img8)
    mirrored = bool(spec.get("mirrored"))

    codes_truth = []
    for obj in spec.get("codes", []):
        H, geo = geometry_truth(k, obj["R"], obj["t"], obj["diameter_m"], W, mirrored)
        ss = compose.supersampling_for(geo["diameter_px"])
        lin, p2u = code_canvas(factory, obj, H, ss)
        compose.warp_into(frame, lin, p2u, H, ss)
        truth = obj["code"].truth()
        truth.update(geo)
        truth["contrast"] = _r(obj.get("contrast", 1.0), 3)
        truth["card"] = obj.get("card")
        if obj.get("occluders"):
            acc = occlusion.account(obj["occluders"], obj["code"].info)
            acc["occluders"] = obj["occluders"]
            truth["occlusion"] = acc
        else:
            truth["occlusion"] = None
        truth["occlusion_fraction"] = truth["occlusion"]["fraction"] if truth["occlusion"] else 0.0
        codes_truth.append(truth)

    look_truth = []
    for obj in spec.get("lookalikes", []):
        H, geo = geometry_truth(k, obj["R"], obj["t"], obj["diameter_m"], W, mirrored)
        ss = compose.supersampling_for(geo["diameter_px"])
        lin, p2u, desc = lookalike_canvas(obj, H, ss, rng)
        compose.warp_into(frame, lin, p2u, H, ss)
        look_truth.append(dict(desc, center=geo["center"], diameter_px=geo["diameter_px"],
                               tilt_deg=geo["tilt_deg"], homography=geo["homography"]))

    light = spec.get("light")
    if light:
        field = degrade.light_field(W, Hh, light["gain"], light["gradient"], light["gradient_angle_deg"],
                                    light["vignetting"])
        degrade.apply_light(frame, field)
    if spec.get("shade"):
        degrade.apply_light(frame, degrade.shade_field(W, Hh, spec["shade"]))
    for g in spec.get("glares", []):
        degrade.add_glare(frame, g["x"], g["y"], g["radius"], g["strength"])
    if spec.get("veil"):
        degrade.veil(frame, spec["veil"]["amount"], spec["veil"]["level"])
    frame = degrade.defocus(frame, spec.get("blur_sigma", 0.0))
    mb = spec.get("motion_blur")
    if mb:
        frame = degrade.motion_blur(frame, mb["length_px"], mb["angle_deg"])
    noise = spec.get("noise")
    if noise:
        frame = degrade.sensor_noise(frame, rng, noise["photons_at_white"], noise["read_noise_e"],
                                     noise["digital_gain"])
    img = degrade.finish(frame, mirrored)

    glares = []
    for g in spec.get("glares", []):
        x = (W - 1 - g["x"]) if mirrored else g["x"]
        glares.append({"x": _r(x, 2), "y": _r(g["y"], 2), "radius_px": _r(g["radius"], 2),
                       "strength": _r(g["strength"], 3)})
    noise_truth = None
    if noise:
        noise_truth = dict(noise, model="RGGB Bayer mosaic, Gaussian-approximated Poisson shot noise + read noise per photosite, 16-bit RAW, bilinear demosaic, then digital gain",
                           sigma_8bit_at_mid_grey=_r(degrade.noise_sigma_8bit(
                               noise["photons_at_white"], noise["read_noise_e"], noise["digital_gain"]), 3))
    truth = {
        "schema": "appclipcodekit.synth.frame/1",
        "category": spec["category"],
        "width": W,
        "height": Hh,
        "intrinsics": {key: _r(v, 4) for key, v in k.items()},
        "mirrored": mirrored,
        "mirror_transform": camera.h_list(camera.mirror_matrix(W)) if mirrored else None,
        "background": bg_record,
        "blur_sigma_px": _r(spec.get("blur_sigma", 0.0), 3),
        "motion_blur": mb,
        "noise": noise_truth,
        "jpeg_quality": spec.get("jpeg_quality"),
        "light": light,
        "shade": spec.get("shade"),
        "veil": spec.get("veil"),
        "glare": glares,
        "codes": codes_truth,
        "lookalikes": look_truth,
        "conventions": {"pixels": PIXEL_CONVENTION, "pose": POSE_CONVENTION, "homography": H_CONVENTION,
                        "diameter_px": "major axis of the projected rim ellipse",
                        "tilt_deg": "angle between the printed face's normal and the optical axis (0 = parallel "
                                    "to the image plane)",
                        "view_angle_deg": "angle between the printed face's normal and the line of sight to its "
                                          "center"},
    }
    return img, truth
