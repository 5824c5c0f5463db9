// Check of the local colour thresholds (vision/local_colours.hpp) against known classes: ring
// positions laid out as a code's (17, 23, 26, 29, 33 on five circles from 0.4 to 0.95 of the
// radius, squashed by a random tilt and turned), each foreground (ink 1) or third colour (a
// random level 0.35-0.65) at random, with noise, under light added around a random point of
// the code (a Gaussian lift of a random strength and width, the same for both colours: a
// highlight's falloff where nothing clips). The code-wide threshold is the two classes'
// midpoint, as the reader's plain split gives it. Over many codes the local thresholds
// (narrow and wide, as the reader tries them) must misread far fewer positions than the
// code-wide one under light, and hardly more without it (noisier codes, ink noise 0.1); where
// every position has one colour they must keep the code-wide threshold. Run by
// tools/local_colours_check.sh (tools/test.sh).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "vision/local_colours.hpp"

namespace {

constexpr int kN = ACC_RING_POSITIONS;
constexpr int kCounts[5] = {17, 23, 26, 29, 33};

struct Code {
    float x[kN], y[kN], ink[kN];
    bool known[kN], third[kN];
    double radius_px, lo, hi;
};

// A code with random classes, `lift` the light's strength at its centre (0: none), noise of
// `noise_sigma` ink.
Code make_code(std::mt19937& rng, double lift, double third_share, double noise_sigma) {
    std::uniform_real_distribution<double> u(0, 1);
    std::normal_distribution<double> noise(0, noise_sigma);
    Code c;
    c.radius_px = 60 + 200 * u(rng);
    const double squash = 0.5 + 0.5 * u(rng), turn = 2 * M_PI * u(rng), level = 0.35 + 0.3 * u(rng);
    // The light: centre within the code's disc, sigma 0.1-0.35 of the radius.
    const double la = 2 * M_PI * u(rng), lr = 0.9 * std::sqrt(u(rng)) * c.radius_px;
    const double lx = lr * std::cos(la), ly = lr * std::sin(la), ls = (0.1 + 0.25 * u(rng)) * c.radius_px;
    int i = 0;
    for (int k = 0; k < 5; ++k) {
        const double r = (0.4 + 0.1375 * k) * c.radius_px;
        for (int p = 0; p < kCounts[k]; ++p, ++i) {
            const double a = 2 * M_PI * (p + 0.5) / kCounts[k];
            const double px = r * std::cos(a), py = r * std::sin(a) * squash;
            c.x[i] = static_cast<float>(500 + std::cos(turn) * px - std::sin(turn) * py);
            c.y[i] = static_cast<float>(400 + std::sin(turn) * px + std::cos(turn) * py);
            c.third[i] = u(rng) < third_share;
            c.known[i] = u(rng) > 0.05;
            const double d2 = (px - lx) * (px - lx) + (py - ly) * (py - ly);
            c.ink[i] = static_cast<float>((c.third[i] ? level : 1.0) + lift * std::exp(-d2 / (2 * ls * ls)) + noise(rng));
        }
    }
    c.lo = level, c.hi = 1.0;
    return c;
}

// Positions misread by the code-wide threshold and by the local ones (both widths).
void misreads(const Code& c, int& global, int& narrow, int& wide, bool& kept_global) {
    float t[2][kN], share[2][kN];
    const double widths[2] = {0.15, 0.3};
    for (int w = 0; w < 2; ++w)
        appclip::vision::local_colour_thresholds(c.x, c.y, c.known, c.ink, c.radius_px, widths[w], c.lo, c.hi, t[w], share[w]);
    const float mid = static_cast<float>(0.5 * (c.lo + c.hi));
    global = narrow = wide = 0;
    kept_global = true;
    for (int i = 0; i < kN; ++i) {
        if (!c.known[i]) continue;
        global += (c.ink[i] < mid) != c.third[i];
        narrow += (c.ink[i] < t[0][i]) != c.third[i];
        wide += (c.ink[i] < t[1][i]) != c.third[i];
        kept_global = kept_global && t[0][i] == mid && t[1][i] == mid && share[0][i] == 1.f && share[1][i] == 1.f;
    }
}

}  // namespace

int main() {
    std::mt19937 rng(52);
    constexpr int kCodes = 4000;
    long lit[3] = {}, unlit[3] = {};
    // Codes with every position read right: code-wide, and by either local reading.
    int lit_clean[2] = {}, unlit_clean[2] = {};
    for (int n = 0; n < kCodes; ++n) {
        int g, a, b;
        bool kept;
        misreads(make_code(rng, 0.25 + 0.35 * (n % 7) / 6.0, 0.5, 0.04), g, a, b, kept);
        lit[0] += g, lit[1] += a, lit[2] += b;
        lit_clean[0] += g == 0, lit_clean[1] += a == 0 || b == 0;
        misreads(make_code(rng, 0.0, 0.5, 0.1), g, a, b, kept);
        unlit[0] += g, unlit[1] += a, unlit[2] += b;
        unlit_clean[0] += g == 0, unlit_clean[1] += a == 0 || b == 0;
    }
    // One colour everywhere: no neighbourhood shows two classes.
    int one_colour_changed = 0;
    for (int n = 0; n < 500; ++n) {
        int g, a, b;
        bool kept;
        misreads(make_code(rng, 0.0, n % 2 == 0 ? 0.0 : 1.0, 0.04), g, a, b, kept);
        one_colour_changed += kept ? 0 : 1;
    }
    std::printf("%d codes under light: misread positions code-wide %ld, local narrow %ld, wide %ld; codes read whole "
                "code-wide %d, by either local reading %d; without light: misread %ld, %ld, %ld, read whole %d, %d; "
                "one-colour codes given a local threshold %d of 500\n",
                kCodes, lit[0], lit[1], lit[2], lit_clean[0], lit_clean[1], unlit[0], unlit[1], unlit[2], unlit_clean[0],
                unlit_clean[1], one_colour_changed);
    bool ok = true;
    if (lit[2] * 2 > lit[0] || lit[1] * 5 > lit[0] * 4)
        std::printf("FAIL: under light the local thresholds misread too many (over 1/2 wide, 4/5 narrow)\n"), ok = false;
    if (lit_clean[1] < 2 * lit_clean[0]) std::printf("FAIL: under light the local readings read too few codes whole\n"), ok = false;
    for (int w = 1; w <= 2; ++w)
        if (unlit[w] * 4 > unlit[0] * 5 + 80) std::printf("FAIL: without light the local thresholds misread many more\n"), ok = false;
    if (one_colour_changed > 0) std::printf("FAIL: a one-colour code got a local threshold\n"), ok = false;
    return ok ? 0 : 1;
}
