// Debug drawing for `appclipcode decode --overlay`: what the reader saw, drawn
// over a copy of the frame with OpenCV.
#include <cmath>
#include <exception>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "appclip_core.h"
#include "../format/format_tables.hpp"
#include "../format/status.hpp"

using appclip::fail;
using appclip::report;

namespace {

cv::Point2d project(const double* h, double x, double y) {
    double w = h[6] * x + h[7] * y + h[8];
    if (std::fabs(w) < 1e-12) w = 1e-12;
    return {(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w};
}

// Any supported view → a BGR copy to draw on.
bool to_bgr(const acc_image_view& v, cv::Mat& out) {
    auto* data = const_cast<std::uint8_t*>(v.data);
    switch (v.format) {
        case ACC_PIXEL_GRAY8: cv::cvtColor(cv::Mat(v.height, v.width, CV_8UC1, data, static_cast<size_t>(v.stride)), out, cv::COLOR_GRAY2BGR); return true;
        case ACC_PIXEL_RGB8: cv::cvtColor(cv::Mat(v.height, v.width, CV_8UC3, data, static_cast<size_t>(v.stride)), out, cv::COLOR_RGB2BGR); return true;
        case ACC_PIXEL_BGR8: cv::Mat(v.height, v.width, CV_8UC3, data, static_cast<size_t>(v.stride)).copyTo(out); return true;
        case ACC_PIXEL_RGBA8: cv::cvtColor(cv::Mat(v.height, v.width, CV_8UC4, data, static_cast<size_t>(v.stride)), out, cv::COLOR_RGBA2BGR); return true;
        case ACC_PIXEL_BGRA8: cv::cvtColor(cv::Mat(v.height, v.width, CV_8UC4, data, static_cast<size_t>(v.stride)), out, cv::COLOR_BGRA2BGR); return true;
        case ACC_PIXEL_NV12:
        case ACC_PIXEL_NV21: {
            cv::Mat y(v.height, v.width, CV_8UC1, data, static_cast<size_t>(v.stride));
            cv::Mat uv(v.height / 2, v.width / 2, CV_8UC2, const_cast<std::uint8_t*>(v.chroma), static_cast<size_t>(v.chroma_stride));
            cv::cvtColorTwoPlane(y, uv, out, v.format == ACC_PIXEL_NV12 ? cv::COLOR_YUV2BGR_NV12 : cv::COLOR_YUV2BGR_NV21);
            return true;
        }
    }
    return false;
}

}  // namespace

extern "C" acc_status acc_overlay_write_png(const char* path, const acc_image_view* image, const acc_detection* detections,
                                            int32_t count, acc_error* error) {
    try {
        if (path == nullptr || image == nullptr || (detections == nullptr && count > 0) || count < 0)
            return report(fail(ACC_E_INVALID_ARGUMENT, "path, image and detections must be given"), error);
        acc_status valid = acc_image_view_validate(image, error);
        if (valid != ACC_OK) return valid;
        cv::Mat canvas;
        if (!to_bgr(*image, canvas)) return report(fail(ACC_E_INVALID_ARGUMENT, "unknown pixel format"), error);
        const auto& t = appclip::tables();
        int thickness = std::max(1, static_cast<int>(std::lround(std::max(canvas.cols, canvas.rows) / 600.0)));
        for (int k = 0; k < count; ++k) {
            const acc_detection& d = detections[k];
            const double* h = d.homography;
            bool ok = d.state == ACC_STATE_DECODED;
            cv::Scalar outline = ok ? cv::Scalar(40, 220, 40) : cv::Scalar(40, 40, 230);
            std::vector<cv::Point> rim;
            for (int i = 0; i < 96; ++i) {
                double a = i * 2 * M_PI / 96;
                rim.push_back(project(h, 400 + 400 * std::cos(a), 400 + 400 * std::sin(a)));
            }
            cv::polylines(canvas, rim, true, outline, thickness, cv::LINE_AA);
            // Where each ring position starts, colored by what the sampler believed.
            for (const auto& ring : t.rings) {
                for (int p = 0; p < ring.positions; ++p) {
                    double a = (ring.rotation_deg + p * 360.0 / ring.positions) * M_PI / 180.0;
                    cv::Point2d q = project(h, 400 + ring.radius * std::cos(a), 400 + ring.radius * std::sin(a));
                    float arc = d.observation.p_arc_start[ring.first_bit + p];
                    cv::Scalar c = arc > 0.5f ? cv::Scalar(0, 200, 255) : cv::Scalar(255, 120, 0);
                    cv::circle(canvas, q, thickness + 1, c, cv::FILLED, cv::LINE_AA);
                }
            }
            const char* names[4] = {"T", "R", "B", "L"};
            for (int c = 0; c < 4; ++c)
                cv::putText(canvas, names[c], cv::Point2d(d.corners[c][0], d.corners[c][1]), cv::FONT_HERSHEY_SIMPLEX, 0.5 * thickness, outline, thickness, cv::LINE_AA);
            std::string label = ok ? std::string(d.url[0] ? d.url : "(token)") : std::string("not read: ") + acc_status_name(d.failure);
            cv::putText(canvas, label, cv::Point2d(rim[72].x, rim[72].y - 8 * thickness), cv::FONT_HERSHEY_SIMPLEX, 0.6 * thickness,
                        outline, thickness, cv::LINE_AA);
        }
        cv::Mat rgb;
        cv::cvtColor(canvas, rgb, cv::COLOR_BGR2RGB);
        acc_image_view out{rgb.data, rgb.cols, rgb.rows, static_cast<int32_t>(rgb.step[0]), ACC_PIXEL_RGB8, nullptr, 0};
        return acc_png_write_file(path, &out, error);
    } catch (const std::exception& e) {
        return report(fail(ACC_E_INVALID_ARGUMENT, std::string("overlay failed: ") + e.what()), error);
    }
}
