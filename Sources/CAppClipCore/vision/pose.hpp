// 6-DoF pose of a code of known size from its homography and the camera intrinsics.
#pragma once
#include "../format/status.hpp"
#include "appclip_core.h"

namespace appclip::vision {

Failure pose_from_homography(const double homography[9], const acc_camera_intrinsics& intrinsics,
                             double diameter_m, acc_pose& pose);

}  // namespace appclip::vision
