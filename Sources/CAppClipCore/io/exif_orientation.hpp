// EXIF orientation (tag 0x0112) from a JPEG APP1 segment, and applying it to pixels.
#pragma once
#include <cstddef>
#include <cstdint>

#include "decoded_image.hpp"

namespace appclip::io {

// Orientation 1..8 from the payload of an APP1 marker (starting with "Exif\0\0");
// 1 when absent or malformed: a broken EXIF block must never break decoding.
int exif_orientation(const std::uint8_t* app1, std::size_t length);

// Rotates/flips `pixels` so that it displays upright. Returns false on allocation failure.
bool apply_orientation(PixelBuffer& pixels, int orientation);

}  // namespace appclip::io
