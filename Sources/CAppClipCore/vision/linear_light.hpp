// Pixel values are gamma-encoded (sRGB); blur, defocus, the sensor and the light falling on a
// code all act in linear light.
#pragma once
#include <algorithm>
#include <cmath>

#include <opencv2/core.hpp>

namespace appclip::vision {

// Blur mixes a stroke with its surroundings in linear light: in sRGB a half-covered dark
// stroke on a light ground reads as about a quarter of its ink, and a short foreground arc
// that blur half covers reads like a fully covered third-colour one. In linear light ink is
// proportional to coverage, so every arc fades by the same factor whatever its colour, as
// the sampler's fade model assumes.
// sRGB decoding on 0..255, tabulated at whole levels and interpolated.
struct LinearLight {
    float at[257];
    LinearLight() {
        for (int v = 0; v <= 256; ++v) {
            const double c = std::min(v, 255) / 255.0;
            at[v] = static_cast<float>(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
        }
    }
    // Inline, and the table fetched once per loop: thousands of samples go through it per plane.
    cv::Vec3f operator()(const cv::Vec3f& srgb) const {
        cv::Vec3f out;
        for (int c = 0; c < 3; ++c) {
            // std::clamp to [0, 255], written out: the compiler keeps it in registers.
            const float v = srgb[c], x = v < 0.f ? 0.f : (255.f < v ? 255.f : v);
            const int i = static_cast<int>(x);
            out[c] = at[i] + (x - static_cast<float>(i)) * (at[i + 1] - at[i]);
        }
        return out;
    }
};

inline const LinearLight& linear_light() {
    static const LinearLight table;
    return table;
}

// sRGB encoding of a linear value (1 = 255), not clamped above: light divided out of a
// highlight may exceed white.
inline float srgb_from_linear(float linear) {
    const double c = std::max(0.f, linear);
    return static_cast<float>(255.0 * (c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055));
}

}  // namespace appclip::vision
