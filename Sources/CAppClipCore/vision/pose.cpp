#include "pose.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/core.hpp>

#include "code_geometry.hpp"
#include "homography.hpp"

namespace appclip::vision {

namespace {

// Correspondences taken from the homography: the centre and 12 points on each of the circles
// of radius 200 and 400 SVG units, relative to the centre.
constexpr int kPoints = 25;

struct PlanePoints {
    std::array<double, kPoints> x{}, y{};
};

const PlanePoints& plane_points() {
    static const PlanePoints points = [] {
        PlanePoints p;
        int n = 1;
        for (int ring = 1; ring <= 2; ++ring) {
            for (int i = 0; i < 12; ++i, ++n) {
                const double a = i * 30.0 * kDeg;
                p.x[n] = ring * 200.0 * std::cos(a);
                p.y[n] = ring * 200.0 * std::sin(a);
            }
        }
        return p;
    }();
    return points;
}

// R·(x, y, 0) + t: a point of the code's plane in camera coordinates.
cv::Vec3d on_camera(const cv::Matx33d& r, const cv::Vec3d& t, double x, double y) {
    return {r(0, 0) * x + r(0, 1) * y + t[0], r(1, 0) * x + r(1, 1) * y + t[1], r(2, 0) * x + r(2, 1) * y + t[2]};
}

// One IPPE solution's translation: the least-squares t of (I | −u)(R·p + t) = 0 over the
// correspondences (p on the plane in metres, u normalised image points).
cv::Vec3d translation_for(const cv::Matx33d& r, const double* px, const double* py, const double* ux,
                          const double* uy) {
    // Normal equations: A = [[n, 0, −Σu], [0, n, −Σv], [−Σu, −Σv, Σ(u² + v²)]].
    double su = 0, sv = 0, suv2 = 0, b0 = 0, b1 = 0, b2 = 0;
    for (int i = 0; i < kPoints; ++i) {
        const cv::Vec3d rp = on_camera(r, cv::Vec3d(), px[i], py[i]);
        const double ex = ux[i] * rp[2] - rp[0], ey = uy[i] * rp[2] - rp[1];
        su += ux[i];
        sv += uy[i];
        suv2 += ux[i] * ux[i] + uy[i] * uy[i];
        b0 += ex;
        b1 += ey;
        b2 -= ux[i] * ex + uy[i] * ey;
    }
    const double n = kPoints;
    const cv::Matx33d a(n, 0, -su, 0, n, -sv, -su, -sv, suv2);
    return a.solve(cv::Vec3d(b0, b1, b2), cv::DECOMP_LU);
}

// Reprojection error of a pose over the correspondences, in normalised image units, accumulated
// in single precision: the two IPPE solutions are ranked by it, and when they tie at that
// precision the second (−b) one is kept.
float reprojection_error(const cv::Matx33d& r, const cv::Vec3d& t, const double* px, const double* py,
                         const double* ux, const double* uy) {
    float sum = 0;
    for (int i = 0; i < kPoints; ++i) {
        const cv::Vec3d c = on_camera(r, t, px[i], py[i]);
        const float dx = static_cast<float>(c[0] / c[2] - ux[i]), dy = static_cast<float>(c[1] / c[2] - uy[i]);
        sum += dx * dx + dy * dy;
    }
    return std::sqrt(sum / (2.0f * kPoints));
}

}  // namespace

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

    // IPPE (Collins & Bartoli 2014) on the plane in metres (x right, y down, z into the printed
    // face) → normalised camera coordinates, computed on the stack (this runs on every tracked
    // frame).
    const double metres_per_unit = diameter_m / 800.0;
    const PlanePoints& plane = plane_points();
    std::array<double, kPoints> px, py, ux, uy, pixel_x, pixel_y;
    for (int i = 0; i < kPoints; ++i) {
        const cv::Point2d p = apply(h, 400 + plane.x[i], 400 + plane.y[i]);
        pixel_x[i] = p.x;
        pixel_y[i] = p.y;
        ux[i] = (p.x - k.cx) / k.fx;
        uy[i] = (p.y - k.cy) / k.fy;
        px[i] = plane.x[i] * metres_per_unit;
        py[i] = plane.y[i] * metres_per_unit;
    }
    const cv::Matx33d camera_inverse(1 / k.fx, 0, -k.cx / k.fx, 0, 1 / k.fy, -k.cy / k.fy, 0, 0, 1);
    const cv::Matx33d svg_from_metres(1 / metres_per_unit, 0, 400, 0, 1 / metres_per_unit, 400, 0, 0, 1);
    cv::Matx33d n = camera_inverse * h * svg_from_metres;
    if (!(std::abs(n(2, 2)) > 1e-300)) return fail(ACC_E_INVALID_ARGUMENT, "no pose explains this homography");
    n *= 1.0 / n(2, 2);
    // The homography's image of the centre and its Jacobian there.
    const double v0 = n(0, 2), v1 = n(1, 2);
    const double j00 = n(0, 0) - n(2, 0) * v0, j01 = n(0, 1) - n(2, 1) * v0;
    const double j10 = n(1, 0) - n(2, 0) * v1, j11 = n(1, 1) - n(2, 1) * v1;

    // Rv: the rotation taking the optical axis onto the centre's line of sight.
    const double norm = std::sqrt(v0 * v0 + v1 * v1 + 1);
    const double ax = v0 / norm, ay = v1 / norm, az = 1 / norm, d = 1 / (1 + az);
    const cv::Matx33d rv(1 - ax * ax * d, -ax * ay * d, ax, -ax * ay * d, 1 - ay * ay * d, ay, -ax, -ay,
                         1 - (ax * ax + ay * ay) * d);
    // J = B · R̃ / depth with B = (I | −v) · Rv's first two columns; R̃ is the upper-left 2×2 of
    // Rvᵀ·R, whose largest singular value is 1.
    const double b00 = rv(0, 0) - v0 * rv(2, 0), b01 = rv(0, 1) - v0 * rv(2, 1);
    const double b10 = rv(1, 0) - v1 * rv(2, 0), b11 = rv(1, 1) - v1 * rv(2, 1);
    const double det_b = b00 * b11 - b01 * b10;
    if (!(std::abs(det_b) > 1e-300)) return fail(ACC_E_INVALID_ARGUMENT, "no pose explains this homography");
    const double a00 = (b11 * j00 - b01 * j10) / det_b, a01 = (b11 * j01 - b01 * j11) / det_b;
    const double a10 = (b00 * j10 - b10 * j00) / det_b, a11 = (b00 * j11 - b10 * j01) / det_b;
    const double p = a00 * a00 + a01 * a01, q = a10 * a10 + a11 * a11, r01 = a00 * a10 + a01 * a11;
    const double gamma = std::sqrt(0.5 * (p + q + std::sqrt((p - q) * (p - q) + 4 * r01 * r01)));
    if (!(gamma > 1e-7) || !std::isfinite(gamma))
        return fail(ACC_E_INVALID_ARGUMENT, "no pose explains this homography");
    const double t00 = a00 / gamma, t01 = a01 / gamma, t10 = a10 / gamma, t11 = a11 / gamma;
    // The third row completes two orthonormal columns, up to a common sign: the two solutions.
    const double c0 = std::sqrt(std::max(0.0, 1 - t00 * t00 - t10 * t10));
    double c1 = std::sqrt(std::max(0.0, 1 - t01 * t01 - t11 * t11));
    if (-(t00 * t01 + t10 * t11) < 0) c1 = -c1;
    cv::Matx33d solutions[2];
    for (int s = 0; s < 2; ++s) {
        const double e0 = s == 0 ? c0 : -c0, e1 = s == 0 ? c1 : -c1;
        const cv::Matx33d local(t00, t01, t10 * e1 - e0 * t11, t10, t11, e0 * t01 - t00 * e1, e0, e1,
                                t00 * t11 - t01 * t10);
        solutions[s] = rv * local;
    }
    cv::Vec3d translations[2];
    float errors[2];
    for (int s = 0; s < 2; ++s) {
        translations[s] = translation_for(solutions[s], px.data(), py.data(), ux.data(), uy.data());
        errors[s] = reprojection_error(solutions[s], translations[s], px.data(), py.data(), ux.data(), uy.data());
    }
    const int best = errors[0] < errors[1] ? 0 : 1;
    const cv::Matx33d& r = solutions[best];
    const cv::Vec3d& t = translations[best];
    if (!std::isfinite(t[0]) || !std::isfinite(t[1]) || !std::isfinite(t[2]))
        return fail(ACC_E_INVALID_ARGUMENT, "no pose explains this homography");

    for (int i = 0; i < 9; ++i) pose.rotation[i] = r.val[i];
    for (int i = 0; i < 3; ++i) pose.translation[i] = t[i];
    // The printed face looks along −z of the code frame, i.e. towards the camera.
    for (int i = 0; i < 3; ++i) pose.normal[i] = -r(i, 2);
    double sum = 0;
    for (int i = 0; i < kPoints; ++i) {
        const cv::Vec3d c = on_camera(r, t, px[i], py[i]);
        const double du = k.fx * c[0] / c[2] + k.cx - pixel_x[i], dv = k.fy * c[1] / c[2] + k.cy - pixel_y[i];
        sum += du * du + dv * dv;
    }
    pose.reprojection_rms_px = std::sqrt(sum / kPoints);
    return Failure{};
}

}  // namespace appclip::vision
