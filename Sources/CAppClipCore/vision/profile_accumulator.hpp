// Ring profiles of tracked codes summed over frames, so a code too small, noisy or dim to
// read in any one frame is read from several (the detector's side of session tracking).
//
// A hint continues the accumulation whose last reported plane it was predicted from
// (matched by centre and size). Profiles are kept in the code frame of that reported
// homography: when a frame's report turns the plane (a new rotation hypothesis), the sums
// are turned with it, so the next frame's hint — predicted from the report — lines up.
#pragma once
#include <array>
#include <vector>

#include <opencv2/core.hpp>

#include "appclip_core.h"

#include "ring_sampling.hpp"
#include "rotation_search.hpp"

namespace appclip::vision {

struct FusedTrack {
    cv::Matx33d reported;                 // centred code units → pixels, as last reported
    std::vector<cv::Vec3f> color_sum;     // [ring * kBins + bin]
    std::vector<float> color_count;
    int frames = 0;
    int attempts = 0;                     // decodes tried on the fused profiles
    double t_sum = 0;                     // ring alignment's signed t over the frames
    int decoded_polarity = 0;             // sign of stroke − background luma of a decode (0: none)
    // Sign of the rings' contrast to expect: a decode's palette, else what the frames agree on.
    double polarity() const { return decoded_polarity != 0 ? decoded_polarity : t_sum > 0 ? 1 : t_sum < 0 ? -1 : 0; }
    unsigned last_frame = 0;
    bool live = false;
    // Hinted frames in a row whose own read did not decode (kept when the sums start afresh).
    int unread_reads = 0;
};

class ProfileAccumulator {
public:
    static constexpr int kTracks = 8;
    static constexpr unsigned kForgetAfter = 15;   // frames without a hinted read
    static constexpr int kMaxTurnBins = 8;           // ±4 degrees between frames

    // The track `hint` continues, or a fresh one (the stalest slot); never null.
    FusedTrack& match(const cv::Matx33d& hint, unsigned frame_index);
    // The turn (whole bins, within ±kMaxTurnBins) that best lines `profiles` up with the
    // track's sums: ring alignment fixes centre, scale and tilt but not the in-plane
    // rotation, which the hint carries over from the last frame (camera roll moves it).
    int turn_to_sums(const FusedTrack& track, const RingProfiles& profiles);
    // Adds `profiles`, bin b to the sums' bin b + `turn`.
    static void add(FusedTrack& track, const RingProfiles& profiles, int turn = 0);
    // Mean colours of the track (a bin is valid once any frame saw it); the background
    // bands from this frame's `current`.
    static void fused(const FusedTrack& track, const RingProfiles& current, RingProfiles& out);
    // The plane is reported as `reported` = fitted · rotation(θ) [· mirror]: re-index the sums.
    void reorient(FusedTrack& track, const RotationHypothesis& hyp, const cv::Matx33d& reported);
    // The hint continuing `track` may hold its code in another orientation than the plane last
    // reported (a session keeps a code in the orientation its evidence agrees on, not the
    // reader's latest): re-index the sums to the hint's orientation when it is turned (or
    // mirrored) further than turn_to_sums reaches.
    void follow(FusedTrack& track, const cv::Matx33d& hint);
    // The sums start afresh from `hint`, polarity unknown; the code is still followed (how
    // long it has gone unread is kept).
    static void forget(FusedTrack& track, const cv::Matx33d& hint) { clear(track, hint, 0); }
    // The code was decoded: the sums start afresh from its plane, which the next hint is
    // predicted from, and its palette fixes the rings' polarity.
    static void restart(FusedTrack& track, const acc_detection& decoded);

private:
    // Empty sums for a code whose plane is `reported` (0: polarity unknown).
    static void clear(FusedTrack& track, const cv::Matx33d& reported, int decoded_polarity);

    std::array<FusedTrack, kTracks> tracks_;
    std::vector<cv::Vec3f> turned_color_;
    std::vector<float> turned_count_;
    std::vector<float> frame_luma_, sums_luma_;   // zero-mean per ring (turn_to_sums)
};

}  // namespace appclip::vision
