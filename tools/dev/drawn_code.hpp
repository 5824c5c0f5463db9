// Codes drawn by the generator's rasterizer and placed in a grey frame by a known affine or
// pinhole map: the ground truth of the vision checks (outline_rings_check, steep_rim_check,
// parted_rings_check, steep_read_check and others).
#pragma once
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "appclip_core.h"
#include "vision/code_geometry.hpp"
#include "vision/homography.hpp"

namespace drawn_code {

constexpr int kRaster = 400;   // the code's raster, pixels across (rim to rim)

// The generator's raster of `url` in template `index`, as luma.
inline bool code_luma(const std::string& url, int index, acc_logo logo, cv::Mat& luma) {
    acc_generate_options options{};
    acc_error error{};
    if (acc_template_palette(index, &options.palette, &error) != ACC_OK) return false;
    options.logo = logo;
    uint8_t* rgba = nullptr;
    if (acc_raster_generate(url.data(), url.size(), &options, kRaster, &rgba, &error) != ACC_OK) return false;
    const cv::Mat view(kRaster, kRaster, CV_8UC4, rgba);
    cv::cvtColor(view, luma, cv::COLOR_RGBA2GRAY);
    acc_free(rgba);
    return true;
}

// The code of a check's case `i`: template i % 18, with no logo, the camera and NFC in turn.
// Says so on stdout when the generator refuses it.
inline bool case_code(const std::string& url, int i, cv::Mat& luma) {
    if (code_luma(url, i % 18, i % 3 == 0 ? ACC_LOGO_NONE : (i % 3 == 1 ? ACC_LOGO_CAMERA : ACC_LOGO_NFC), luma))
        return true;
    std::printf("case %d: the generator refused %s\n", i, url.c_str());
    return false;
}

// +1 when case `i`'s strokes (its template's foreground) are lighter than its background, -1
// when darker (the reader's polarity), from the template's palette; 0 when it has none.
inline double case_polarity(int i) {
    acc_palette palette{};
    acc_error error{};
    if (acc_template_palette(i % 18, &palette, &error) != ACC_OK) return 0;
    auto luma = [](uint32_t rgb) {
        return 0.299 * ((rgb >> 16) & 0xFF) + 0.587 * ((rgb >> 8) & 0xFF) + 0.114 * (rgb & 0xFF);
    };
    return luma(palette.foreground) > luma(palette.background) ? 1.0 : -1.0;
}

// The luma of a code raster's background, between its outer ring and its rim.
inline int background_luma(const cv::Mat& code) { return code.at<uchar>(kRaster / 2, kRaster - 4); }

// A view of an 8-bit grey frame, as the reader takes it.
inline acc_image_view gray_view(const cv::Mat& frame) {
    acc_image_view view{};
    view.format = ACC_PIXEL_GRAY8;
    view.width = frame.cols;
    view.height = frame.rows;
    view.data = frame.data;
    view.stride = static_cast<int32_t>(frame.step[0]);
    return view;
}

// The raster → frame map of a code `diameter` px across, turned by `turn` radians and
// squashed to `squash` across one axis, centred on `centre`.
inline cv::Matx23d placement(double diameter, double squash, double turn, const cv::Vec2d& centre) {
    const double k = diameter / kRaster;
    const cv::Matx22d rotate(std::cos(turn), -std::sin(turn), std::sin(turn), std::cos(turn));
    const cv::Matx22d linear = rotate * cv::Matx22d(k, 0, 0, k * squash) * rotate.t();
    const cv::Vec2d middle(kRaster / 2.0 - 0.5, kRaster / 2.0 - 0.5);
    const cv::Vec2d shift = centre - linear * middle;
    return {linear(0, 0), linear(0, 1), shift[0], linear(1, 0), linear(1, 1), shift[1]};
}

// An outline of the drawn code: the circle of `radius` code units (rim = disc_radius) about
// the code's centre moved by (`dx`, `dy`) code units, through `affine` (raster → frame).
inline cv::RotatedRect outline(const cv::Matx23d& affine, double radius, double dx, double dy) {
    const double units = kRaster / (2.0 * appclip::vision::CodeGeometry::get().disc_radius);   // raster pixels per unit
    const double c = kRaster / 2.0 - 0.5;
    std::vector<cv::Point2f> points;
    for (int k = 0; k < 64; ++k) {
        const double a = k * 2 * appclip::vision::kPi / 64;
        const double x = c + units * (dx + radius * std::cos(a)), y = c + units * (dy + radius * std::sin(a));
        points.emplace_back(static_cast<float>(affine(0, 0) * x + affine(0, 1) * y + affine(0, 2)),
                            static_cast<float>(affine(1, 0) * x + affine(1, 1) * y + affine(1, 2)));
    }
    return cv::fitEllipse(points);
}

// The image ellipse of the circle of `radius` code units about the code's centre through the
// plane `h` (centred code units → pixels), fitted to 64 of its points.
inline cv::RotatedRect plane_ellipse(const cv::Matx33d& h, double radius) {
    std::vector<cv::Point2f> points;
    for (int k = 0; k < 64; ++k) {
        const double a = k * 2 * appclip::vision::kPi / 64;
        points.emplace_back(appclip::vision::apply(h, radius * std::cos(a), radius * std::sin(a)));
    }
    return cv::fitEllipse(points);
}

// The raster's disc (255 inside the rim, antialiased), to lay a warped code over a ground.
inline cv::Mat disc_mask() {
    cv::Mat mask(kRaster, kRaster, CV_8UC1, cv::Scalar(0));
    cv::circle(mask, cv::Point(kRaster / 2, kRaster / 2), kRaster / 2, cv::Scalar(255), -1, cv::LINE_AA);
    return mask;
}

// The code's disc through `affine` onto `ground` (grey when empty; else of `size`, 8-bit
// grey), then blurred by `sigma` px.
inline cv::Mat draw(const cv::Mat& code, const cv::Matx23d& affine, cv::Size size, double sigma,
                    const cv::Mat& ground = cv::Mat()) {
    cv::Mat frame = ground.empty() ? cv::Mat(size, CV_8UC1, cv::Scalar(128)) : ground.clone();
    const cv::Mat mask = disc_mask();
    cv::Mat warped, warped_mask;
    cv::warpAffine(code, warped, affine, frame.size(), cv::INTER_AREA);
    cv::warpAffine(mask, warped_mask, affine, frame.size(), cv::INTER_LINEAR);
    warped.copyTo(frame, warped_mask > 127);
    cv::GaussianBlur(frame, frame, cv::Size(), sigma);
    return frame;
}

// The raster → frame map of a code 0.1 m across on a plane turned by `tilt` (radians) about
// an in-plane axis at angle `axis`, its centre at `centre` (camera coordinates, metres), seen
// by a pinhole camera of `focal` px looking down +z, its principal point mid-`frame`.
inline cv::Matx33d pinhole_placement(double tilt, double axis, const cv::Vec3d& centre, double focal, cv::Size frame) {
    const cv::Vec3d u(std::cos(axis), std::sin(axis), 0);   // the tilt axis
    const cv::Matx33d ux(0, -u[2], u[1], u[2], 0, -u[0], -u[1], u[0], 0);
    const cv::Matx33d turn = cv::Matx33d::eye() + std::sin(tilt) * ux + (1 - std::cos(tilt)) * (ux * ux);
    const double k = 0.1 / kRaster, half = kRaster / 2.0 - 0.5;
    const cv::Matx33d raster_to_plane(k, 0, -k * half, 0, k, -k * half, 0, 0, 1);
    const cv::Matx33d plane_to_camera(turn(0, 0), turn(0, 1), centre[0], turn(1, 0), turn(1, 1), centre[1], turn(2, 0),
                                      turn(2, 1), centre[2]);
    const cv::Matx33d camera(focal, 0, frame.width / 2.0, 0, focal, frame.height / 2.0, 0, 0, 1);
    return camera * plane_to_camera * raster_to_plane;
}

// The code's disc through `h` (raster → frame) onto `frame` (8-bit grey), then blurred by
// `sigma` px and given Gaussian noise from `noise`.
inline void draw_in_perspective(const cv::Mat& code, const cv::Matx33d& h, double sigma,
                                std::normal_distribution<double>& noise, std::mt19937& rng, cv::Mat& frame) {
    const cv::Mat mask = disc_mask();
    cv::Mat warped, warped_mask;
    cv::warpPerspective(code, warped, h, frame.size(), cv::INTER_AREA);
    cv::warpPerspective(mask, warped_mask, h, frame.size(), cv::INTER_LINEAR);
    warped.copyTo(frame, warped_mask > 127);
    cv::GaussianBlur(frame, frame, cv::Size(), sigma);
    for (int y = 0; y < frame.rows; ++y)
        for (int x = 0; x < frame.cols; ++x)
            frame.at<uchar>(y, x) = cv::saturate_cast<uchar>(frame.at<uchar>(y, x) + noise(rng));
}

// Grey ground with `boxes` boxes of other greys, 6-60 px a side: edges all round a code.
inline cv::Mat strewn_ground(cv::Size size, int boxes, std::mt19937& rng) {
    cv::Mat ground(size, CV_8UC1, cv::Scalar(128));
    std::uniform_int_distribution<int> x(0, size.width - 1), y(0, size.height - 1), side(6, 60), grey(30, 225);
    for (int i = 0; i < boxes; ++i)
        cv::rectangle(ground, cv::Rect(x(rng), y(rng), side(rng), side(rng)), cv::Scalar(grey(rng)), cv::FILLED);
    return ground;
}

}  // namespace drawn_code
