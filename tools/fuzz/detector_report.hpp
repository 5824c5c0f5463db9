// What both image fuzz targets ask of the detector: one detector for the run (as an app keeps
// one: warm state must not leak between frames) and a sane report for whatever it was given.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "appclip_core.h"

namespace fuzz {

constexpr int32_t kCapacity = 8;

inline acc_detector* shared_detector() {
    static const std::unique_ptr<acc_detector, void (*)(acc_detector*)> detector(acc_detector_create(nullptr),
                                                                                  acc_detector_destroy);
    if (!detector) std::abort();
    return detector.get();
}

// Detects with up to one hint and returns the status; aborts on a report no caller could use:
// a failure without its status and message, a count out of range, a state or centre that is
// not one.
inline acc_status detect_and_check(const acc_image_view& view, const acc_search_hint* hint) {
    static acc_detection detections[kCapacity];
    int32_t count = -1;
    acc_error error;
    const acc_status status = acc_detector_detect(shared_detector(), &view, hint, hint ? 1 : 0, detections,
                                                  kCapacity, &count, nullptr, &error);
    if (status != ACC_OK) {
        if (error.status != status || error.message[0] == '\0') std::abort();
        return status;
    }
    if (count < 0 || count > kCapacity) std::abort();
    for (int32_t i = 0; i < count; ++i) {
        const acc_detection& d = detections[i];
        if (d.state != ACC_STATE_DECODED && d.state != ACC_STATE_FAILED) std::abort();
        if (!std::isfinite(d.center[0]) || !std::isfinite(d.center[1])) std::abort();
        if (!(d.confidence >= 0.0f && d.confidence <= 1.0f)) std::abort();
    }
    return status;
}

}  // namespace fuzz
