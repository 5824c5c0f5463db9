// SVG in and out. The reader recovers ring bits from the arcs' geometry and
// colors (never from data-payload).
#pragma once
#include <string>

#include "appclip_core.h"
#include "drawing.hpp"
#include "status.hpp"

namespace appclip {

std::string write_svg(const Drawing& drawing, const std::string& url);
Result<acc_svg_code> read_svg(const std::string& svg);

}  // namespace appclip
