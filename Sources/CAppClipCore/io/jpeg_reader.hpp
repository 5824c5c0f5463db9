// JPEG decoding through libjpeg(-turbo): DCT scale-on-decode, EXIF orientation, typed failures.
#pragma once
#include <cstddef>
#include <cstdint>

#include "../format/status.hpp"
#include "decoded_image.hpp"

namespace appclip::io {

// Decodes to GRAY8 (gray JPEGs) or RGB8, reduced by 1/2, 1/4 or 1/8 while decoding
// when the full size would exceed max_pixels. On failure `out` is left empty.
Failure decode_jpeg(const std::uint8_t* bytes, std::size_t length, std::int64_t max_pixels,
                    PixelBuffer& out);

bool looks_like_jpeg(const std::uint8_t* bytes, std::size_t length);

}  // namespace appclip::io
