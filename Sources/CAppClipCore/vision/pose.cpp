#include "pose.hpp"

#include <cmath>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include "code_geometry.hpp"
#include "homography.hpp"

namespace appclip::vision {

Failure pose_from_homography(const double homography[9], const acc_camera_intrinsics& k, double diameter_m,
                             acc_pose& pose) {
    if (!(k.fx > 0 && k.fy > 0) || !(diameter_m > 0) || !std::isfinite(k.cx) || !std::isfinite(k.cy))
        return fail(ACC_E_INVALID_ARGUMENT, "intrinsics need positive focal lengths and the diameter must be positive");
    cv::Matx33d h;
    for (int i = 0; i < 9; ++i) {
        if (!std::isfinite(homography[i])) return fail(ACC_E_INVALID_ARGUMENT, "homography has a non-finite entry", i);
        h.val[i] = homography[i];
    }
    if (std::abs(cv::determinant(h)) < 1e-12) return fail(ACC_E_INVALID_ARGUMENT, "homography is singular");

    // Correspondences from the homography: the centre, two rings of points and the rim,
    // in metres on the code plane (x right, y down, z into the printed face).
    const double metres_per_unit = diameter_m / 800.0;
    std::vector<cv::Point3d> object;
    std::vector<cv::Point2d> image;
    object.reserve(25);
    image.reserve(25);
    object.emplace_back(0, 0, 0);
    image.push_back(apply(h, 400, 400));
    for (int ring = 1; ring <= 2; ++ring) {
        const double r = ring * 200.0;
        for (int i = 0; i < 12; ++i) {
            const double a = i * 30.0 * kDeg;
            const double x = r * std::cos(a), y = r * std::sin(a);
            object.emplace_back(x * metres_per_unit, y * metres_per_unit, 0);
            image.push_back(apply(h, 400 + x, 400 + y));
        }
    }
    const cv::Matx33d camera(k.fx, 0, k.cx, 0, k.fy, k.cy, 0, 0, 1);
    cv::Mat rvec, tvec;
    if (!cv::solvePnP(object, image, camera, cv::noArray(), rvec, tvec, false, cv::SOLVEPNP_IPPE))
        return fail(ACC_E_INVALID_ARGUMENT, "no pose explains this homography");
    cv::Matx33d r;
    cv::Rodrigues(rvec, r);
    for (int i = 0; i < 9; ++i) pose.rotation[i] = r.val[i];
    for (int i = 0; i < 3; ++i) pose.translation[i] = tvec.at<double>(i);
    // The printed face looks along −z of the code frame, i.e. towards the camera.
    for (int i = 0; i < 3; ++i) pose.normal[i] = -r(i, 2);
    std::vector<cv::Point2d> projected;
    cv::projectPoints(object, rvec, tvec, camera, cv::noArray(), projected);
    double sum = 0;
    for (size_t i = 0; i < image.size(); ++i) {
        const cv::Point2d d = projected[i] - image[i];
        sum += d.dot(d);
    }
    pose.reprojection_rms_px = std::sqrt(sum / image.size());
    return Failure{};
}

}  // namespace appclip::vision
