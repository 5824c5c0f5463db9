#include "palette.hpp"

#include <algorithm>
#include <cmath>

namespace appclip::vision {
namespace {

cv::Vec3f channel_median(std::vector<cv::Vec3f>& values) {
    cv::Vec3f m;
    std::vector<float> channel(values.size());
    for (int c = 0; c < 3; ++c) {
        for (size_t i = 0; i < values.size(); ++i) channel[i] = values[i][c];
        auto mid = channel.begin() + channel.size() / 2;
        std::nth_element(channel.begin(), mid, channel.end());
        m[c] = *mid;
    }
    return m;
}

float distance2(const cv::Vec3f& a, const cv::Vec3f& b) {
    const cv::Vec3f d = a - b;
    return d.dot(d);
}

}  // namespace

bool cluster_palette(RingProfiles& profiles, CodePalette& palette) {
    if (profiles.background.empty()) return false;
    cv::Vec3f bg = channel_median(profiles.background);
    // Farthest stroke colours from the background seed the foreground.
    float far2 = 0;
    for (size_t i = 0; i < profiles.color.size(); ++i)
        if (profiles.valid[i]) far2 = std::max(far2, distance2(profiles.color[i], bg));
    if (far2 < 100.f) return false;  // under 10 levels of contrast: nothing to read
    cv::Vec3f fg(0, 0, 0);
    int fg_n = 0;
    for (size_t i = 0; i < profiles.color.size(); ++i)
        if (profiles.valid[i] && distance2(profiles.color[i], bg) > 0.7f * far2) fg += profiles.color[i], ++fg_n;
    fg *= 1.f / std::max(1, fg_n);
    cv::Vec3f third = 0.5f * (fg + bg);

    // A few Lloyd iterations over ring samples; the background centre also keeps its own samples.
    for (int iter = 0; iter < 6; ++iter) {
        cv::Vec3f sum[3] = {};
        int count[3] = {0, 0, 0};
        for (size_t i = 0; i < profiles.color.size(); ++i) {
            if (!profiles.valid[i]) continue;
            const cv::Vec3f& x = profiles.color[i];
            const float d0 = distance2(x, bg), d1 = distance2(x, fg), d2 = distance2(x, third);
            const int c = d0 <= d1 && d0 <= d2 ? 0 : (d1 <= d2 ? 1 : 2);
            sum[c] += x;
            ++count[c];
        }
        for (const auto& x : profiles.background) sum[0] += x, ++count[0];
        if (count[0] > 0) bg = sum[0] * (1.f / count[0]);
        if (count[1] > 0) fg = sum[1] * (1.f / count[1]);
        if (count[2] > 0) third = sum[2] * (1.f / count[2]);
    }
    if (distance2(third, bg) > distance2(fg, bg)) std::swap(third, fg);
    palette.background = bg;
    palette.foreground = fg;
    palette.third = third;
    palette.contrast = std::sqrt(distance2(fg, bg));
    if (palette.contrast < 10.f) return false;
    palette.third_level = std::clamp(ink_level(palette, third), 0.2f, 0.9f);
    profiles.ink.resize(profiles.color.size());
    for (size_t i = 0; i < profiles.color.size(); ++i)
        profiles.ink[i] = profiles.valid[i] ? ink_level(palette, profiles.color[i]) : 0.5f;
    return true;
}

}  // namespace appclip::vision
