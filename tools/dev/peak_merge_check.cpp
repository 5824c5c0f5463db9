// Check of the locator's peak merging (vision/peak_merge.hpp), whose grid only spares
// comparisons, against the rule it implements applied plainly: each peak, strongest first, goes
// to the first merged peak in merged order within reach of it (15 % of the larger of their
// smallest sizes plus two working pixels), else it is appended. Peak sets: codes seen on
// several levels with jitter, clutter on every level, the fine levels alone over a wide frame
// (the grid's cell cap), and peaks stacked on one point (with one whose centre is NaN). Run by
// tools/peak_merge_check.sh.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "vision/peak_merge.hpp"

using appclip::vision::Candidate;

namespace {

void plain_merge(const std::vector<Candidate>& peaks, double scale, std::vector<Candidate>& merged) {
    merged.clear();
    for (const Candidate& c : peaks) {
        Candidate* into = nullptr;
        for (Candidate& m : merged) {
            const double reach = 0.15 * std::max(m.diameter_lo, c.diameter_lo) + 2.0 * scale;
            const double dx = c.center.x - m.center.x, dy = c.center.y - m.center.y;
            if (std::sqrt(dx * dx + dy * dy) < reach) {
                into = &m;
                break;
            }
        }
        if (into == nullptr) {
            merged.push_back(c);
            continue;
        }
        into->levels |= c.levels;
        into->diameter_lo = std::min(into->diameter_lo, c.diameter_lo);
        into->diameter_hi = std::max(into->diameter_hi, c.diameter_hi);
        into->prominence = std::max(into->prominence, c.prominence);
    }
}

Candidate peak(double x, double y, int level, double scale, float score, float prominence) {
    Candidate c;
    c.center = {x, y};
    c.diameter_lo = 20.0 * scale * (1 << level);
    c.diameter_hi = 48.0 * scale * (1 << level);
    c.score = score;
    c.prominence = prominence;
    c.levels = 1 << level;
    return c;
}

bool same_coordinate(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

bool same(const Candidate& a, const Candidate& b) {
    return same_coordinate(a.center.x, b.center.x) && same_coordinate(a.center.y, b.center.y) &&
           a.diameter_lo == b.diameter_lo && a.diameter_hi == b.diameter_hi &&
           a.levels == b.levels && a.prominence == b.prominence && a.score == b.score;
}

}  // namespace

int main() {
    std::mt19937 rng(2026);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    appclip::vision::PeakMerger merger;
    std::vector<Candidate> peaks, merged, expected;
    int sets = 0, failed = 0;
    long long peak_count = 0, merges = 0;
    for (int trial = 0; trial < 1200; ++trial) {
        const int kind = trial % 4;
        const double scale = 1.0 + 2.0 * unit(rng);
        const double width = kind == 2 ? 12000.0 : 400.0 + 3600.0 * unit(rng), height = 0.6 * width;
        const int top_level = kind == 2 ? 0 : 5;
        peaks.clear();
        if (kind == 3) {
            for (int k = 0, n = 1 + static_cast<int>(40 * unit(rng)); k < n; ++k)
                peaks.push_back(peak(100.0, 100.0, static_cast<int>(6 * unit(rng)), scale, static_cast<float>(unit(rng)),
                                     static_cast<float>(unit(rng))));
            // And one off the finite plane, which merges with none.
            peaks.push_back(peak(std::nan(""), 100.0, 0, scale, static_cast<float>(unit(rng)), 0.f));
        } else {
            // Codes: a peak on each of a few neighbouring levels, within about a reach of its centre.
            for (int code = 0, codes = static_cast<int>(8 * unit(rng)); code < codes && kind != 2; ++code) {
                const double x = width * unit(rng), y = height * unit(rng);
                const int level = static_cast<int>(4 * unit(rng));
                for (int l = level; l <= std::min(5, level + 2); ++l) {
                    const double jitter = (0.2 * 20.0 * (1 << l) + 3.0) * scale;
                    peaks.push_back(peak(x + jitter * (unit(rng) - 0.5), y + jitter * (unit(rng) - 0.5), l, scale,
                                         static_cast<float>(unit(rng)), static_cast<float>(unit(rng))));
                }
            }
            // Clutter anywhere, on any level the set allows, in runs of near neighbours.
            for (int k = 0, n = static_cast<int>(1500 * unit(rng)); k < n; ++k) {
                const double x = width * unit(rng), y = height * unit(rng);
                const int level = static_cast<int>((top_level + 1) * unit(rng) * unit(rng));
                for (int near = 0, m = 1 + static_cast<int>(3 * unit(rng)); near < m; ++near)
                    peaks.push_back(peak(x + 8 * scale * unit(rng), y + 8 * scale * unit(rng), level, scale,
                                         static_cast<float>(unit(rng)), static_cast<float>(unit(rng))));
            }
        }
        std::sort(peaks.begin(), peaks.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
        merger.merge(peaks, scale, merged);
        plain_merge(peaks, scale, expected);
        ++sets;
        peak_count += static_cast<long long>(peaks.size());
        merges += static_cast<long long>(peaks.size() - expected.size());
        bool ok = merged.size() == expected.size();
        for (size_t k = 0; ok && k < merged.size(); ++k) ok = same(merged[k], expected[k]);
        if (!ok) {
            if (++failed <= 5)
                std::printf("FAIL trial %d (kind %d): %zu peaks merged into %zu, expected %zu\n", trial, kind, peaks.size(),
                            merged.size(), expected.size());
        }
    }
    std::printf("%d peak sets (%lld peaks, %lld merged away), %d differ from the plain rule\n", sets, peak_count, merges,
                failed);
    return failed == 0 && merges > 0 ? 0 : 1;
}
