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

// Which of the rim ellipse's axes the polish searches over a grid.
enum class PolishAxes { minor, both };

// The plane (centred code units → pixels) whose |ring contrast| is highest near `h`: a grid
// over the minor axis's length and the centre's offset across it (a few per cent off, the
// rings alias onto their neighbours and a climb stops short), for `both` preceded by one over
// the major axis's length and the centre's offset along it (a plane whose perspective is off
// has both wrong there; searched first, as the minor axis's grid from a plane off along the
// major axis settles on a compromise), then coordinate ascent over the centre, both axes, a
// turn and the perspective. Returns the contrast reached (signed as at `h`) and leaves the
// plane in `h`.
double polish_on_rings(const Frame& frame, cv::Matx33d& h, PolishAxes axes);

}  // namespace appclip::vision
