// The project's own rasterizer for `generate --output code.png`.
#pragma once
#include <cstdint>

#include "drawing.hpp"

namespace appclip {

// Fills size×size RGBA pixels (straight alpha; transparent outside the disc).
void rasterize(const Drawing& drawing, int size, std::uint8_t* rgba);

}  // namespace appclip
