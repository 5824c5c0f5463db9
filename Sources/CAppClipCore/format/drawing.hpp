// What a code looks like, independent of the output format: the arcs of each
// ring with their colors, the palette and the logo. SVG and raster writers draw it.
#pragma once
#include <string>
#include <vector>

#include "appclip_core.h"
#include "path_data.hpp"

namespace appclip {

struct DrawnArc {
    int ring = 0;            // 0..4
    int start = 0;           // first position it covers
    int span = 1;            // positions covered
    int color = 0;           // 0 foreground, 1 third
    double start_deg = 0;    // in the code's frame, ring rotation included
    double end_deg = 0;      // start_deg < end_deg
};

struct Drawing {
    std::vector<DrawnArc> arcs;
    acc_palette palette{};
    acc_logo logo = ACC_LOGO_CAMERA;
};

Drawing make_drawing(const acc_code_bits& bits, const acc_palette& palette, acc_logo logo);

// A logo shape in code (SVG) coordinates: polygons filled with the nonzero rule.
struct LogoShape {
    std::vector<std::vector<Point>> polygons;
    int color = 0;  // 0 foreground, 1 third
};
std::vector<LogoShape> logo_shapes(acc_logo logo, double tolerance);

// Logo placement: Apple's transforms for the camera and NFC glyphs.
const char* logo_transform(acc_logo logo);

}  // namespace appclip
