#include "profile_accumulator.hpp"

#include <cmath>
#include <cstdint>

#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "homography.hpp"
#include "palette.hpp"

namespace appclip::vision {
namespace {

constexpr int kSize = kRings * RingProfiles::kBins;
// A hint belongs to a track when its centre lies this far (in rim radii) from the track's
// last reported centre and its size is within this ratio.
constexpr double kMatchDistance = 0.25, kMatchScale = 1.25;

float channel_sum(const cv::Vec3f& c) { return c[0] + c[1] + c[2]; }

cv::Vec3f unpacked(std::uint32_t rgb) {
    return {static_cast<float>(rgb >> 16 & 0xff), static_cast<float>(rgb >> 8 & 0xff), static_cast<float>(rgb & 0xff)};
}

}  // namespace

FusedTrack& ProfileAccumulator::match(const cv::Matx33d& hint, unsigned frame_index) {
    const cv::Point2d c = apply(hint, 0, 0);
    const double s = local_scale(hint, 0, 0);
    FusedTrack* stalest = &tracks_[0];
    for (FusedTrack& t : tracks_) {
        if (t.live && frame_index - t.last_frame > kForgetAfter) t.live = false;
        if (t.live) {
            const cv::Point2d tc = apply(t.reported, 0, 0);
            const double ts = local_scale(t.reported, 0, 0);
            const double ratio = s > ts ? s / ts : ts / s;
            if (std::hypot(c.x - tc.x, c.y - tc.y) < kMatchDistance * 400 * ts && ratio < kMatchScale) {
                t.last_frame = frame_index;
                return t;
            }
        }
        if (!t.live || (stalest->live && t.last_frame < stalest->last_frame)) stalest = &t;
    }
    FusedTrack& t = *stalest;
    clear(t, hint, 0);
    t.last_frame = frame_index;
    t.live = true;
    t.unread_reads = 0;
    return t;
}

void ProfileAccumulator::clear(FusedTrack& track, const cv::Matx33d& reported, int decoded_polarity) {
    track.color_sum.assign(kSize, cv::Vec3f());
    track.color_count.assign(kSize, 0.f);
    track.frames = track.attempts = 0;
    track.t_sum = 0;
    track.decoded_polarity = decoded_polarity;
    track.reported = reported;
}

void ProfileAccumulator::restart(FusedTrack& track, const acc_detection& decoded) {
    cv::Matx33d h;
    for (int i = 0; i < 9; ++i) h.val[i] = decoded.homography[i];
    const float contrast = luminance(unpacked(decoded.palette.foreground)) - luminance(unpacked(decoded.palette.background));
    clear(track, h * svg_from_centred(), contrast > 0 ? 1 : contrast < 0 ? -1 : 0);
    track.unread_reads = 0;
}

int ProfileAccumulator::turn_to_sums(const FusedTrack& track, const RingProfiles& profiles) {
    if (track.frames == 0) return 0;
    const int n = RingProfiles::kBins;
    frame_luma_.assign(kSize, 0.f);
    sums_luma_.assign(kSize, 0.f);
    // Luma of both, less each ring's mean, 0 where unseen: the strokes' gaps are what turns.
    for (int k = 0; k < kRings; ++k) {
        double frame_mean = 0, sums_mean = 0;
        int frame_n = 0, sums_n = 0;
        for (int b = 0; b < n; ++b) {
            const int i = k * n + b;
            if (profiles.valid[i]) frame_luma_[i] = channel_sum(profiles.color[i]), frame_mean += frame_luma_[i], ++frame_n;
            if (track.color_count[i] > 0) {
                sums_luma_[i] = channel_sum(track.color_sum[i]) / track.color_count[i];
                sums_mean += sums_luma_[i], ++sums_n;
            }
        }
        for (int b = 0; b < n; ++b) {
            const int i = k * n + b;
            if (profiles.valid[i]) frame_luma_[i] -= static_cast<float>(frame_mean / std::max(1, frame_n));
            if (track.color_count[i] > 0) sums_luma_[i] -= static_cast<float>(sums_mean / std::max(1, sums_n));
        }
    }
    int best_turn = 0;
    double best = -1e300;
    for (int turn = -kMaxTurnBins; turn <= kMaxTurnBins; ++turn) {
        double score = 0;
        for (int k = 0; k < kRings; ++k)
            for (int b = 0; b < n; ++b) score += frame_luma_[k * n + b] * sums_luma_[k * n + (b + turn + n) % n];
        if (score > best) best = score, best_turn = turn;
    }
    return best_turn;
}

void ProfileAccumulator::add(FusedTrack& track, const RingProfiles& profiles, int turn) {
    const int n = RingProfiles::kBins;
    for (int k = 0; k < kRings; ++k)
        for (int b = 0; b < n; ++b) {
            const int i = k * n + b, to = k * n + ((b + turn) % n + n) % n;
            if (profiles.valid[i]) track.color_sum[to] += profiles.color[i], track.color_count[to] += 1.f;
        }
    ++track.frames;
}

void ProfileAccumulator::fused(const FusedTrack& track, const RingProfiles& current, RingProfiles& out) {
    out.color.resize(kSize);
    out.valid.resize(kSize);
    for (int i = 0; i < kSize; ++i) {
        const float n = track.color_count[i];
        out.valid[i] = n > 0 ? 1 : 0;
        out.color[i] = n > 0 ? track.color_sum[i] * (1.f / n) : cv::Vec3f();
    }
    out.background = current.background;
    // The bands show one frame's light, not the sum's.
    out.band.clear();
    out.band_valid.clear();
}

void ProfileAccumulator::reorient(FusedTrack& track, const RotationHypothesis& hyp, const cv::Matx33d& reported) {
    track.reported = reported;
    if (std::abs(hyp.theta_deg) < 0.5 * RingProfiles::kBinDeg && !hyp.mirrored) return;
    // Code angle φ of the new frame sits at θ + φ (θ − φ mirrored) in the old one.
    const int n = RingProfiles::kBins;
    const int shift = static_cast<int>(std::lround(hyp.theta_deg / RingProfiles::kBinDeg));
    turned_color_.resize(kSize);
    turned_count_.resize(kSize);
    for (int k = 0; k < kRings; ++k)
        for (int b = 0; b < n; ++b) {
            const int old = hyp.mirrored ? shift - b - 1 : shift + b;
            const int src = k * n + ((old % n) + n) % n;
            turned_color_[k * n + b] = track.color_sum[src];
            turned_count_[k * n + b] = track.color_count[src];
        }
    track.color_sum.swap(turned_color_);
    track.color_count.swap(turned_count_);
}

void ProfileAccumulator::follow(FusedTrack& track, const cv::Matx33d& hint) {
    if (track.frames == 0) return;
    // m takes the hint's code plane to the reported one: a turn by θ (a mirror image
    // mirrored) when both describe the same plane, plus the little the code moved between
    // the frames, which turn_to_sums finds.
    const cv::Matx33d m = track.reported.inv() * hint;
    const cv::Point2d c = apply(m, 0, 0), px = apply(m, 1, 0), py = apply(m, 0, 1);
    const bool mirrored = (px.x - c.x) * (py.y - c.y) - (px.y - c.y) * (py.x - c.x) < 0;
    // θ as the mean turn of eight rim points about the centre (angle θ + α, or θ − α).
    double sx = 0, sy = 0;
    for (int k = 0; k < 8; ++k) {
        const double a = k * kPi / 4;
        const cv::Point2d q = apply(m, 400 * std::cos(a), 400 * std::sin(a));
        const double turn = std::atan2(q.y - c.y, q.x - c.x) + (mirrored ? a : -a);
        sx += std::cos(turn), sy += std::sin(turn);
    }
    RotationHypothesis hyp;
    hyp.theta_deg = std::atan2(sy, sx) / kDeg;
    hyp.mirrored = mirrored;
    ACC_TRACE("  follow: hint turned %.2f deg%s from the sums\n", hyp.theta_deg, mirrored ? " mirrored" : "");
    if (!mirrored && std::abs(hyp.theta_deg) <= kMaxTurnBins * RingProfiles::kBinDeg) return;
    reorient(track, hyp, hint);
}

}  // namespace appclip::vision
