// C entry points of the vision layer. Every exception stops here and becomes a status.
#include <new>
#include <string>

#include <opencv2/core.hpp>

#include "../format/status.hpp"
#include "appclip_core.h"
#include "detector.hpp"
#include "image_view.hpp"
#include "pose.hpp"

namespace {

template <typename Body>
acc_status guard(acc_error* error, Body&& body) {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return appclip::report(appclip::fail(ACC_E_OUT_OF_MEMORY, "out of memory"), error);
    } catch (const cv::Exception& e) {
        const acc_status status = e.code == cv::Error::StsNoMem ? ACC_E_OUT_OF_MEMORY : ACC_E_INVALID_ARGUMENT;
        return appclip::report(appclip::fail(status, std::string("OpenCV: ") + e.what()), error);
    } catch (const std::exception& e) {
        return appclip::report(appclip::fail(ACC_E_INVALID_ARGUMENT, e.what()), error);
    } catch (...) {
        return appclip::report(appclip::fail(ACC_E_INVALID_ARGUMENT, "unexpected failure"), error);
    }
}

}  // namespace

extern "C" acc_status acc_image_view_validate(const acc_image_view* view, acc_error* error) {
    const appclip::Failure f = appclip::vision::validate_view(view, 0);
    return f.status == ACC_OK ? appclip::report_ok(error) : appclip::report(f, error);
}

extern "C" void acc_detector_options_default(acc_detector_options* options) {
    if (options == nullptr) return;
    options->max_codes = 8;
    options->min_diameter_px = 40;
    options->decimate = 0.f;
    options->try_mirrored = 1;
    options->max_image_pixels = 80000000;
    options->acquire_unread = 0;
}

extern "C" acc_detector* acc_detector_create(const acc_detector_options* options) {
    try {
        return new acc_detector(appclip::vision::sanitize(options));
    } catch (...) {
        return nullptr;
    }
}

extern "C" void acc_detector_destroy(acc_detector* detector) { delete detector; }

extern "C" acc_status acc_detector_detect(acc_detector* detector, const acc_image_view* image,
                                          const acc_search_hint* hints, int32_t hint_count,
                                          acc_detection* detections, int32_t capacity, int32_t* count,
                                          acc_frame_stats* stats, acc_error* error) {
    if (count != nullptr) *count = 0;
    if (detector == nullptr || count == nullptr || (detections == nullptr && capacity > 0) || capacity < 0 ||
        hint_count < 0 || (hints == nullptr && hint_count > 0))
        return appclip::report(appclip::fail(ACC_E_INVALID_ARGUMENT,
                                             "detector, count, detections (for capacity > 0) and hints "
                                             "(for hint_count > 0) must be valid"),
                               error);
    return guard(error, [&]() {
        const appclip::Failure valid = appclip::vision::validate_view(image, detector->impl_max_pixels());
        if (valid.status != ACC_OK) return appclip::report(valid, error);
        const appclip::Failure f = detector->impl.detect(*image, hints, hint_count, detections, capacity, count, stats);
        return f.status == ACC_OK ? appclip::report_ok(error) : appclip::report(f, error);
    });
}

extern "C" acc_status acc_pose_from_homography(const double homography[9], const acc_camera_intrinsics* intrinsics,
                                               double code_diameter_m, acc_pose* pose, acc_error* error) {
    if (homography == nullptr || intrinsics == nullptr || pose == nullptr)
        return appclip::report(appclip::fail(ACC_E_INVALID_ARGUMENT, "homography, intrinsics and pose must not be NULL"),
                               error);
    return guard(error, [&]() {
        const appclip::Failure f =
            appclip::vision::pose_from_homography(homography, *intrinsics, code_diameter_m, *pose);
        return f.status == ACC_OK ? appclip::report_ok(error) : appclip::report(f, error);
    });
}
