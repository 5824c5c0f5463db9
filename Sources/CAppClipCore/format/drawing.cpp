#include "drawing.hpp"

#include <algorithm>
#include <cmath>

#include "format_tables.hpp"

namespace appclip {

Drawing make_drawing(const acc_code_bits& bits, const acc_palette& palette, acc_logo logo) {
    const FormatTables& t = tables();
    Drawing d;
    d.palette = palette;
    d.logo = logo;
    int color_index = 0;
    for (int r = 0; r < 5; ++r) {
        const RingLayout& ring = t.rings[static_cast<std::size_t>(r)];
        double step = 360.0 / ring.positions;
        for (int p = 0; p < ring.positions; ++p) {
            if (bits.gaps[ring.first_bit + p] != 0) continue;
            DrawnArc arc;
            arc.ring = r;
            arc.start = p;
            arc.span = 1;
            while (arc.span < ring.positions && bits.gaps[ring.first_bit + (p + arc.span) % ring.positions] != 0) ++arc.span;
            arc.color = color_index < bits.color_count ? bits.colors[color_index] : 0;
            ++color_index;
            arc.start_deg = ring.rotation_deg + p * step + ring.half_gap_deg;
            arc.end_deg = ring.rotation_deg + (p + arc.span) * step - ring.half_gap_deg;
            d.arcs.push_back(arc);
        }
    }
    return d;
}

const char* logo_transform(acc_logo logo) {
    return logo == ACC_LOGO_NFC ? data::nfc_logo_transform : data::camera_logo_transform;
}

std::vector<LogoShape> logo_shapes(acc_logo logo, double tolerance) {
    std::vector<LogoShape> shapes;
    if (logo == ACC_LOGO_NONE) return shapes;
    auto placement = parse_transform(logo_transform(logo));
    Affine place = placement.ok() ? placement.value() : Affine{};
    auto add = [&](const char* d, int color) {
        auto path = parse_path_data(d);
        if (!path.ok()) return;  // the compiled-in logos parse; tests check it
        LogoShape shape;
        shape.color = color;
        // Flatten in glyph units, finer by the placement scale, then place.
        double scale = std::max(std::fabs(place.a), 1e-6);
        for (auto& poly : flatten_path(path.value(), tolerance / scale)) {
            for (auto& p : poly) p = place.apply(p);
            shape.polygons.push_back(std::move(poly));
        }
        shapes.push_back(std::move(shape));
    };
    if (logo == ACC_LOGO_CAMERA) {
        for (std::size_t i = 0; i < data::camera_logo_path_count; ++i) add(data::camera_logo_paths[i], 0);
    } else {
        add(data::nfc_logo_outer, 0);
        add(data::nfc_logo_screen, 1);
    }
    return shapes;
}

}  // namespace appclip
