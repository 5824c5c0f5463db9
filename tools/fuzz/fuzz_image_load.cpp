// libFuzzer target: any bytes given to the image loader (JPEG with EXIF orientation, PNG)
// either fail with a typed error that says why, or give an image within the pixel limit
// whose every byte can be read (ASan watches the reads); a decoded image then goes through
// the whole detector, which must finish with a sane report for whatever pixels it holds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "appclip_core.h"
#include "detector_report.hpp"

namespace {
// Small enough that a header claiming giant dimensions is reduced or refused at once,
// large enough for the seeds to decode whole.
constexpr int64_t kMaxPixels = 1 << 18;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    acc_owned_image image;
    acc_error error;
    const acc_status status = acc_image_load_memory(data, size, kMaxPixels, &image, &error);
    if (status != ACC_OK) {
        if (error.status != status || error.message[0] == '\0') std::abort();  // a failure must say why
        if (image.data != nullptr) std::abort();                                // and hand nothing out
        return 0;
    }
    if (image.data == nullptr || image.width <= 0 || image.height <= 0) std::abort();
    if (static_cast<int64_t>(image.width) * image.height > kMaxPixels) std::abort();
    const int channels = image.format == ACC_PIXEL_GRAY8 ? 1 : image.format == ACC_PIXEL_RGB8 ? 3 : 0;
    if (channels == 0 || image.stride < image.width * channels) std::abort();
    unsigned sum = 0;
    for (int32_t y = 0; y < image.height; ++y)
        for (int32_t x = 0; x < image.width * channels; ++x) sum += image.data[static_cast<size_t>(y) * image.stride + x];
    volatile unsigned sink = sum;
    (void)sink;
    const acc_image_view view{image.data, image.width, image.height, image.stride, image.format, nullptr, 0};
    fuzz::detect_and_check(view, nullptr);
    acc_image_free(&image);
    return 0;
}
