// Reads one candidate: fit the plane, sample the rings, cluster colours, search the
// rotation and hand each hypothesis's soft bits to the codec until one is accepted.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "../format/url.hpp"
#include "appclip_core.h"
#include "concentric_fit.hpp"
#include "drawing_fit.hpp"
#include "image_view.hpp"
#include "palette.hpp"
#include "position_sampling.hpp"
#include "profile_accumulator.hpp"
#include "ring_alignment.hpp"
#include "ring_sampling.hpp"
#include "rotation_search.hpp"

namespace appclip::vision {

struct StageTimes {
    double fit_ms = 0, sample_ms = 0, decode_ms = 0;
};

enum class ReadOutcome { not_a_code, failed, decoded };

class CandidateReader {
public:
    // `h` maps centred code units to pixels (rotation irrelevant). On decoded/failed,
    // `out` is filled completely; `confidence` of a failure tells how code-like it was.
    // `polarity`: +1 light strokes, −1 dark strokes, 0 unknown (hints). `drawing_fit`: whether
    // the drawing may be fitted (milliseconds per plane) when sampling does not read.
    ReadOutcome read(const Frame& frame, cv::Matx33d h, double polarity, bool try_mirrored, acc_detection& out,
                     StageTimes& times, bool drawing_fit = true);

    // A new frame: the planes read in the last one are forgotten.
    void new_frame() {
        unread_planes_.clear();
        failed_drawings_.clear();
    }

    // A tracked code whose own read failed: aligns the ring pattern directly (robust to
    // noise the edge fit is not), adds this frame's profiles to the track's and reads the
    // sum. Decodes only with extra unused checking, growing with the attempts made.
    ReadOutcome read_fused(const Frame& frame, cv::Matx33d h, FusedTrack& track, ProfileAccumulator& accumulator,
                           bool try_mirrored, acc_detection& out, StageTimes& times);

    // A candidate centre the edge-based fit could not trace (a code a few dozen pixels
    // across, in noise): the scale from the mean radial profile, then direct alignment.
    // Reports the code failed (located, unread) when its rings are surely there, so a
    // session can start fusing it; decoded when the codec accepts this frame alone.
    // `shape`: the code's outline when one was found (see RingAlignment::initial_plane).
    ReadOutcome acquire(const Frame& frame, cv::Point2d centre, double d_lo, double d_hi, const cv::Matx22d& shape,
                        bool try_mirrored, acc_detection& out, StageTimes& times);
    // The same from a plane the edge fit traced but that did not read (strokes found, too
    // noisy to read): direct alignment starts from the fitted plane instead of a bare centre.
    ReadOutcome acquire_plane(const Frame& frame, const cv::Matx33d& initial, bool try_mirrored, acc_detection& out,
                              StageTimes& times);
    // Planes the edge fit traced in this frame that read as no code (the newest last).
    size_t unread_plane_count() const { return unread_planes_.size(); }
    cv::Matx33d unread_plane(size_t i) const { return unread_planes_[i].inv(); }

private:
    // What reading one plane's profiles gave.
    struct Reading {
        bool decoded = false;
        acc_status status = ACC_E_UNCORRECTABLE;
        acc_decode_result result{};
        acc_ring_observation observation{};
        SamplingStats stats;
        RotationHypothesis hyp;       // the decoded one, else the strongest
        int template_wrong = 8;
        // Template bits confidently right, at best, in a hypothesis with at most one wrong.
        int template_right = 0;
        // Takes one hypothesis's attempt into account (`first`: the strongest hypothesis,
        // whose observation is kept when nothing decodes).
        void consider(const RotationHypothesis& hyp, const acc_ring_observation& observation,
                      const SamplingStats& stats, acc_status status, const acc_decode_result& result, bool first);
    };
    // An unread plane of a steep or small code, polished on its rings and read again
    // (see kPolishMaxPitchPx); true when that decoded, into other_plane_detection_.
    bool read_polished(const Frame& frame, const cv::Matx33d& h, const FitQuality& quality, bool try_mirrored,
                       bool drawing_fit, StageTimes& times);
    // A failed read's plane shifted a fraction of a pixel each way and read again (see
    // kShiftUnits); true when one decoded, into other_plane_detection_.
    bool read_shifted(const Frame& frame, const cv::Matx33d& h, const FitQuality& quality, bool try_mirrored,
                       StageTimes& times);
    // Reads a fitted plane (read() after the edge fit); a decode needs `min_check_bits` of
    // unused checking (0: whatever the codec accepts).
    ReadOutcome read_plane(const Frame& frame, const cv::Matx33d& h, const FitQuality& quality, bool try_mirrored,
                           bool drawing_fit, acc_detection& out, StageTimes& times, double min_check_bits = 0.0);
    // Whether this frame already read a plane that puts the rim and centre where `h` does
    // (rotation aside) and found no code there.
    bool read_before(const cv::Matx33d& h) const;
    // Clusters the palette and searches the rotation (into hypotheses_); false when there
    // is no palette or no rotation.
    bool rotations(RingProfiles& profiles, CodePalette& palette, bool try_mirrored);
    // Hands each rotation hypothesis's soft bits to the codec until one is accepted with at
    // least `min_check_bits` of unused checking (0: whatever the codec accepts). `plane`: the
    // one the profiles were sampled on, for readings that allow for light over a part of the
    // code; none for profiles fused over frames.
    Reading try_hypotheses(const RingProfiles& profiles, const CodePalette& palette, double min_check_bits,
                           const cv::Matx33d* plane);
    // The strongest hypotheses again, read by fitting the blurred drawing to the pixels
    // (small and blurred codes whose profiles mix neighbouring strokes and gaps).
    void try_drawing(const Frame& frame, const cv::Matx33d& h, const CodePalette& palette, Reading& reading);
    // Whether hypothesis `used` is worth reading: alternatives much weaker than the best
    // peak are noise, not rotations.
    bool plausible(size_t used) const { return used == 0 || hypotheses_[used].score >= 0.5 * hypotheses_[0].score; }
    // Confidence of a read on an aligned plane: a decode's from its margin; an unread
    // code's (at most 0.25) from how surely its rings are there.
    static float aligned_confidence(const Reading& reading, const AlignmentQuality& aligned);
    // `aligned`: the plane comes from ring alignment, not stroke edges (see acc_detection).
    void fill(const Frame& frame, const cv::Matx33d& h, const CodePalette& palette, const Reading& reading,
              bool aligned, acc_detection& out);

    ConcentricFit fit_;
    RingAlignment align_;
    DrawingFit drawing_;
    RingProfiles profiles_, fused_profiles_;
    PaletteScratch palette_scratch_;
    std::vector<RotationHypothesis> hypotheses_;
    UrlDecompressor urls_;   // the decoded payloads' URLs (the codec's last check, and the report's)
    std::vector<cv::Matx33d> unread_planes_;   // inverses of this frame's planes that read as no code
    acc_detection other_plane_detection_{};   // read_polished's or read_shifted's read
    std::vector<cv::Matx33d> failed_drawings_;   // inverses of this frame's planes the drawing fit could not read
    // Whether the drawing fit already failed kMaxDrawingsPerPlace times on planes centred
    // where `h` is.
    bool drawn_here_enough(const cv::Matx33d& h) const;
};

}  // namespace appclip::vision
