// Draws a code into an antialiased RGBA raster without any SVG renderer: exact
// coverage tests for the disc, ring strokes with round caps, and the logo
// polygons (nonzero rule), supersampled 4×4 where a pixel straddles an edge.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "format_tables.hpp"
#include "raster.hpp"

namespace appclip {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kSub = 4;  // 4×4 samples per edge pixel

struct ArcGeometry {
    double radius, start, end;  // radians, start < end
    Point cap0, cap1;
    int color;
};

struct Edge {
    double x0, y0, x1, y1;
    int winding;
};

class Scene {
public:
    explicit Scene(const Drawing& d) {
        const FormatTables& t = tables();
        for (const auto& arc : d.arcs) {
            double r = t.rings[static_cast<std::size_t>(arc.ring)].radius;
            double a0 = arc.start_deg * kPi / 180.0, a1 = arc.end_deg * kPi / 180.0;
            arcs_.push_back(ArcGeometry{r, a0, a1, Point{r * std::cos(a0), r * std::sin(a0)}, Point{r * std::cos(a1), r * std::sin(a1)}, arc.color});
        }
        for (const auto& shape : logo_shapes(d.logo, 0.05)) {
            std::vector<Edge> edges;
            for (const auto& poly : shape.polygons) {
                for (std::size_t i = 0; i + 1 < poly.size() + 1 && poly.size() > 1; ++i) {
                    const Point& a = poly[i];
                    const Point& b = poly[(i + 1) % poly.size()];
                    Point pa{a.x - 400, a.y - 400}, pb{b.x - 400, b.y - 400};
                    if (pa.y == pb.y) continue;
                    edges.push_back(Edge{pa.x, pa.y, pb.x, pb.y, pa.y < pb.y ? 1 : -1});
                    logo_min_ = std::min({logo_min_, pa.x, pa.y});
                    logo_max_ = std::max({logo_max_, pa.x, pa.y});
                }
            }
            logos_.emplace_back(std::move(edges), shape.color);
        }
        half_ = data::geometry.stroke_width / 2;
    }

    // Color index at a point in centered code units: -1 outside, 0 fg, 1 third, 2 bg.
    int sample(double x, double y) const {
        double r2 = x * x + y * y;
        if (r2 > 400.0 * 400.0) return -1;
        if (x >= logo_min_ && x <= logo_max_ && y >= logo_min_ && y <= logo_max_) {
            // Later shapes paint over earlier ones.
            for (auto it = logos_.rbegin(); it != logos_.rend(); ++it)
                if (inside(it->first, x, y)) return it->second;
        }
        double r = std::sqrt(r2);
        for (const auto& a : arcs_) {
            if (std::fabs(r - a.radius) > half_ + 1e-9) continue;
            double ang = std::atan2(y, x);
            while (ang < a.start) ang += 2 * kPi;
            if (ang <= a.end) return a.color;
            if (std::hypot(x - a.cap0.x, y - a.cap0.y) <= half_ || std::hypot(x - a.cap1.x, y - a.cap1.y) <= half_) return a.color;
        }
        return 2;
    }

    // True when a pixel of half-size h around (x, y) may cross an edge.
    bool near_edge(double x, double y, double h) const {
        double r = std::hypot(x, y);
        double reach = h * 1.5;
        if (std::fabs(r - 400.0) < reach) return true;
        for (const auto& ring : tables().rings)
            if (std::fabs(r - ring.radius) < half_ + reach) return true;
        return x >= logo_min_ - reach && x <= logo_max_ + reach && y >= logo_min_ - reach && y <= logo_max_ + reach;
    }

private:
    static bool inside(const std::vector<Edge>& edges, double x, double y) {
        int winding = 0;
        for (const auto& e : edges) {
            double ylo = std::min(e.y0, e.y1), yhi = std::max(e.y0, e.y1);
            if (y < ylo || y >= yhi) continue;
            double xi = e.x0 + (y - e.y0) * (e.x1 - e.x0) / (e.y1 - e.y0);
            if (xi > x) winding += e.winding;
        }
        return winding != 0;
    }

    std::vector<ArcGeometry> arcs_;
    std::vector<std::pair<std::vector<Edge>, int>> logos_;
    double logo_min_ = 1e9, logo_max_ = -1e9;
    double half_ = 0;
};

}  // namespace

void rasterize(const Drawing& d, int size, std::uint8_t* rgba) {
    Scene scene(d);
    const std::uint32_t colors[3] = {d.palette.foreground, d.palette.third, d.palette.background};
    const double unit = 800.0 / size;  // code units per pixel
    for (int py = 0; py < size; ++py) {
        for (int px = 0; px < size; ++px) {
            double cx = (px + 0.5) * unit - 400.0, cy = (py + 0.5) * unit - 400.0;
            double sum[4] = {0, 0, 0, 0};
            int samples = 1;
            if (scene.near_edge(cx, cy, unit / 2)) {
                samples = kSub * kSub;
                for (int sy = 0; sy < kSub; ++sy)
                    for (int sx = 0; sx < kSub; ++sx) {
                        int c = scene.sample((px + (sx + 0.5) / kSub) * unit - 400.0, (py + (sy + 0.5) / kSub) * unit - 400.0);
                        if (c < 0) continue;
                        sum[0] += (colors[c] >> 16) & 0xFF;
                        sum[1] += (colors[c] >> 8) & 0xFF;
                        sum[2] += colors[c] & 0xFF;
                        sum[3] += 255;
                    }
            } else {
                int c = scene.sample(cx, cy);
                if (c >= 0) {
                    sum[0] = (colors[c] >> 16) & 0xFF;
                    sum[1] = (colors[c] >> 8) & 0xFF;
                    sum[2] = colors[c] & 0xFF;
                    sum[3] = 255;
                }
            }
            std::uint8_t* out = rgba + (static_cast<std::size_t>(py) * static_cast<std::size_t>(size) + static_cast<std::size_t>(px)) * 4;
            // Store straight (unpremultiplied) color: average the covered samples only.
            double alpha = sum[3] / samples;
            double covered = sum[3] / 255.0;
            for (int k = 0; k < 3; ++k) out[k] = covered > 0 ? static_cast<std::uint8_t>(std::lround(sum[k] / covered)) : 0;
            out[3] = static_cast<std::uint8_t>(std::lround(alpha));
        }
    }
}

}  // namespace appclip
