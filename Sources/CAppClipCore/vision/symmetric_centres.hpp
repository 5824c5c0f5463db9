// Code centres from central symmetry. The points of an ellipse whose tangents are parallel
// lie symmetric about its centre, so two edge pixels with opposite gradients vote for the
// midpoint between them. A code's rim and rings are concentric ellipses under any view, and
// their pairs all vote for (nearly) one point: the code's centre. Gradient-line votes
// (locate.cpp) pile up there only for a frontal code; a tilted code's spread along the
// evolutes of its rings, to either side of the centre.
#pragma once
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

namespace appclip::vision {

// An edge pixel that voted on a pyramid level: its position and Sobel gradient there.
struct EdgeVoter {
    int32_t x, y;   // (a level may be wider than int16_t holds)
    int16_t gx, gy;
};

struct SymmetricPeak {
    cv::Point2d center;   // level pixels
    float votes;          // smoothed pair votes at the peak
};

class SymmetricCentres {
public:
    // The strongest centre of symmetric pairs within kNearRadius of `centre` (level pixels),
    // from the kMaxNearVoters strongest (|gx| + |gy|) of `voters` around it, which must be in
    // raster order (rows top down), as the locator records them: pairs kMinPairDistance to
    // kMaxPairDistance apart whose gradients are opposite within 15 degrees vote for their
    // midpoints. False when no centre has kMinPeakVotes.
    bool find_near(const std::vector<EdgeVoter>& voters, const cv::Point2d& centre, SymmetricPeak& out);

    // How far a vote peak may lie from the code's centre (level pixels): half the largest
    // code a level looks for.
    static constexpr int kNearRadius = 24;
    // Pair distances (level pixels): a code up to 48 level pixels across, from its innermost
    // stroke edges seen steeply across the minor axis to its rim along the major.
    static constexpr int kMinPairDistance = 4;
    static constexpr int kMaxPairDistance = 50;
    // A code 48 level pixels across has ~900 edge pixels (eleven edge curves), and the
    // pairs grow with the square of the count: only the strongest around the centre pair up.
    static constexpr size_t kMaxNearVoters = 600;
    // Smoothed votes a centre needs: a code's rings give dozens (std camera, 20..48 px).
    static constexpr float kMinPeakVotes = 8.f;

private:
    cv::Mat votes_, smooth_, rows_;                     // (2 kNearRadius + 5) square
    std::vector<EdgeVoter> local_;                      // the voters around the centre
    std::vector<int> bin_of_, bin_start_, order_;      // their direction bins, sorted by bin
    std::vector<float> fx_, fy_, fgx_, fgy_, fnorm2_;   // the same in bin order, as floats
    std::vector<int> partners_;   // one voter's partners that pass the pair tests (find_near)
    std::vector<unsigned char> keep_;   // per partner, whether it passes them
    std::vector<int> cells_;   // per partner, its midpoint's place in midpoints_
    std::vector<int> midpoints_;   // pairs per half-pixel midpoint, a guard row and column first
};

}  // namespace appclip::vision
