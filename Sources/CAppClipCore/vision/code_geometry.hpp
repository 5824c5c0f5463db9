// The code's drawing in its own plane (SVG units), as the vision layer uses it.
// Code-plane coordinates here are centred: X = x - 400, Y = y - 400 (SVG y down).
#pragma once
#include <array>
#include <cmath>

#include "../format/generated/format_tables_data.hpp"

namespace appclip::vision {

constexpr int kRings = 5;
constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;
// Radius of the camera and NFC logos' outer disc (code units, rim = 400): 106.7 and 106.8
// in the logos' drawings. A closed ellipse inside a code is usually this disc.
constexpr double kLogoDiscRadius = 106.8;

struct Ring {
    double radius;        // stroke centre line
    double rotation_deg;  // the ring group's rotate()
    int positions;
    double half_gap_deg;
    int first_bit;        // index of position 0 in the 128 ring bits
    double cap_deg;       // angle the round cap reaches past an arc's end, on the centre line
};

struct CodeGeometry {
    std::array<Ring, kRings> rings;
    double disc_radius;
    double half_stroke;
    double ring_spacing;

    // The stroke edges (inner and outer of each ring, innermost first) in units of `unit` code
    // units (disc_radius: rim radii): the comb a ray from the centre across the rings shows.
    using StrokeEdges = std::array<double, 2 * kRings>;
    StrokeEdges stroke_edges(double unit) const {
        StrokeEdges edges{};
        for (int k = 0; k < kRings; ++k) {
            edges[2 * k] = (rings[k].radius - half_stroke) / unit;
            edges[2 * k + 1] = (rings[k].radius + half_stroke) / unit;
        }
        return edges;
    }

    // The ring whose positions include ring bit `position` (0..127).
    const Ring& ring_holding(int position) const {
        for (const Ring& ring : rings)
            if (position < ring.first_bit + ring.positions) return ring;
        return rings[kRings - 1];
    }

    static const CodeGeometry& get() {
        static const CodeGeometry geometry = build();
        return geometry;
    }

private:
    static CodeGeometry build() {
        CodeGeometry g{};
        const auto& src = appclip::data::geometry;
        g.disc_radius = src.background_radius;
        g.half_stroke = src.stroke_width / 2.0;
        int bit = 0;
        for (int k = 0; k < kRings; ++k) {
            const auto& r = src.rings[k];
            g.rings[k] = Ring{r.radius, r.rotation_deg, r.positions, r.half_gap_deg, bit,
                              std::atan2(g.half_stroke, r.radius) / kDeg};
            bit += r.positions;
        }
        g.ring_spacing = g.rings[1].radius - g.rings[0].radius;
        return g;
    }
};

}  // namespace appclip::vision
