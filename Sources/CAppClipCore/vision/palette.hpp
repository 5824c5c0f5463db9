// The code's three colours, clustered per code (no template is assumed): background from
// the bands between rings, foreground and third from the strokes (third lies nearer the
// background). Fills each ring bin's ink level: 0 background, ~0.5 third, 1 foreground.
#pragma once
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

#include "light_field.hpp"
#include "ring_sampling.hpp"

namespace appclip::vision {

struct CodePalette {
    cv::Vec3f background, foreground, third;
    float third_level = 0.5f;  // ink level of the third colour
    float ring_third_level = 0.5f;  // the same in linear light, as the ring profiles' ink is
    float contrast = 0;        // |foreground − background|
};

// Buffers cluster_palette reuses from call to call.
struct PaletteScratch {
    std::vector<cv::Vec3f> picks;
    std::vector<std::uint64_t> ranked;      // (distance, sample) keys, see foreground_seed
    std::vector<float> band_departure;
    std::vector<unsigned char> band_glare;
    std::vector<unsigned char> clipped_glare;   // ring bins in a clipped run (see flag_clipped_runs)
    std::vector<unsigned char> band_covered;   // band degrees under an object (see level_background)
    std::vector<float> lum;
    std::vector<float> channel;           // one colour channel, for medians
    std::vector<float> red, green, blue;  // the reliable ring samples, channel by channel
    std::vector<unsigned char> nearest, nearest_before;   // each one's nearest centre, now and one iteration before
    LightFieldScratch light;
    std::vector<unsigned char> background_runs;   // see erase_background_runs
};

// Evens out light falling off across the code (even_out_light), clusters the code's colours
// and fills `profiles.ink` and `profiles.reliable`.
bool cluster_palette(RingProfiles& profiles, CodePalette& palette, PaletteScratch& scratch);

// Along a ring the background shows only in the gaps at arc starts: a longer stretch of
// background colour (past twice the ring's half gap and 6 degrees) is something of that colour
// over the code (a white object on a white code) or a plane off the ring there, whose bins
// would read as gaps, confidently. Makes them erasures (ink 0.5, unreliable) and returns true,
// unless there are none or they cover over a tenth of the rings (a plane off the rings, or
// steep thin strokes blurred towards the background). After cluster_palette; `marked` is
// scratch.
bool erase_background_runs(RingProfiles& profiles, float third_level, std::vector<unsigned char>& marked);

inline float luminance(const cv::Vec3f& c) { return 0.299f * c[0] + 0.587f * c[1] + 0.114f * c[2]; }

// How far `x` lies from the background towards the foreground (0 background, 1 foreground),
// with the axis and its norm computed once for many samples.
struct InkScale {
    cv::Vec3f from, axis;
    float norm;
    InkScale(const cv::Vec3f& background, const cv::Vec3f& foreground)
        : from(background), axis(foreground - background), norm(std::max(1e-6f, axis.dot(axis))) {}
    float operator()(const cv::Vec3f& x) const { return (x - from).dot(axis) / norm; }
};

inline float ink_between(const cv::Vec3f& background, const cv::Vec3f& foreground, const cv::Vec3f& x) {
    return InkScale(background, foreground)(x);
}

inline float ink_level(const CodePalette& p, const cv::Vec3f& x) { return ink_between(p.background, p.foreground, x); }

}  // namespace appclip::vision
