// A candidate code: where the locator (vote peaks, outlines) thinks a code may lie, and at
// which sizes.
#pragma once
#include <algorithm>

#include <opencv2/core.hpp>

namespace appclip::vision {

struct Candidate {
    cv::Point2d center;      // full-resolution pixels
    double diameter_lo = 0;  // plausible code diameter range, full-resolution pixels
    double diameter_hi = 0;
    float score = 0;
    float ring = 0;          // the ring check's score (rank_by_rings), before any vote lead
    // A vote peak over the mean votes around it, as `score` is over its level's mean: busy
    // texture outvotes a code on plain ground (a card in leaves or gravel), which still stands
    // out from its surroundings.
    float prominence = 0;
    int levels = 0;          // bit L: seen on pyramid level L (codes 20..48 level pixels across)
    int best_level = 0;      // the level whose size range looks most like rings
    int voted_level = 0;     // the level of the strongest vote peak
    double level0_scale = 1; // full-resolution pixels per level-0 pixel
    cv::RotatedRect outline;  // ellipse candidates: the outline, full-resolution pixels

    // Size range of the code if it is the one level L sees.
    double level_lo(int level) const { return 20.0 * level0_scale * (1 << level); }
    double level_hi(int level) const { return 48.0 * level0_scale * (1 << level); }
    double outline_major() const { return std::max(outline.size.width, outline.size.height); }
    // `center` in pyramid level `l`'s pixels, and a level-`l` point in full-resolution pixels
    // (pyrDown keeps level pixel j on working pixel 2^l j; working pixel i covers
    // full-resolution pixels [i s, (i + 1) s)).
    cv::Point2d level_point(int l) const {
        return {((center.x + 0.5) / level0_scale - 0.5) / (1 << l), ((center.y + 0.5) / level0_scale - 0.5) / (1 << l)};
    }
    cv::Point2d full_point(const cv::Point2d& p, int l) const {
        return {(p.x * (1 << l) + 0.5) * level0_scale - 0.5, (p.y * (1 << l) + 0.5) * level0_scale - 0.5};
    }
};

}  // namespace appclip::vision
