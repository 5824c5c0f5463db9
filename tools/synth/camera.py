"""Pinhole camera geometry for the synthesiser.

Conventions (the ground truth files repeat them):
  - Pixels: (0, 0) is the CENTER of the top-left pixel (OpenCV's convention); x right, y down.
  - Camera frame: x right, y down, z forward (out of the lens). Intrinsics K = [[fx,0,cx],[0,fy,cy],[0,0,1]].
  - Code frame (also the world frame of sequences): origin at the code center, x along the
    SVG's +u (right), y along the SVG's +v (down), z = x cross y, pointing INTO the printed
    surface (away from a viewer who faces the print). Units: meters.
  - SVG user space (viewBox 0..800) to code plane: X = (u - 400) * D / 800, Y = (v - 400) * D / 800, Z = 0,
    D = code diameter in meters.
  - Pose: X_cam = R @ X_code + t (code plane -> camera). t is the code center in camera coordinates.
  - Homography H (row-major): [x*w, y*w, w] = H @ [u, v, 1], normalised so H[2][2] = 1.
"""
import math

import numpy as np

RIM_SVG = ((400.0, 0.0), (800.0, 400.0), (400.0, 800.0), (0.0, 400.0))  # top, right, bottom, left


def intrinsics(width, height, hfov_deg, principal_offset=(0.0, 0.0)):
    fx = (width / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    cx = (width - 1) / 2.0 + principal_offset[0]
    cy = (height - 1) / 2.0 + principal_offset[1]
    return {"fx": fx, "fy": fx, "cx": cx, "cy": cy}


def K_matrix(k):
    return np.array([[k["fx"], 0.0, k["cx"]], [0.0, k["fy"], k["cy"]], [0.0, 0.0, 1.0]])


def rodrigues(axis, angle_rad):
    axis = np.asarray(axis, dtype=np.float64)
    n = np.linalg.norm(axis)
    if n < 1e-12 or abs(angle_rad) < 1e-15:
        return np.eye(3)
    x, y, z = axis / n
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    C = 1.0 - c
    return np.array([
        [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
        [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
        [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
    ])


def rot_z(angle_rad):
    return rodrigues((0.0, 0.0, 1.0), angle_rad)


def align_z_to(direction):
    """The smallest rotation that takes (0,0,1) to `direction`."""
    d = np.asarray(direction, dtype=np.float64)
    d = d / np.linalg.norm(d)
    z = np.array([0.0, 0.0, 1.0])
    axis = np.cross(z, d)
    s = np.linalg.norm(axis)
    if s < 1e-12:
        return np.eye(3) if d[2] > 0 else rodrigues((1.0, 0.0, 0.0), math.pi)
    return rodrigues(axis, math.atan2(s, float(np.dot(z, d))))


def pose_at_pixel(k, center_px, depth_m, tilt_deg, tilt_dir_deg, roll_deg):
    """A pose whose code center projects to `center_px` at camera depth `depth_m` (z), with
    the code's normal `tilt_deg` away from the optical axis (rotation about the in-plane axis
    at `tilt_dir_deg`) and the code turned by `roll_deg` about its own normal. Tilt 0 is a
    code parallel to the image plane (it images as a circle wherever it is in the frame)."""
    ray = np.array([(center_px[0] - k["cx"]) / k["fx"], (center_px[1] - k["cy"]) / k["fy"], 1.0])
    t = ray * depth_m
    a = math.radians(tilt_dir_deg)
    R_tilt = rodrigues((math.cos(a), math.sin(a), 0.0), math.radians(tilt_deg))
    R = R_tilt @ rot_z(math.radians(roll_deg))
    return R, t


def svg_to_plane(diameter_m):
    s = diameter_m / 800.0
    return np.array([[s, 0.0, -400.0 * s], [0.0, s, -400.0 * s], [0.0, 0.0, 1.0]])


def homography(k, R, t, diameter_m):
    """SVG units -> pixels."""
    P = np.column_stack([R[:, 0], R[:, 1], t])
    H = K_matrix(k) @ P @ svg_to_plane(diameter_m)
    return H / H[2, 2]


def plane_homography(k, R, t, origin, e1, e2):
    """Homography of a plane of the code frame: (a, b) -> pixels for X = origin + a*e1 + b*e2."""
    origin, e1, e2 = (np.asarray(v, dtype=np.float64) for v in (origin, e1, e2))
    P = np.column_stack([R @ e1, R @ e2, R @ origin + t])
    H = K_matrix(k) @ P
    return H / H[2, 2]


def apply_h(H, pts):
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.column_stack([pts, np.ones(len(pts))]) @ H.T
    return q[:, :2] / q[:, 2:3]


def depths(R, t, diameter_m, n=36):
    """Camera z of points on the code's rim (all must be positive)."""
    ang = np.linspace(0, 2 * math.pi, n, endpoint=False)
    r = diameter_m / 2.0
    pts = np.column_stack([r * np.cos(ang), r * np.sin(ang), np.zeros(n)])
    return (pts @ R.T + t)[:, 2]


def rim_polygon(H, n=96, radius_svg=400.0):
    ang = np.linspace(0, 2 * math.pi, n, endpoint=False)
    pts = np.column_stack([400 + radius_svg * np.cos(ang), 400 + radius_svg * np.sin(ang)])
    return apply_h(H, pts)


def ellipse_axes(H):
    """Major and minor axis (pixels) of the projected rim, which is an exact ellipse."""
    import cv2
    pts = rim_polygon(H, 72).astype(np.float32)
    (_, _), (a, b), _ = cv2.fitEllipse(pts)
    return max(a, b), min(a, b)


def tilt_deg(R):
    """Angle between the printed face's normal and the camera's optical axis (0 = parallel to
    the image plane)."""
    c = float(np.clip(R[2, 2], -1.0, 1.0))   # normal -R[:,2] . (0,0,-1), the axis toward the camera
    return math.degrees(math.acos(c))


def view_angle_deg(R, t):
    """Angle between the printed face's normal and the line of sight to the code center."""
    normal = -R[:, 2]
    to_camera = -t / np.linalg.norm(t)
    c = float(np.clip(np.dot(normal, to_camera), -1.0, 1.0))
    return math.degrees(math.acos(c))


def max_scale(H, pts):
    """Largest local magnification (pixels per source unit) of H over the given source points."""
    best = 0.0
    for u, v in np.asarray(pts, dtype=np.float64).reshape(-1, 2):
        w = H[2, 0] * u + H[2, 1] * v + H[2, 2]
        x = (H[0, 0] * u + H[0, 1] * v + H[0, 2]) / w
        y = (H[1, 0] * u + H[1, 1] * v + H[1, 2]) / w
        J = np.array([[(H[0, 0] - x * H[2, 0]) / w, (H[0, 1] - x * H[2, 1]) / w],
                      [(H[1, 0] - y * H[2, 0]) / w, (H[1, 1] - y * H[2, 1]) / w]])
        best = max(best, float(np.linalg.svd(J, compute_uv=False)[0]))
    return best


def mirror_matrix(width):
    """Front-camera mirror image: x' = (width - 1) - x."""
    return np.array([[-1.0, 0.0, width - 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


def look_at(camera_pos, target, up_hint):
    """World-to-camera rotation for a camera at camera_pos looking at target; the image's
    up (-y of the camera) follows up_hint as well as it can."""
    z = np.asarray(target, dtype=np.float64) - np.asarray(camera_pos, dtype=np.float64)
    z /= np.linalg.norm(z)
    down = -np.asarray(up_hint, dtype=np.float64)
    y = down - np.dot(down, z) * z
    y /= np.linalg.norm(y)
    x = np.cross(y, z)
    return np.vstack([x, y, z])       # rows: camera axes in world coordinates


def h_list(H):
    H = H / H[2, 2]
    return [float(v) for v in H.reshape(-1)]
