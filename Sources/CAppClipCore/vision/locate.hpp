// Candidate code centres: gradient-direction voting on a small pyramid of the working image.
// Every edge of a circle (disc rim, ring strokes, logo) votes along its gradient line, so
// concentric structures pile votes on their common centre whatever their colours. Peaks
// are then ranked by how much the rays from them look like the code's five stroke rings
// (checked two levels finer), and midpoints of peak pairs are added because a strongly
// tilted code's votes gather at the two ends of its evolute rather than at its centre.
// A peak that reads no code gets a second centre from the symmetric edge pairs around it
// (refined_centre, symmetric_centres.hpp).
#pragma once
#include <algorithm>
#include <functional>
#include <vector>

#include <opencv2/core.hpp>

#include "candidate.hpp"
#include "comb_table.hpp"
#include "contour_tracer.hpp"
#include "edge_map.hpp"
#include "outline_rings.hpp"
#include "peak_merge.hpp"
#include "symmetric_centres.hpp"
#include "window_extremes.hpp"

namespace appclip::vision {

class Locator {
public:
    // The smallest code looked for on any level, in that level's pixels: a working image
    // narrower than this holds no code the locator can find.
    static constexpr double kMinCodeDiameter = 20.0;

    // Votes on the pyramid of `work` (the decimated luma; `scale` = full-resolution pixels per
    // working pixel) and merges the peaks one code gives on several levels; rank() ranks them.
    // `full` is the full-resolution luma (for checking small candidates).
    void locate(const cv::Mat& full, const cv::Mat& work, double scale, double min_diameter_full);
    // The last locate()'s strongest vote peaks (kRankedPeaks by votes, then the kProminentPeaks
    // most prominent of the rest) for which
    // `covered(centre)` is false, ranked by their rings, with the best few midpoints of pairs
    // among them: up to `max_candidates`, best first, into `out`, except that the most
    // prominent is moved up to place `read_first` (the number the caller reads first) when
    // ranked below it. Run once the outlines have been read: on a code read there, its rings
    // and logo hold most of the peaks (std camera frames whose code an outline read: 23 of
    // 32, and 13 of 20 midpoints), which then need no ring check.
    void rank(const std::function<bool(const cv::Point2d&)>& covered, int max_candidates, int read_first,
              std::vector<Candidate>& out);

    // Pyramid level `l` of the last locate() (level 0 is the working image).
    const cv::Mat& level(int l) const { return levels_[std::min(l, std::max(0, level_count_ - 1))]; }
    // Closed elliptical edge contours on `work` (a pyramid level), grouped by centre: a tilted
    // code's disc rim and rings give its centre directly, where votes miss it. Returned
    // as candidates with their centre and a size range from the group's largest ellipse,
    // the most ring-like first (OutlineRingCheck's score, kept in Candidate::score), appended
    // to `out` (up to `max_candidates` new ones): an outline already in `out` (same centre
    // and size, found on another level) is not added again. A level of the last locate()
    // must still hold that frame: its vote's derivatives are reused.
    void find_ellipses(const cv::Mat& work, double scale, double min_diameter_full, int max_candidates,
                       std::vector<Candidate>& out);

    // The strongest vote peaks of the last locate() past those rank() took (by votes) for
    // which `covered(centre)` is false: up to `count` of them, ranked by their rings as rank()
    // ranks its own (no midpoints), into `out`. Once codes are read their rings and logos no
    // longer hold the ranking's places, and the next peaks are looked at.
    void refill(const std::function<bool(const cv::Point2d&)>& covered, int count, std::vector<Candidate>& out);

    // The centre of the symmetric edge pairs around a ranked candidate (SymmetricCentres::
    // find_near, on its voted level), in full-resolution pixels, when its rings score clearly
    // higher there than at its own centre (kRefinedRingGain); false otherwise.
    bool refined_centre(const Candidate& c, cv::Point2d& centre);

private:
    // Scores a merged vote peak by its rings at its voted level, the two above and its
    // coarsest (best_level, voted_level and levels set), its score the ring score with part
    // of an outstanding vote lead kept; returns the ring score.
    float rank_by_rings(Candidate& c);
    std::vector<Candidate> overflow_;   // merged peaks past the ranked ones, by votes
    // How much a candidate looks like five concentric stroke rings (scale-free ratio), from
    // kRingRays rays.
    float ring_score(const Candidate& candidate, int level);
    static constexpr int kRingRays = 8;
    // Appends to `list` the best few midpoints of pairs among `sources`, of which those from
    // `first_leader` on were added for their votes alone. Pairs whose peaks voted more than
    // kMaxCuspLevels from the level their distance implies, and midpoints `covered`, are
    // left out.
    void add_midpoints(const std::vector<Candidate>& sources, int first_leader,
                       const std::function<bool(const cv::Point2d&)>& covered, std::vector<Candidate>& list);
    void vote_level(const cv::Mat& image, int level, double scale, std::vector<Candidate>& out);

    std::vector<cv::Mat> levels_;
    cv::Mat pyramid_rows_;   // pyr_down's scratch
    struct VoteScratch {
        cv::Mat dx, dy, magnitude, votes, smooth, rows;
        std::vector<float> blocks, columns;   // block sums of `smooth` (the peaks' local floors), column sums
        std::vector<unsigned char> row_may_peak;   // per row of `smooth`, whether a cell reaches kMinPeak
        std::vector<float> window_max;             // row_peaks' scratch
        std::vector<unsigned char> peak_flags;
        std::vector<int> peak_x;
        std::vector<EdgeVoter> voters;         // the edge pixels that voted, for SymmetricCentres
    };
    std::vector<VoteScratch> vote_scratch_;   // per pyramid level
    std::vector<int> histogram_;        // per tile, then the frame's
    std::vector<int> edge_x_;           // per row of a level, its pixels over kMinEdge (x)
    std::vector<int> edge_row_start_;   // where each row's stretch of edge_x_ starts
    std::vector<int> tile_of_column_;
    std::vector<int> tile_threshold_;
    std::vector<float> ray_profile_, ray_comb_;
    std::vector<float> ray_derivatives_;   // the rays' derivative profiles, interleaved (t * rays + ray)
    std::vector<CombTable> comb_tables_;   // per level of ring_score
    std::vector<double> window_sum_, zone_sum_, ray_energy2_;
    std::vector<double> ray_zone_;      // per ray and scale: the ring zone's energy
    std::vector<int> zone_lo_, zone_hi_;
    std::vector<int> window_end_;
    WindowExtremes<kRingRays> window_extremes_;   // ring_score's, one lane per ray
    cv::Mat full_;
    std::vector<Candidate> peaks_;    // every level's vote peaks, then merged_'s source
    PeakMerger merger_;
    std::vector<Candidate> merged_;   // the strongest merged peaks by votes, then the most prominent
    std::vector<Candidate> midpoints_;
    std::vector<Candidate> vote_leaders_, pair_sources_;
    SymmetricCentres symmetric_centres_;   // refined_centre's
    int level_count_ = 0;
    int voted_levels_ = 0;   // bit L: vote_level ran on level L in the last locate()
    EdgeMap edge_map_;
    cv::Mat edges_;
    ContourTracer contours_;
    std::vector<cv::Point2f> contour_points_, fit_points_;
    struct EllipseGroup {
        cv::RotatedRect largest;
        double smallest_major = 0;
        cv::Point2f inner_center;   // of the smallest: nearest the code's projected centre
        cv::RotatedRect outline;   // the largest, in full-resolution pixels
        float rings = 0;           // OutlineRingCheck's score of the outline
    };
    OutlineRingCheck outline_rings_;
    std::vector<EllipseGroup> groups_;
};

}  // namespace appclip::vision
