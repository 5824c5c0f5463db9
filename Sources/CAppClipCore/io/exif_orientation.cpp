#include "exif_orientation.hpp"

#include <cstring>
#include <opencv2/core.hpp>

namespace appclip::io {
namespace {

struct TiffReader {
    const std::uint8_t* data;
    std::size_t length;
    bool little_endian;

    bool u16(std::size_t at, unsigned& out) const {
        if (at + 2 > length) return false;
        out = little_endian ? (data[at] | (data[at + 1] << 8)) : ((data[at] << 8) | data[at + 1]);
        return true;
    }
    bool u32(std::size_t at, std::uint32_t& out) const {
        if (at + 4 > length) return false;
        const std::uint8_t* p = data + at;
        out = little_endian ? (std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
                               std::uint32_t(p[3]) << 24)
                            : (std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 |
                               std::uint32_t(p[2]) << 8 | std::uint32_t(p[3]));
        return true;
    }
};

}  // namespace

int exif_orientation(const std::uint8_t* app1, std::size_t length) {
    static const std::uint8_t kExif[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (app1 == nullptr || length < 6 + 8 || std::memcmp(app1, kExif, 6) != 0) return 1;
    TiffReader tiff{app1 + 6, length - 6, true};
    if (tiff.data[0] == 'I' && tiff.data[1] == 'I') {
        tiff.little_endian = true;
    } else if (tiff.data[0] == 'M' && tiff.data[1] == 'M') {
        tiff.little_endian = false;
    } else {
        return 1;
    }
    std::uint32_t ifd = 0;
    unsigned count = 0;
    if (!tiff.u32(4, ifd) || !tiff.u16(ifd, count)) return 1;
    for (unsigned i = 0; i < count; ++i) {
        const std::size_t entry = std::size_t(ifd) + 2 + std::size_t(i) * 12;
        unsigned tag = 0, type = 0, value = 0;
        if (!tiff.u16(entry, tag) || !tiff.u16(entry + 2, type)) return 1;
        if (tag != 0x0112) continue;
        if (type != 3 || !tiff.u16(entry + 8, value)) return 1;  // SHORT, stored inline
        return (value >= 1 && value <= 8) ? int(value) : 1;
    }
    return 1;
}

bool apply_orientation(PixelBuffer& pixels, int orientation) {
    if (orientation <= 1 || orientation > 8) return true;
    const int type = CV_8UC(pixels.channels());
    cv::Mat src(pixels.height(), pixels.width(), type, pixels.data(), pixels.stride());
    const bool swaps = orientation >= 5;
    PixelBuffer out;
    if (!out.allocate(swaps ? pixels.height() : pixels.width(), swaps ? pixels.width() : pixels.height(),
                      pixels.channels()))
        return false;
    cv::Mat dst(out.height(), out.width(), type, out.data(), out.stride());
    switch (orientation) {
        case 2: cv::flip(src, dst, 1); break;
        case 3: cv::flip(src, dst, -1); break;
        case 4: cv::flip(src, dst, 0); break;
        case 5: cv::transpose(src, dst); break;
        case 6: cv::rotate(src, dst, cv::ROTATE_90_CLOCKWISE); break;
        case 7:  // transverse: mirror across the anti-diagonal
            cv::transpose(src, dst);
            cv::flip(dst, dst, -1);
            break;
        case 8: cv::rotate(src, dst, cv::ROTATE_90_COUNTERCLOCKWISE); break;
        default: break;
    }
    // Move the oriented pixels into `pixels` (swap ownership through a raw handoff).
    acc_owned_image handoff{};
    out.release_into(&handoff);
    pixels.adopt(handoff.data, handoff.width, handoff.height, pixels.channels());
    return true;
}

}  // namespace appclip::io
