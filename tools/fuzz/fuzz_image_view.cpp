// libFuzzer target: the detector on caller-owned pixel buffers of any format, size and row
// stride (padded or too short), with or without a search hint whose homography may be
// anything (NaN, infinite, singular), filled with the input's bytes, noise and drawn rings. A view whose stride is shorter than a row must be
// refused with ACC_E_IMAGE_STRIDE; every valid view must be read without an error.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "appclip_core.h"
#include "detector_report.hpp"

namespace {
// Room for codes of a few hundred pixels, small enough for thousands of reads a minute.
constexpr int64_t kMaxPixels = 1 << 16;
constexpr size_t kHeader = 10;

int bytes_per_pixel(acc_pixel_format format) {
    switch (format) {
        case ACC_PIXEL_GRAY8: case ACC_PIXEL_NV12: case ACC_PIXEL_NV21: return 1;
        case ACC_PIXEL_RGB8: case ACC_PIXEL_BGR8: return 3;
        default: return 4;
    }
}

// The buffer's bytes: the input after the header, repeated (zeros when there is none);
// with `noise`, mixed with a generator seeded by them, so that short inputs give texture.
void fill(std::vector<uint8_t>& buffer, const uint8_t* bytes, size_t length, bool noise) {
    uint32_t state = 2463534242u;
    for (size_t i = 0; i < length; ++i) state = state * 31u + bytes[i];
    for (size_t i = 0; i < buffer.size(); ++i) {
        uint8_t v = length == 0 ? 0 : bytes[i % length];
        if (noise) {
            state ^= state << 13, state ^= state >> 17, state ^= state << 5;
            v = static_cast<uint8_t>(v + (state & 0x3f));
        }
        buffer[i] = v;
    }
}

// Dark and light rings around a point of the luma plane (look-alikes send the reader past
// the locator into fits and reads): centre, ring width and count from the header.
void draw_rings(std::vector<uint8_t>& luma, int32_t width, int32_t height, int32_t stride, int32_t bpp,
                const uint8_t* header) {
    const double cx = width * (header[8] / 255.0), cy = height * (header[9] / 255.0);
    const double ring = 2.0 + (header[6] % 16);
    const double squash = 0.3 + 0.7 * ((header[7] >> 1) % 8) / 7.0;
    for (int32_t y = 0; y < height; ++y)
        for (int32_t x = 0; x < width; ++x) {
            const double r = std::hypot(x - cx, (y - cy) / squash);
            if (r > 6 * ring) continue;
            const uint8_t v = (static_cast<int>(r / ring) % 2) ? 230 : 20;
            for (int32_t c = 0; c < bpp; ++c) luma[static_cast<size_t>(y) * stride + x * bpp + c] = v;
        }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < kHeader) return 0;
    const auto format = static_cast<acc_pixel_format>(data[0] % 7);
    const int32_t width = 1 + (data[1] | data[2] << 8) % 2048;
    int32_t height = 1 + (data[3] | data[4] << 8) % 2048;
    if (static_cast<int64_t>(width) * height > kMaxPixels) height = static_cast<int32_t>(kMaxPixels / width);
    const int32_t row = width * bytes_per_pixel(format);
    const bool short_rows = (data[5] & 0x80) != 0;
    const int32_t stride = short_rows ? row - 1 : row + data[5] % 64;
    const bool planar = format == ACC_PIXEL_NV12 || format == ACC_PIXEL_NV21;
    const int32_t chroma_row = ((width + 1) / 2) * 2;
    const int32_t chroma_stride = planar ? chroma_row + data[6] % 64 : 0;
    const uint8_t* rest = data + kHeader;
    const size_t rest_length = size - kHeader;

    std::vector<uint8_t> luma(static_cast<size_t>(std::max(stride, 1)) * height);
    std::vector<uint8_t> chroma(planar ? static_cast<size_t>(chroma_stride) * ((height + 1) / 2) : 0);
    fill(luma, rest, rest_length, (data[5] & 0x40) != 0);
    fill(chroma, rest, rest_length, (data[5] & 0x40) != 0);
    if ((data[7] & 0x10) != 0 && !short_rows) draw_rings(luma, width, height, stride, bytes_per_pixel(format), data);
    const acc_image_view view{luma.data(), width, height, stride, format, planar ? chroma.data() : nullptr,
                              chroma_stride};

    acc_search_hint hint;
    const bool hinted = (data[7] & 1) != 0;
    if (hinted) {
        // The hint's nine numbers straight from the input's bytes (any double, NaN included).
        uint8_t raw[sizeof hint.homography] = {0};
        std::memcpy(raw, rest, std::min(rest_length, sizeof raw));
        std::memcpy(hint.homography, raw, sizeof raw);
    }
    const acc_status status = fuzz::detect_and_check(view, hinted ? &hint : nullptr);
    if (short_rows) {
        if (status != ACC_E_IMAGE_STRIDE) std::abort();  // a short stride is named as such
        return 0;
    }
    if (status != ACC_OK) std::abort();  // a valid view is always read
    return 0;
}
