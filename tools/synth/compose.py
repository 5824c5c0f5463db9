"""Planar things (codes, labels, look-alikes) projected into a frame.

A "canvas" is a premultiplied BGRA uint8 picture of a plane, with a 3x3 matrix from its
pixel indices to plane units (SVG units for codes). It is warped into the frame with
cv2.warpPerspective at `ss`x supersampling over the region it covers only, averaged down
(INTER_AREA), and composited in linear light.
"""
import math

import cv2
import numpy as np

import camera

# sRGB <-> linear lookup tables.
_x = np.arange(256, dtype=np.float64) / 255.0
SRGB_TO_LIN = np.where(_x <= 0.04045, _x / 12.92, ((_x + 0.055) / 1.055) ** 2.4).astype(np.float32)
_LIN_LEVELS = 16384
_y = np.arange(_LIN_LEVELS, dtype=np.float64) / (_LIN_LEVELS - 1)
LIN_TO_SRGB8 = np.clip(np.round(255.0 * np.where(_y <= 0.0031308, 12.92 * _y, 1.055 * _y ** (1 / 2.4) - 0.055)),
                       0, 255).astype(np.uint8)


def to_linear(img8):
    return cv2.LUT(img8, SRGB_TO_LIN)


def to_srgb8(lin):
    idx = np.clip(lin, 0.0, 1.0)
    idx *= (_LIN_LEVELS - 1)
    idx += 0.5
    return np.take(LIN_TO_SRGB8, idx.astype(np.uint16), mode="clip")


def premult_to_linear(canvas):
    """Premultiplied sRGB BGRA uint8 -> premultiplied linear BGRA float32."""
    alpha8 = canvas[:, :, 3]
    out = np.empty(canvas.shape, np.float32)
    out[:, :, :3] = SRGB_TO_LIN[canvas[:, :, :3]]          # right where alpha is 0 or 255
    out[:, :, 3] = alpha8 * np.float32(1.0 / 255.0)
    ys, xs = np.nonzero((alpha8 > 0) & (alpha8 < 255))
    if len(ys):
        a = out[ys, xs, 3][:, None]
        straight = np.clip(canvas[ys, xs, :3].astype(np.float32) / (255.0 * a), 0.0, 1.0)
        out[ys, xs, :3] = SRGB_TO_LIN[(straight * 255.0 + 0.5).astype(np.uint8)] * a
    return out


class Canvas:
    """A plane drawn at `res` pixels per unit over units [lo, hi] in both axes."""

    def __init__(self, res, lo, hi):
        self.res = float(res)
        self.lo = float(lo)
        self.size = int(math.ceil((hi - lo) * res))
        self.img = np.zeros((self.size, self.size, 4), np.uint8)

    def px(self, u, v):
        """Unit coordinates -> fractional pixel coordinates (pixel centers at integers)."""
        return ((u - self.lo) * self.res - 0.5, (v - self.lo) * self.res - 0.5)

    def pix_to_units(self):
        r = 1.0 / self.res
        return np.array([[r, 0.0, self.lo + 0.5 * r], [0.0, r, self.lo + 0.5 * r], [0.0, 0.0, 1.0]])

    # Drawing with opaque colors on a premultiplied canvas composites correctly ("over").
    SHIFT = 4

    def _fx(self, v):
        return int(round(v * (1 << self.SHIFT)))

    def circle(self, u, v, radius, bgr, thickness=-1):
        x, y = self.px(u, v)
        t = -1 if thickness < 0 else max(1, int(round(thickness * self.res)))
        cv2.circle(self.img, (self._fx(x), self._fx(y)), self._fx(radius * self.res), tuple(bgr) + (255,),
                   t, cv2.LINE_AA, self.SHIFT)

    def arc(self, u, v, radius, start_deg, end_deg, bgr, width):
        """A round-capped stroke along a circle, angles clockwise on screen like SVG."""
        x, y = self.px(u, v)
        w = max(1, int(round(width * self.res)))
        r = self._fx(radius * self.res)
        cv2.ellipse(self.img, (self._fx(x), self._fx(y)), (r, r), 0.0, start_deg, end_deg,
                    tuple(bgr) + (255,), w, cv2.LINE_AA, self.SHIFT)

    def polygon(self, pts_units, bgr):
        pts = np.array([self.px(u, v) for u, v in pts_units]) * (1 << self.SHIFT)
        cv2.fillPoly(self.img, [np.round(pts).astype(np.int32)], tuple(bgr) + (255,), cv2.LINE_AA, self.SHIFT)

    def rounded_rect(self, u0, v0, u1, v1, radius, bgr):
        pts = []
        for cx, cy, a0 in ((u1 - radius, v0 + radius, -90), (u1 - radius, v1 - radius, 0),
                           (u0 + radius, v1 - radius, 90), (u0 + radius, v0 + radius, 180)):
            for k in range(9):
                a = math.radians(a0 + k * 90 / 8)
                pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
        self.polygon(pts, bgr)

    def paste(self, premult, u0, v0):
        """Composites a premultiplied BGRA picture whose top-left pixel corner is at units (u0, v0)."""
        x0 = int(round((u0 - self.lo) * self.res))
        y0 = int(round((v0 - self.lo) * self.res))
        h, w = premult.shape[:2]
        sx0, sy0 = max(0, -x0), max(0, -y0)
        dx0, dy0 = max(0, x0), max(0, y0)
        dx1, dy1 = min(self.size, x0 + w), min(self.size, y0 + h)
        if dx1 <= dx0 or dy1 <= dy0:
            return
        src = premult[sy0:sy0 + (dy1 - dy0), sx0:sx0 + (dx1 - dx0)].astype(np.uint16)
        dst = self.img[dy0:dy1, dx0:dx1].astype(np.uint16)
        inv = 255 - src[:, :, 3:4]
        self.img[dy0:dy1, dx0:dx1] = (src + (dst * inv + 127) // 255).astype(np.uint8)


def code_canvas_res(H, extent_lo, extent_hi, ss):
    """Pixels per SVG unit needed for a canvas warped by H at supersampling ss."""
    pts = [(extent_lo, extent_lo), (extent_hi, extent_lo), (extent_hi, extent_hi), (extent_lo, extent_hi),
           (400, 400), (400, 0), (800, 400), (400, 800), (0, 400)]
    return camera.max_scale(H, pts) * ss * 1.05


def supersampling_for(diameter_px):
    if diameter_px < 160:
        return 3
    if diameter_px < 520:
        return 2
    return 1


def warp_into(frame, canvas_lin, pix_to_units, H, ss, mask_out=None):
    """Composites the premultiplied linear canvas into the linear float frame (in place).
    H maps plane units to frame pixels. Returns the touched box (x0, y0, x1, y1) or None.
    mask_out (float32 H x W), when given, receives max(mask, coverage)."""
    fh, fw = frame.shape[:2]
    ch, cw = canvas_lin.shape[:2]
    corners = np.array([[-0.5, -0.5], [cw - 0.5, -0.5], [cw - 0.5, ch - 0.5], [-0.5, ch - 0.5]])
    M = H @ pix_to_units
    q = camera.apply_h(M, corners)
    x0 = max(0, int(math.floor(q[:, 0].min())) - 1)
    y0 = max(0, int(math.floor(q[:, 1].min())) - 1)
    x1 = min(fw, int(math.ceil(q[:, 0].max())) + 2)
    y1 = min(fh, int(math.ceil(q[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return None
    rw, rh = x1 - x0, y1 - y0
    A = np.array([[ss, 0.0, (ss - 1) / 2.0 - ss * x0], [0.0, ss, (ss - 1) / 2.0 - ss * y0], [0.0, 0.0, 1.0]])
    F = A @ M
    big = cv2.warpPerspective(canvas_lin, F, (rw * ss, rh * ss), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    small = cv2.resize(big, (rw, rh), interpolation=cv2.INTER_AREA) if ss > 1 else big
    a = small[:, :, 3:4]
    roi = frame[y0:y1, x0:x1]
    roi *= (1.0 - a)
    roi += small[:, :, :3]
    if mask_out is not None:
        np.maximum(mask_out[y0:y1, x0:x1], a[:, :, 0], out=mask_out[y0:y1, x0:x1])
    return (x0, y0, x1, y1)


def fade(canvas_lin, contrast, toward=None):
    """Lower the contrast of a premultiplied linear canvas: colors move toward their mean."""
    if contrast >= 0.999:
        return canvas_lin
    a = canvas_lin[:, :, 3:4]
    if toward is None:
        total = float(cv2.sumElems(canvas_lin[:, :, 3])[0])
        sums = cv2.sumElems(np.ascontiguousarray(canvas_lin[:, :, :3]))[:3]
        toward = np.array(sums, np.float32) / max(total, 1e-6)
    toward = np.asarray(toward, np.float32).reshape(1, 1, 3)
    rgb = canvas_lin[:, :, :3]
    rgb *= np.float32(contrast)
    rgb += a * (toward * np.float32(1.0 - contrast))
    return canvas_lin
