"""What a phone camera does to a scene, in order: light -> optics -> sensor -> ISP -> file.

All functions take and return linear-light float32 BGR frames (except the last steps),
and draw any randomness from the numpy Generator they are given, so a frame is a pure
function of its seed.
"""
import math

import cv2
import numpy as np

import compose


def light_field(width, height, gain, gradient, gradient_angle_deg, vignetting):
    """Multiplicative illumination: overall gain, a linear gradient (fractional change
    from one side of the frame to the other, centered on 1) and a radial vignette.
    Computed on a coarse grid and resized: the field is smooth."""
    cw, ch = max(2, width // 8), max(2, height // 8)
    xs = ((np.arange(cw, dtype=np.float32) + 0.5) * (width / cw) - 0.5 - (width - 1) / 2.0) / (width / 2.0)
    ys = ((np.arange(ch, dtype=np.float32) + 0.5) * (height / ch) - 0.5 - (height - 1) / 2.0) / (width / 2.0)
    a = math.radians(gradient_angle_deg)
    field = 1.0 + 0.5 * gradient * (math.cos(a) * xs[None, :] + math.sin(a) * ys[:, None])
    if vignetting > 0:
        r2 = xs[None, :] ** 2 + ys[:, None] ** 2
        field = field * (1.0 - vignetting * np.clip(r2 / 1.3, 0.0, 1.0))
    field = (gain * np.clip(field, 0.05, None)).astype(np.float32)
    return cv2.resize(field, (width, height), interpolation=cv2.INTER_LINEAR)


def shade_field(width, height, shade):
    """Light falling off across one code (multiplicative, linear light). `shade`: the code's
    centre `x`, `y` and major axis `major_px`, the direction `angle_deg` in which light falls,
    and `kind`: "ramp" (the light changes linearly by `change` across the major axis, centred
    on 1) or "edge" (a soft shadow edge: the light falls by `depth` over a logistic step of
    `width` major axes, its middle `offset` major axes from the code's centre)."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    a = math.radians(shade["angle_deg"])
    s = ((xs - shade["x"]) * math.cos(a) + (ys - shade["y"]) * math.sin(a)) / shade["major_px"]
    if shade["kind"] == "ramp":
        field = 1.0 - shade["change"] * s
    else:
        field = 1.0 - shade["depth"] / (1.0 + np.exp(np.clip(-(s - shade["offset"]) / shade["width"], -60, 60)))
    return np.clip(field, 0.05, None).astype(np.float32)


def apply_light(frame, field):
    frame *= field[:, :, None]
    return frame


def glare_light(dx, dy, radius, strength):
    """The linear light a highlight adds at offsets (dx, dy) from its centre (broadcast)."""
    return np.exp(-(dx ** 2 + dy ** 2) / (2.0 * radius * radius)) * strength


def add_glare(frame, cx, cy, radius, strength, tint=(1.0, 1.0, 1.0)):
    """A specular highlight: a bright Gaussian blob added in linear light (it saturates)."""
    h, w = frame.shape[:2]
    r = int(math.ceil(radius * 3))
    x0, x1 = max(0, int(cx) - r), min(w, int(cx) + r + 1)
    y0, y1 = max(0, int(cy) - r), min(h, int(cy) + r + 1)
    if x1 <= x0 or y1 <= y0:
        return frame
    xs = np.arange(x0, x1, dtype=np.float32) - cx
    ys = np.arange(y0, y1, dtype=np.float32) - cy
    blob = glare_light(xs[None, :], ys[:, None], radius, strength)
    frame[y0:y1, x0:x1] += blob[:, :, None] * np.asarray(tint, np.float32)[None, None, :]
    return frame


def veil(frame, amount, level):
    """Veiling glare / haze over the whole frame: lowers contrast everywhere."""
    if amount <= 0:
        return frame
    frame *= (1.0 - amount)
    frame += amount * level
    return frame


def defocus(frame, sigma):
    if sigma <= 0.05:
        return frame
    return cv2.GaussianBlur(frame, (0, 0), sigmaX=sigma, sigmaY=sigma, borderType=cv2.BORDER_REFLECT)


def motion_blur(frame, length, angle_deg):
    """Linear motion blur over `length` pixels (a box along a line, antialiased ends)."""
    if length < 0.75:
        return frame
    half = length / 2.0
    size = int(math.ceil(half)) * 2 + 3
    c = size // 2
    kernel = np.zeros((size * 8, size * 8), np.float32)
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * half * 8, math.sin(a) * half * 8
    cc = c * 8 + 3.5
    cv2.line(kernel, (int(round(cc - dx)), int(round(cc - dy))), (int(round(cc + dx)), int(round(cc + dy))),
             1.0, 8, cv2.LINE_AA)
    kernel = cv2.resize(kernel, (size, size), interpolation=cv2.INTER_AREA)
    kernel /= kernel.sum()
    return cv2.filter2D(frame, -1, kernel, borderType=cv2.BORDER_REFLECT)


def sensor_noise(frame, rng, photons_at_white, read_noise_e, digital_gain):
    """A color sensor: the scene is sampled through an RGGB Bayer mosaic, each photosite gets
    shot noise (Gaussian approximation of Poisson, variance = electrons) and read noise, is
    quantised to 16 bits, demosaiced (OpenCV bilinear) and scaled by the ISP's digital gain.
    photons_at_white: electrons a white patch collects. Normal deviates come from OpenCV's
    RNG seeded from `rng`."""
    h, w = frame.shape[:2]
    e = np.empty((h, w), np.float32)
    e[0::2, 0::2] = frame[0::2, 0::2, 2]      # R
    e[0::2, 1::2] = frame[0::2, 1::2, 1]      # G
    e[1::2, 0::2] = frame[1::2, 0::2, 1]      # G
    e[1::2, 1::2] = frame[1::2, 1::2, 0]      # B
    np.clip(e, 0.0, None, out=e)
    e *= photons_at_white
    std = e + read_noise_e * read_noise_e
    cv2.sqrt(std, std)
    n = np.empty((h, w), np.float32)
    cv2.setRNGSeed(int(rng.integers(1, 2 ** 31 - 1)))
    cv2.randn(n, 0.0, 1.0)
    std *= n
    e += std
    # 16-bit RAW with headroom: 1.0 (after digital gain) maps to 16384
    scale = 16384.0 * digital_gain / photons_at_white
    e *= scale
    raw = np.clip(e, 0, 65535).astype(np.uint16)
    rgb = cv2.cvtColor(raw, cv2.COLOR_BayerBG2BGR)
    return rgb.astype(np.float32) * np.float32(1.0 / 16384.0)


def noise_sigma_8bit(photons_at_white, read_noise_e, digital_gain, level=0.18):
    """Approximate standard deviation, in 8-bit sRGB steps, at a mid-grey (linear 0.18 after gain)."""
    lin = level / max(digital_gain, 1e-6)
    e = lin * photons_at_white
    std_lin = math.sqrt(e + read_noise_e ** 2) / photons_at_white * digital_gain
    # slope of the sRGB curve at `level`
    slope = 1.055 / 2.4 * level ** (1 / 2.4 - 1)
    return std_lin * slope * 255.0


def finish(frame, mirrored):
    img = compose.to_srgb8(frame)
    if mirrored:
        img = img[:, ::-1].copy()
    return img


def encode(img, path, jpeg_quality, png_level=1):
    """Writes PNG (jpeg_quality None) or JPEG (4:2:0, OpenCV's libjpeg) bytes."""
    if jpeg_quality is None:
        ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, int(png_level)])
    else:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
    if not ok:
        raise RuntimeError("encoding failed for " + path)
    with open(path, "wb") as f:
        f.write(buf.tobytes())
