// Reads one candidate: fit the plane, sample the rings, cluster colours, search the
// rotation and hand each hypothesis's soft bits to the codec until one is accepted.
#pragma once
#include <vector>

#include <opencv2/core.hpp>

#include "appclip_core.h"
#include "concentric_fit.hpp"
#include "image_view.hpp"
#include "palette.hpp"
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
    // `polarity`: +1 light strokes, −1 dark strokes, 0 unknown (hints).
    ReadOutcome read(const Frame& frame, cv::Matx33d h, double polarity, bool try_mirrored, acc_detection& out,
                     StageTimes& times);

private:
    ConcentricFit fit_;
    RingProfiles profiles_;
    std::vector<RotationHypothesis> hypotheses_;
};

}  // namespace appclip::vision
