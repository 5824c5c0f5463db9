// The detector object: owns every scratch buffer so frames after the first allocate nothing.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "../format/status.hpp"
#include "appclip_core.h"
#include "candidate_reader.hpp"
#include "image_view.hpp"
#include "locate.hpp"
#include "pyramid.hpp"
#include "rim_edge.hpp"
#include "rough_ellipse.hpp"

namespace appclip::vision {

class Detector {
public:
    explicit Detector(const acc_detector_options& options);

    Failure detect(const acc_image_view& view, const acc_search_hint* hints, int hint_count,
                   acc_detection* detections, int capacity, int* count, acc_frame_stats* stats);

private:
    // Index (in found_) of this frame's code whose disc holds `point`, or -1.
    int covering(const cv::Point2d& point) const;
    bool covered(const cv::Point2d& point) const { return covering(point) >= 0; }
    // The same for the full search, to which a tracked code its hint left unread is still
    // open: a fresh fit may read it where the hinted plane (an alignment's) did not. So is a
    // code the search itself reported failed, for a few more candidates (spend_reread).
    bool covered_for_search(const cv::Point2d& point) const;
    // Counts a read of a candidate at `point` against the rereads of the codes this search
    // reported failed there; whether it lies on one.
    bool spend_reread(const cv::Point2d& point);
    static cv::Matx33d inverse_homography(const acc_detection& detection);
    double decimation(int width, int height, double min_diameter) const;

    acc_detector_options options_;
    Frame frame_;
    cv::Mat luma_scratch_;
    cv::Mat work_;
    AreaShrink area_shrink_;   // frames that do not shrink by a whole factor
    Locator locator_;
    RoughEllipse rough_;
    RimEdge rim_edge_;
    CandidateReader reader_;
    ProfileAccumulator accumulator_;
    std::vector<Candidate> candidates_;
    std::vector<Candidate> ellipse_candidates_;
    std::vector<Candidate> coarse_ellipses_;   // outlines on a coarser level, to acquire
    std::vector<Candidate> refill_;            // vote peaks past the ranked ones (Locator::refill)
    std::vector<cv::Point2d> refined_tried_;   // refined vote-peak centres read this search
    struct FoundCode {
        cv::Matx33d inverse;   // pixels → SVG
        // Candidates the search may still read on it (covered_for_search): none once decoded,
        // kFailedCodeRereads when the search reported it failed, any number (kOpenToSearch)
        // when a hint left it unread.
        int open_reads;
    };
    std::vector<FoundCode> found_;   // this frame's codes
    acc_detection scratch_detection_, fused_detection_;
    unsigned frame_index_ = 0;
};

// Options with defaults filled in and values clamped to what the detector supports.
acc_detector_options sanitize(const acc_detector_options* options);

}  // namespace appclip::vision

// The C handle is the C++ object.
struct acc_detector {
    explicit acc_detector(const acc_detector_options& options) : impl(options), max_pixels(options.max_image_pixels) {}
    long long impl_max_pixels() const { return max_pixels; }
    appclip::vision::Detector impl;
    long long max_pixels;
};
