// The rim of a steeply tilted code from the comb peaks along the rough fit's rays. Seen at
// 55° and more from its axis, a blurred code shows its rings only on rays near the major
// axis: across the minor axis they lie a few pixels apart and blur wipes them out, so no
// ring can be traced from ray to ray and the rays' own comb scales disagree. Each ray's comb
// peaks (where it may cross the rim) still vote for the ellipses that pass through them: for
// an ellipse centred on the rays' origin, of axis ratio q and major-axis angle φ, a peak at
// distance t in direction θ stands for the semi-major axis
// a = t · sqrt(cos²(θ−φ) + sin²(θ−φ) / q²). The ellipse with the most votes is the rim.
#pragma once
#include <utility>
#include <vector>

namespace appclip::vision {

struct SteepRim {
    double semi_major;  // samples
    double ratio;       // minor / major
    double angle;       // of the major axis, radians
};

class SteepRimVote {
public:
    // The peaks of one fit: forget the last fit's, then add each (x, y relative to the rays'
    // origin, in samples; strength: the comb's response, polarity applied).
    void clear_peaks() { xs_.clear(), ys_.clear(), strengths_.clear(); }
    void add_peak(double x, double y, float strength) {
        xs_.push_back(static_cast<float>(x)), ys_.push_back(static_cast<float>(y)), strengths_.push_back(strength);
    }
    int peak_count() const { return static_cast<int>(xs_.size()); }
    // Votes of the peaks over axis ratios up to kMaxRatio and all angles; semi-major axes on
    // the comb's scale grid (r_lo + r_grid · m, m < r_count). False unless the best such
    // ellipse out-votes the best circle by kMinLead (a circle's rim is the other fits' business).
    bool find(double r_lo, double r_grid, int r_count, SteepRim& out);

    static constexpr double kMaxRatio = 0.6;   // steeper than ~53°
    static constexpr double kMinLead = 1.2;

private:
    // The strongest semi-major axis bin for one ratio and angle: (votes, bin).
    std::pair<float, int> votes_for(double ratio, double angle, double r_lo, double r_grid, int r_count);
    std::vector<float> bins_;
    // The peaks as columns, and the bin slot of each for one hypothesis (worked out in one
    // pass the compiler runs on vectors, then counted).
    std::vector<float> xs_, ys_, strengths_;
    std::vector<int> slots_;
};

}  // namespace appclip::vision
