// First guess of a candidate's plane. Along rays from the candidate centre the stroke
// edges form a comb whose scale (and, against the wide background band inside ring 1,
// polarity) gives the code's size; one ring is then traced from ray to ray through the
// stroke centres, and its ellipse, measured again from its own centre, is an affine
// guess of the code plane. Which of the five rings was traced is settled later.
#pragma once
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

#include "comb_table.hpp"
#include "image_view.hpp"
#include "locate.hpp"
#include "rim_edge.hpp"
#include "steep_rim.hpp"

namespace appclip::vision {

class RoughEllipse {
public:
    RoughEllipse() = default;
    RoughEllipse(const RoughEllipse&) = delete;   // scan_ points into the object itself
    RoughEllipse& operator=(const RoughEllipse&) = delete;

    // On success `h` maps centred code units to pixels (affine, in-plane rotation arbitrary).
    // `polarity` is +1 for strokes lighter than the background, −1 for darker ones.
    // `alternative`: the polarity (and so the scale) that lost the contrast test.
    bool fit(const Frame& frame, const Candidate& candidate, bool alternative, cv::Matx33d& h, double& polarity);
    // The outline behind the last successful fit's affine plane when that outline is steep
    // (minor axis under kSteepOutlineRatio of the major): the code's rim when the plane came
    // from the rays' comb scales (`is_rim`), else the traced ring (which of the five is not
    // known). An affine plane puts a steep code's rings off its strokes; the perspective
    // within the outline is then worth searching. False for an outline seen nearly face on.
    bool steep_outline(cv::RotatedRect& outline, bool& is_rim) const {
        if (!steep_outline_valid_) return false;
        outline = steep_outline_, is_rim = steep_outline_is_rim_;
        return true;
    }
    // Forget the cached first-pass scan and renew the steep-rim budget (call once per frame).
    void new_frame() {
        cached_ = false;
        steep_votes_left_ = kSteepVotesPerFrame;
        steep_centre_ = cv::Point2d(-1e9, -1e9);
        steep_votes_here_ = 0;
    }

private:
    int comb_scan(const Frame& frame, cv::Point2d center, const double* comb, double step, double r_lo, double r_hi,
                  bool score_combs);
    // The first-pass scan's scale (samples) from scale_choice_, and its polarity into polarity_
    // (see the definition).
    double best_scale(bool alternative);
    // Each polarity's median scale of the rays (0: too few rays scored) and the polarity
    // whose strokes stand off the background (side 0: +1, 1: -1; -1: neither).
    struct ScaleChoice {
        double scale_for[2] = {0, 0};
        int side = -1;
    };
    ScaleChoice choose_scale(int r_count, double r_lo);
    bool ellipse_from_rays(cv::Point2d center, double step, double r0, cv::RotatedRect& out);
    // Fallback when no single ring can be traced (blur, small codes, steep tilt): every ray's
    // own best comb scale puts a rim point on it; an ellipse through the consistent ones.
    bool ellipse_from_combs(cv::Point2d center, double step, double r_lo, double r0, cv::RotatedRect& out);
    void strokes_on_ray(int ray, double t_lo, double t_hi, double period, std::vector<float>& out);
    // Fallback when neither a ring nor half the rays' combs give the rim (a steep code whose
    // rings blur out across the minor axis): the rays' comb peaks vote for a centred ellipse.
    bool steep_rim(cv::Point2d center, double step, double r_lo, cv::RotatedRect& out);
    // Fits that may fall back on it: per frame, in the detector's order (outlines, then vote
    // peaks by rank; on texture nearly every fit reaches it), and per place (a place's fits in
    // turn: sizes, polarities, rim or logo disc). 12 and 2 kept 5 of the 6 codes an unlimited
    // number reads on four frame sets, for +4 % / +3 % instructions instead of +10 % / +11 %.
    static constexpr int kSteepVotesPerFrame = 12;
    static constexpr int kSteepVotesPerPlace = 2;
    int steep_votes_left_ = kSteepVotesPerFrame;
    cv::Point2d steep_centre_{-1e9, -1e9};   // the place of the last fits
    int steep_votes_here_ = 0;
    // Whether this fit may vote: counts it against both budgets.
    bool take_steep_vote(const Candidate& candidate);
    SteepRimVote steep_rim_vote_;
    std::vector<std::vector<float>> ray_strokes_;
    std::vector<int> rises_;   // one ray's rising edges (strokes_on_ray)

    double polarity_ = 1.0;
    std::vector<double> ray_best_, sorted_best_;
    std::vector<double> ray_scale_;   // per polarity, each ray's own best comb scale
    double ray_contrast(double scale, const double* ray_scale, double polarity) const;

    int rays_ = 72;         // rays in the current pass
    double r_grid_ = 0.5;   // comb scale grid, in samples
    CombTable comb_table_;
    // comb_scan's derivative profiles, kLanes rays interleaved per block, for CombTable::sums;
    // and per ray, the scales its comb is scored at.
    static constexpr int kLanes = 4;
    std::vector<float> interleaved_;
    std::vector<int> scored_;
    std::vector<float> edge_peaks_;   // outline_clip's scratch
    // What comb_scan measures along the rays of one pass.
    struct RayScan {
        std::vector<float> profiles, derivative, scores;
        std::vector<int> valid;
        int r_count = 0, samples = 0;
    };
    // The first pass of the last fit (the other-polarity attempt on the same candidate
    // scans exactly the same rays, so it is kept for it) and the later passes; `scan_` is
    // the one being worked on.
    RayScan first_pass_, later_pass_;
    RayScan* scan_ = &first_pass_;
    bool cached_ = false;
    ScaleChoice scale_choice_;   // of the cached first pass
    cv::Point2d cached_center_;
    double cached_lo_ = 0, cached_hi_ = 0;
    static constexpr double kSteepOutlineRatio = 0.6;
    cv::RotatedRect steep_outline_;
    bool steep_outline_valid_ = false, steep_outline_is_rim_ = false;
    std::vector<cv::Point2f> rim_;
    std::vector<cv::Point2f> inliers_;
    RimEdge rim_edge_;
};

// Ellipse → centred-code-to-image affine homography for a circle of `radius` code units.
cv::Matx33d affine_from_ellipse(const cv::RotatedRect& ellipse, double radius);

// The plane of a code whose circle of `radius` code units (the rim, or the logo's disc) is
// `outline`. An ellipse alone leaves the perspective open: a tilted code's centre and rings
// sit off its outline's centre, toward the near side. The projective maps that keep that
// circle in place (hyperbolic rotations along the outline's minor axis) are searched for
// the one that puts the rings on strokes; when none shows rings enough for a fit, the
// outline itself is adjusted too (a small code's contour is a little off). `always_climb`:
// adjust the outline and perspective together in any case (an ellipse voted from comb peaks,
// a few percent off in its axes).
// `plane_contrast`, when given, receives the returned plane's ring contrast (its magnitude).
cv::Matx33d plane_within_outline(const Frame& frame, const cv::RotatedRect& outline, double radius,
                                 bool always_climb = false, double* plane_contrast = nullptr);
// plane_within_outline for an outline of the rim, from the outline as given and from the
// outline snapped onto the rim's edge (`rim_edge`): the plane whose rings show the more
// contrast. A contour's outline can run into the rings or the ground at a steep code's ends,
// and a rim voted from comb peaks has its centre where the vote was.
cv::Matx33d plane_within_rim(const Frame& frame, RimEdge& rim_edge, const cv::RotatedRect& outline,
                             bool always_climb = false);
// The same for an outline that is one of the five rings, not known which: each ring's
// plane, the one whose rings show the most contrast.
cv::Matx33d plane_within_ring_outline(const Frame& frame, const cv::RotatedRect& outline);

// Normalised distance of points from an ellipse outline (0 on it, 0.1 = 10% of the radius off).
class EllipseDistance {
public:
    explicit EllipseDistance(const cv::RotatedRect& e);
    double operator()(const cv::Point2f& p) const;

private:
    double cx_, cy_, c_, s_, ia_, ib_;
};

}  // namespace appclip::vision
