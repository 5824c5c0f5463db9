// PNG reading (normalised to GRAY8 or RGB8) and writing through libpng, typed failures.
#pragma once
#include <cstddef>
#include <cstdint>

#include "../format/status.hpp"
#include "decoded_image.hpp"

namespace appclip::io {

bool looks_like_png(const std::uint8_t* bytes, std::size_t length);

// 16-bit, palette, low-bit gray and tRNS are expanded; alpha is composited over white
// (a transparent margin around a code reads like paper). PNGs over max_pixels are refused.
Failure decode_png(const std::uint8_t* bytes, std::size_t length, std::int64_t max_pixels, PixelBuffer& out);

// Writes GRAY8, RGB8/BGR8 or RGBA8/BGRA8 rows.
Failure write_png(const char* path, const acc_image_view& view);

}  // namespace appclip::io
