// Which glyph sits in the centre: the camera (a foreground disc with a background camera
// body and lens hole), the NFC phone (a foreground disc with a third-colour screen), or none.
#pragma once
#include <opencv2/core.hpp>

#include "appclip_core.h"
#include "image_view.hpp"
#include "palette.hpp"

namespace appclip::vision {

// `h` maps centred code units to pixels in the code's own orientation.
acc_logo classify_logo(const Frame& frame, const cv::Matx33d& h, const CodePalette& palette);

}  // namespace appclip::vision
