#include "added_light.hpp"

#include <algorithm>
#include <cmath>

#include "appclip_core.h"
#include "code_geometry.hpp"
#include "debug_log.hpp"

namespace appclip::vision {
namespace {

// The bump that explains most of `deficit` over the positions with `use[i]` (see
// estimate_added_light); its value at every position into `added`.
bool fit_added_light(const float* x, const float* y, const bool* use, const double* deficit, double radius_px,
                     float* added) {
    constexpr int n = ACC_RING_POSITIONS;
    constexpr double kWidths[] = {0.1, 0.2, 0.35};   // the bump's sigma, of the code's radius
    constexpr int kCentres = 12;                      // the positions of largest deficit tried as centres
    constexpr double kMinExplained = 0.35;            // of the deficits' sum of squares
    constexpr double kMinStrength = 0.15;             // ink taken off at the centre
    std::fill(added, added + n, 0.f);
    if (radius_px <= 0) return false;
    int order[n];
    int m = 0;
    double total = 0;
    for (int i = 0; i < n; ++i)
        if (use[i]) order[m++] = i, total += deficit[i] * deficit[i];
    if (m < kCentres || total <= 0) return false;
    const int centres = std::min(kCentres, m);
    std::partial_sort(order, order + centres, order + m, [&](int a, int b) { return deficit[a] > deficit[b]; });
    // How much of the deficits the best bump at (cx, cy) of width sigma explains (the fall in
    // their sum of squares), and its strength.
    auto explained_by = [&](double cx, double cy, double sigma, double& strength) {
        const double k = -0.5 / (sigma * sigma);
        double we = 0, ww = 0;
        for (int j = 0; j < m; ++j) {
            const int i = order[j];
            const double dx = x[i] - cx, dy = y[i] - cy;
            const double w = std::exp(k * (dx * dx + dy * dy));
            we += w * deficit[i], ww += w * w;
        }
        if (we <= 0 || ww <= 0) return 0.0;
        strength = we / ww;
        return we * we / ww;
    };
    double best = 0, best_strength = 0, best_x = 0, best_y = 0, best_sigma = 0;
    for (int c = 0; c < centres; ++c) {
        const int at = order[c];
        if (deficit[at] <= 0) break;
        for (const double width : kWidths) {
            double strength = 0;
            const double explained = explained_by(x[at], y[at], width * radius_px, strength);
            if (explained > best)
                best = explained, best_strength = strength, best_x = x[at], best_y = y[at], best_sigma = width * radius_px;
        }
    }
    if (best <= 0) return false;
    // The highlight need not sit on a position (it may be over the logo): the best bump
    // moved and widened while that explains more.
    for (double step = 0.5; step > 0.05; step *= 0.5) {
        bool moved = true;
        for (int round = 0; round < 8 && moved; ++round) {
            moved = false;
            const double d = step * best_sigma;
            const double tries[6][3] = {{d, 0, 1}, {-d, 0, 1}, {0, d, 1}, {0, -d, 1}, {0, 0, 1 + step}, {0, 0, 1 / (1 + step)}};
            for (const auto& t : tries) {
                double strength = 0;
                const double sigma = best_sigma * t[2];
                if (sigma > kWidths[2] * 1.5 * radius_px) continue;
                const double explained = explained_by(best_x + t[0], best_y + t[1], sigma, strength);
                if (explained > best) {
                    best = explained, best_strength = strength, best_x += t[0], best_y += t[1], best_sigma = sigma;
                    moved = true;
                }
            }
        }
    }
    ACC_TRACE("  added light: bump %.2f at %.0f,%.0f sigma %.1f px explains %.2f of the deficits\n", best_strength, best_x,
              best_y, best_sigma, best / total);
    if (best < kMinExplained * total || best_strength < kMinStrength) return false;
    const double k = -0.5 / (best_sigma * best_sigma);
    for (int i = 0; i < n; ++i) {
        const double dx = x[i] - best_x, dy = y[i] - best_y;
        added[i] = static_cast<float>(best_strength * std::exp(k * (dx * dx + dy * dy)));
    }
    return true;
}

}  // namespace

bool estimate_added_light(const float* x, const float* y, double radius_px, const float* peak, const bool* use,
                          float* added, float& top) {
    constexpr double kReach = 0.15;   // of the code's radius: a position's neighbours on its ring
    constexpr double kTop = 0.8;      // the code's usual highest ink: this quantile of the arcs'
    constexpr int kMinPositions = 16;
    float values[ACC_RING_POSITIONS];
    int n = 0;
    for (int i = 0; i < ACC_RING_POSITIONS; ++i)
        if (use[i]) values[n++] = peak[i];
    if (n < kMinPositions) return false;
    std::nth_element(values, values + static_cast<int>(kTop * (n - 1)), values + n);
    top = values[static_cast<int>(kTop * (n - 1))];
    if (top <= 1e-3f) return false;
    const double reach2 = kReach * kReach * radius_px * radius_px;
    const CodeGeometry& g = CodeGeometry::get();
    double deficit[ACC_RING_POSITIONS];
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) {
        deficit[i] = 0;
        if (!use[i]) continue;
        float highest = peak[i];
        const Ring& ring = g.ring_holding(i);
        for (int j = ring.first_bit; j < ring.first_bit + ring.positions; ++j) {
            const double dx = x[j] - x[i], dy = y[j] - y[i];
            if (use[j] && dx * dx + dy * dy <= reach2) highest = std::max(highest, peak[j]);
        }
        deficit[i] = top - highest;
    }
    return fit_added_light(x, y, use, deficit, radius_px, added);
}

}  // namespace appclip::vision
