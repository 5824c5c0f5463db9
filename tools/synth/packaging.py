"""A photo-like scene: a printed product box with an App Clip Code on its front, standing on
a table, seen by a phone camera from above and to the right.

The box is a cuboid in the code frame (meters): the front face lies in the code plane z=0,
the right and top faces go back into +z. Every face is drawn as a texture and projected
with its own homography; the code's ground truth is exact as everywhere else.
"""
import math

import cv2
import numpy as np

import camera
import compose
import degrade
import scene

BRAND = "NORDLYS"


def _text(img, text, org, scale, bgr, thick, font=cv2.FONT_HERSHEY_DUPLEX):
    cv2.putText(img, text, (int(org[0]), int(org[1])), font, scale, tuple(bgr) + (255,), thick, cv2.LINE_AA)


def front_texture(rng, code_render, photo8, r, u0, v0, u1, v1):
    """The front face (opaque BGRA premultiplied) at r px per SVG unit over [u0,u1]x[v0,v1]."""
    w, h = int(round((u1 - u0) * r)), int(round((v1 - v0) * r))
    img = np.zeros((h, w, 4), np.uint8)
    img[:] = (70, 62, 18, 255)                           # deep teal-blue print
    X = lambda u: (u - u0) * r                           # noqa: E731
    Y = lambda v: (v - v0) * r                           # noqa: E731
    # a cream band with the product photo
    cv2.rectangle(img, (0, int(Y(-2350))), (w, int(Y(-600))), (214, 232, 240, 255), -1)
    ph = cv2.resize(photo8, (int((X(1100) - X(-1500))), int(Y(-700) - Y(-2250))), interpolation=cv2.INTER_AREA)
    y0, x0 = int(Y(-2250)), int(X(-1500))
    img[y0:y0 + ph.shape[0], x0:x0 + ph.shape[1], :3] = ph
    img[y0:y0 + ph.shape[0], x0:x0 + ph.shape[1], 3] = 255
    # brand and text
    s = r / 0.36
    _text(img, BRAND, (X(-1800), Y(-2700)), 4.2 * s, (255, 255, 255), max(2, int(9 * s)))
    _text(img, "ORGANIC COFFEE BEANS", (X(-1780), Y(-2480)), 1.2 * s, (170, 225, 240), max(1, int(3 * s)))
    _text(img, "Single origin - medium roast", (X(-1780), Y(-420)), 0.95 * s, (255, 255, 255), max(1, int(2 * s)),
          cv2.FONT_HERSHEY_SIMPLEX)
    _text(img, "250 g / 8.8 oz", (X(-1780), Y(-250)), 1.3 * s, (255, 255, 255), max(1, int(3 * s)))
    for i, line in enumerate(["Roasted and packed in Norway.", "Best before: see bottom.",
                              "Store in a cool, dry place."]):
        _text(img, line, (X(-1780), Y(120 + i * 140)), 0.7 * s, (200, 200, 200), max(1, int(2 * s)),
              cv2.FONT_HERSHEY_SIMPLEX)
    # barcode
    bx, by = X(-1780), Y(620)
    x = bx
    while x < bx + 900 * r:
        bw = float(rng.choice([1, 1, 2, 3])) * 9 * r
        if rng.random() < 0.55:
            cv2.rectangle(img, (int(x), int(by)), (int(x + bw), int(by + 420 * r)), (255, 255, 255, 255), -1)
        x += bw
    # white label under the code with a call to action
    cv2.rectangle(img, (int(X(-60)), int(Y(-80))), (w, int(Y(880))), (255, 255, 255, 255), -1)
    _text(img, "Scan to", (X(-900), Y(300)), 1.5 * s, (255, 255, 255), max(1, int(3 * s)))
    _text(img, "order", (X(-900), Y(480)), 1.5 * s, (255, 255, 255), max(1, int(3 * s)))
    # the code: its render is premultiplied BGRA over 0..800 units
    size = int(round(800 * r))
    code = cv2.resize(code_render, (size, size), interpolation=cv2.INTER_AREA).astype(np.uint16)
    cx0, cy0 = int(round(X(0))), int(round(Y(0)))
    dst = img[cy0:cy0 + size, cx0:cx0 + size].astype(np.uint16)
    img[cy0:cy0 + size, cx0:cx0 + size] = (code + (dst * (255 - code[:, :, 3:4]) + 127) // 255).astype(np.uint8)
    p2u = np.array([[1 / r, 0, u0 + 0.5 / r], [0, 1 / r, v0 + 0.5 / r], [0, 0, 1]])
    return img, p2u


def side_texture(w, h, bgr, lines):
    img = np.zeros((h, w, 4), np.uint8)
    img[:] = tuple(bgr) + (255,)
    for i, line in enumerate(lines):
        cv2.putText(img, line, (int(0.08 * w), int(0.1 * h + i * 0.06 * h)), cv2.FONT_HERSHEY_SIMPLEX,
                    w / 900.0, (235, 235, 235, 255), max(1, w // 300), cv2.LINE_AA)
    return img


def render(factory, code, photo8, table8, rng, width=2016, height=1512):
    D = 0.035                                   # code diameter, meters
    m = D / 800.0                               # meters per SVG unit
    u0, u1, v0, v1 = -2000.0, 1200.0, -3300.0, 1300.0    # front face in code SVG units
    depth_units = 1400.0                        # box depth (0.061 m)
    k = camera.intrinsics(width, height, 66.0, (3.0, -2.0))
    R = (camera.rodrigues((0, 1, 0), math.radians(21)) @ camera.rodrigues((1, 0, 0), math.radians(15))
         @ camera.rot_z(math.radians(3)))
    face_center = np.array([((u0 + u1) / 2 - 400) * m, ((v0 + v1) / 2 - 400) * m, 0.0])
    box_center = face_center + np.array([0.0, 0.0, depth_units * m / 2])
    ray = np.array([(width * 0.46 - k["cx"]) / k["fx"], (height * 0.5 - k["cy"]) / k["fy"], 1.0])
    dist = 0.31
    t = ray / np.linalg.norm(ray) * dist - R @ box_center

    frame = compose.to_linear(cv2.resize(table8, (width, height), interpolation=cv2.INTER_LINEAR))

    def unit_pt(u, v, z_units=0.0):
        return np.array([(u - 400) * m, (v - 400) * m, z_units * m])

    # soft contact shadow under the box (on the table, drawn in the image)
    bottom = [unit_pt(u0, v1), unit_pt(u1, v1), unit_pt(u1, v1, depth_units), unit_pt(u0, v1, depth_units)]
    pts = np.array([camera.K_matrix(k) @ (R @ p + t) for p in bottom])
    pts = pts[:, :2] / pts[:, 2:3]
    mask = np.zeros((height, width), np.float32)
    cv2.fillPoly(mask, [np.round(pts + [-25, 35]).astype(np.int32)], 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), 30)
    frame *= (1.0 - 0.55 * mask)[:, :, None]

    C = -R.T @ t                                # the camera in the code frame: which faces it sees
    # right face: x at the right edge, spanning v (down) and z (back)
    side = side_texture(420, 1380, (60, 52, 14), ["Ingredients: 100% arabica", "coffee beans.", "",
                                                  "Lot 2611-B", "Recyclable carton"])
    side_lin = compose.premult_to_linear(side)
    side_lin[:, :, :3] *= 0.55
    sh, sw = side.shape[:2]
    H_side = camera.plane_homography(k, R, t, unit_pt(u1, v0), np.array([0, 0, depth_units * m / sw]),
                                     np.array([0, (v1 - v0) * m / sh, 0]))
    p2px = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]], np.float64)   # pixel index -> corner-based units
    if C[0] > unit_pt(u1, 0)[0]:
        compose.warp_into(frame, side_lin, p2px, H_side, 2)

    # top face: y at the top edge, spanning u (right) and z (back)
    top = side_texture(1000, 440, (80, 70, 22), [BRAND])
    top_lin = compose.premult_to_linear(top)
    top_lin[:, :, :3] *= 0.85
    th, tw = top.shape[:2]
    H_top = camera.plane_homography(k, R, t, unit_pt(u0, v0), np.array([(u1 - u0) * m / tw, 0, 0]),
                                    np.array([0, 0, depth_units * m / th]))
    if C[1] < unit_pt(0, v0)[1]:
        compose.warp_into(frame, top_lin, p2px, H_top, 2)

    # the front face with the code
    H = camera.homography(k, R, t, D)
    ss = 2
    r = compose.code_canvas_res(H, u0, u1, ss)
    r = min(r, 2.0)
    render_px = 2048 if 800 * r <= 2048 else 4096
    front, p2u = front_texture(rng, factory.render(code, render_px), photo8, r, u0, v0, u1, v1)
    front_lin = compose.premult_to_linear(front)
    compose.warp_into(frame, front_lin, p2u, H, ss)

    spec = {"category": "photo", "width": width, "height": height, "intrinsics": k, "background": "photo",
            "light": {"gain": 0.95, "gradient": 0.35, "gradient_angle_deg": 200.0, "vignetting": 0.3, "dim": False},
            "glares": [], "blur_sigma": 0.7,
            "noise": {"photons_at_white": 2500.0, "read_noise_e": 3.0, "digital_gain": 1.05},
            "jpeg_quality": 88, "codes": [], "mirrored": False}
    img, truth = scene.render(spec, factory, None, rng, background=(frame, {
        "kind": "scene", "description": "printed coffee box on a table; box texture uses scikit-image's coffee.png "
                                        "(CC0), the table is scikit-image's coffee.png as well"}))
    _, geo = scene.geometry_truth(k, R, t, D, width, False)
    code_truth = code.truth()
    code_truth.update(geo)
    code_truth.update({"contrast": 1.0, "card": None, "occlusion": None, "occlusion_fraction": 0.0,
                       "printed_on": "front face of a 0.14 x 0.20 x 0.061 m box"})
    truth["codes"] = [code_truth]
    return img, truth
