// A fitted plane polished on the rings themselves. Seen steep or small, a code's strokes lie
// a few pixels apart across its minor axis and blur together there, so the edge fit's points
// scatter and its plane comes out a few per cent wide across that axis: enough to put the
// outer rings onto the bands between them. The ring contrast, read from the image along
// every ring and band, still peaks at the true plane.
#pragma once
#include <opencv2/core.hpp>

#include "image_view.hpp"

namespace appclip::vision {

// Pixels between neighbouring rings across the plane's minor axis, at its centre.
double minor_ring_pitch(const cv::Matx33d& h);

// Which of the rim ellipse's axes a polish searches over a grid.
enum class PolishAxes { minor, both };

// Polishes of one plane (centred code units → pixels). `start` takes the plane, its rim's
// axes and its ring contrast once; each `polish` then starts from it and returns the plane
// whose |ring contrast| is highest nearby: a grid over the minor axis's length and the
// centre's offset across it (a few per cent off, the rings alias onto their neighbours and a
// climb stops short), for `both` preceded by one over the major axis's length and the
// centre's offset along it (a plane whose perspective is off has both wrong there; searched
// first, as the minor axis's grid from a plane off along the major axis settles on a
// compromise), then coordinate ascent over the centre, both axes, a turn and the perspective.
class RingPolish {
public:
    // False when the plane's rim is no ellipse (it reaches the horizon), or a pixel across.
    bool start(const Frame& frame, const cv::Matx33d& h);
    // The start's ring contrast (signed: > 0 light strokes).
    double start_contrast() const { return start_contrast_; }
    // The polished plane into `out`; returns its ring contrast, signed as the start's.
    double polish(const Frame& frame, PolishAxes axes, cv::Matx33d& out) const;

private:
    cv::Matx33d h_;
    cv::Point2d centre_;
    double semi_major_ = 0, semi_minor_ = 0, axis_angle_ = 0;   // the rim's image; angle of its major axis
    double start_contrast_ = 0;
};

}  // namespace appclip::vision
