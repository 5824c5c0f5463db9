#include "rotation_search.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include "code_geometry.hpp"

namespace appclip::vision {
namespace {

constexpr int kSteps = 1440;  // 0.25 degree

// e^{-i N_k beta_b} for every ring and bin, computed once.
struct Phasors {
    std::complex<double> bin[kRings][RingProfiles::kBins];
    Phasors() {
        const CodeGeometry& g = CodeGeometry::get();
        for (int k = 0; k < kRings; ++k)
            for (int b = 0; b < RingProfiles::kBins; ++b)
                bin[k][b] = std::polar(1.0, -g.rings[k].positions * (b + 0.5) * RingProfiles::kBinDeg * kDeg);
    }
};

}  // namespace

void search_rotation(const RingProfiles& profiles, const CodePalette& palette, bool try_mirrored, int max_count,
                     std::vector<RotationHypothesis>& out) {
    out.clear();
    const CodeGeometry& g = CodeGeometry::get();
    static const Phasors phasors;
    std::complex<double> coefficient[kRings];
    for (int k = 0; k < kRings; ++k) {
        std::complex<double> sum(0, 0);
        double mass = 0;
        for (int b = 0; b < RingProfiles::kBins; ++b) {
            const int i = k * RingProfiles::kBins + b;
            if (!profiles.reliable[i]) continue;
            const double gap = 1.0 - std::clamp(profiles.ink[i] / palette.ring_third_level, 0.f, 1.f);
            sum += gap * phasors.bin[k][b];
            mass += gap;
        }
        coefficient[k] = mass > 1e-6 ? sum / mass : std::complex<double>(0, 0);
    }
    double score[kSteps];
    for (int mirror = 0; mirror <= (try_mirrored ? 1 : 0); ++mirror) {
        // Each ring's term turns by N_k * 0.25 degree per step: advance it by multiplication,
        // written out on real and imaginary parts (std::complex's product without its NaN
        // checks, the same arithmetic) so that the rings' terms advance together.
        double re[kRings], im[kRings], turn_re[kRings], turn_im[kRings];
        for (int k = 0; k < kRings; ++k) {
            const int n = g.rings[k].positions;
            const double rot = g.rings[k].rotation_deg;
            const std::complex<double> term = coefficient[k] * std::polar(1.0, n * (mirror ? -rot : rot) * kDeg);
            const std::complex<double> turn = std::polar(1.0, n * (360.0 / kSteps) * kDeg);
            re[k] = term.real(), im[k] = term.imag(), turn_re[k] = turn.real(), turn_im[k] = turn.imag();
        }
        for (int j = 0; j < kSteps; ++j) {
            double s = 0;
            for (int k = 0; k < kRings; ++k) s += re[k];
            for (int k = 0; k < kRings; ++k) {
                const double r = re[k] * turn_re[k] - im[k] * turn_im[k];
                im[k] = re[k] * turn_im[k] + im[k] * turn_re[k];
                re[k] = r;
            }
            score[j] = s / kRings;
        }
        for (int j = 0; j < kSteps; ++j) {
            const double l = score[(j + kSteps - 1) % kSteps], c = score[j], r = score[(j + 1) % kSteps];
            if (!(c > l && c >= r) || c <= 0) continue;
            const double den = l - 2 * c + r;
            const double offset = den < -1e-12 ? std::clamp(0.5 * (l - r) / den, -0.5, 0.5) : 0.0;
            RotationHypothesis hyp;
            hyp.theta_deg = (j + offset) * 360.0 / kSteps;
            hyp.mirrored = mirror != 0;
            hyp.score = c;
            out.push_back(hyp);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const RotationHypothesis& a, const RotationHypothesis& b) { return a.score > b.score; });
    if (static_cast<int>(out.size()) > max_count) out.resize(max_count);
}

}  // namespace appclip::vision
