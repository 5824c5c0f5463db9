#include "concentric_fit.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "ellipse_fit.hpp"
#include "homography.hpp"
#include "ray_directions.hpp"
#include "rough_ellipse.hpp"
#include "small_solve.hpp"

namespace appclip::vision {
namespace {

constexpr int kAngles = 72;
constexpr int kOuterIterations = 2;
constexpr int kSolveSteps = 3;
// Residuals in code units at the code's mean scale in the image (see solve).
constexpr double kHuber = 2.0;
constexpr double kReject = 12.0;   // residuals beyond this are not ring points
// Perspective parts the rings' centres: on a code 350-490 px across seen 52-64° off its axis
// the inner ring's centre lies 0.8-1.2 ring spacings from the outer ring's, its neighbour's
// 0.25-0.4 (std hard_00056, held3 hard_00056, held5 camera_00009, from their true planes;
// perm45 hard_00245, 197 px at 51°: 0.3 and 0.1). An affine guess from the traced ring's
// ellipse then puts the far rings off their strokes and the first check of all five fails, so
// on a traced ellipse this large and this flattened (minor / major) the fit checks and starts
// from the traced ring and its neighbours. Smaller ones start from the middle ring as before:
// there the parting is a fraction of a pixel, and an inner ring's shorter strokes are the worse
// start (without the gate, 5 small codes and 2 probe frames of 7,580 were lost).
constexpr double kPartedRingsMinMajorPx = 150;
constexpr double kPartedRingsMaxAxisRatio = 0.8;
constexpr int kMiddleRing = 2;   // 0-based: ring 3
// On parted rings the affine guess can name the traced ring wrongly too (identify_ring scores
// all five rings from it): ring 5 of a 1,357 px code seen 52° off axis (held2 camera_00037,
// generator codes) scored as ring 4. Fitted as ring 4, the plane's ring 5 lies beyond the code
// and finds no stroke on any ray, and the fit is poor: fits that decode have a median rms of
// 1.14 code units and 90 % under 1.92 (forty-seventh session). Such a fit also tries the traced
// ring named one further out (or in, when ring 1 is the empty one).
constexpr double kPoorFitRms = 2.0;
// ring_contrast runs dozens of times per candidate (every perspective tried within an
// outline): its directions come from a table, whose cosines and sines cost as much as its samples.
constexpr int kContrastAngles = 64;

// Samples a stroke window takes, at most.
constexpr int kMaxWindowSamples = 32;
// j / (n - 1) for windows of n samples: stroke_on_ray runs some thousand times per plane.
struct WindowFractions {
    double at[kMaxWindowSamples + 1][kMaxWindowSamples];
    WindowFractions() {
        for (int n = 2; n <= kMaxWindowSamples; ++n)
            for (int j = 0; j < n; ++j) at[n][j] = static_cast<double>(j) / (n - 1);
    }
};
const WindowFractions& window_fractions() {
    static const WindowFractions table;
    return table;
}

// Cosines and sines of the stroke search's kAngles directions, (i + 0.25) 2π / kAngles.
struct StrokeDirections {
    double c[kAngles], s[kAngles];
    StrokeDirections() {
        for (int i = 0; i < kAngles; ++i) {
            const double a = (i + 0.25) * 2 * kPi / kAngles;
            c[i] = std::cos(a), s[i] = std::sin(a);
        }
    }
};
const StrokeDirections& stroke_directions() {
    static const StrokeDirections table;
    return table;
}

}  // namespace

namespace {
// The scale that makes a plane whose middle ring lies on a traced ellipse put ring
// kMiddleRing + `shift` there instead (the traced ring was that one).
double shift_scale(int shift) {
    const CodeGeometry& g = CodeGeometry::get();
    return g.rings[kMiddleRing].radius / g.rings[kMiddleRing + shift].radius;
}

// ring_contrast's points in centred code units: every direction's points on the rings' centre
// lines (direction by direction, inner ring first), then on the bands between them.
constexpr int kContrastRingPoints = kContrastAngles * kRings, kContrastGapPoints = kContrastAngles * (kRings - 1);
constexpr int kContrastPoints = kContrastRingPoints + kContrastGapPoints;
struct ContrastPoints {
    double u[kContrastPoints], v[kContrastPoints];
};
const ContrastPoints& contrast_points() {
    static const ContrastPoints table = [] {
        const CodeGeometry& g = CodeGeometry::get();
        const RayDirections<kContrastAngles>& dirs = ray_directions<kContrastAngles>();
        ContrastPoints t{};
        for (int i = 0, ring = 0, gap = kContrastRingPoints; i < kContrastAngles; ++i) {
            const double c = dirs.c[i], s = dirs.s[i];
            for (int k = 0; k < kRings; ++k) {
                const double r = g.rings[k].radius;
                t.u[ring] = r * c, t.v[ring++] = r * s;
                if (k + 1 < kRings) {
                    const double rb = r + 0.5 * g.ring_spacing;
                    t.u[gap] = rb * c, t.v[gap++] = rb * s;
                }
            }
        }
        return t;
    }();
    return table;
}

struct ContrastSums {
    double ring_sum = 0, gap_sum = 0;
    int ring_n = 0, gap_n = 0;
    double contrast() const {
        if (ring_n < 20 || gap_n < 20) return 0;
        // Strokes cover ~3/4 of each ring, so the ring mean sits well off the background.
        return (ring_sum / ring_n - gap_sum / gap_n) / 0.75;
    }
};

// `h`'s points at `n` code points (u, v) read in one batch: the arithmetic in one flat loop
// (apply's, which the compiler runs on vectors).
void read_points(const Frame& frame, const cv::Matx33d& h, const double* u, const double* v, int n, double* x,
                 double* y, float* luma) {
    const double h00 = h(0, 0), h01 = h(0, 1), h02 = h(0, 2), h10 = h(1, 0), h11 = h(1, 1), h12 = h(1, 2),
                 h20 = h(2, 0), h21 = h(2, 1), h22 = h(2, 2);
    for (int j = 0; j < n; ++j) {
        const double cu = u[j], cv = v[j];
        const double w = h20 * cu + h21 * cv + h22;
        const double iw = std::abs(w) > 1e-12 ? 1.0 / w : 0.0;
        x[j] = (h00 * cu + h01 * cv + h02) * iw;
        y[j] = (h10 * cu + h11 * cv + h12) * iw;
    }
    frame.luma_at(x, y, n, luma);
}

ContrastSums ring_sums(const Frame& frame, const cv::Matx33d& h, int first_ring, int last_ring) {
    const ContrastPoints& points = contrast_points();
    double x[kContrastPoints], y[kContrastPoints];
    float v[kContrastPoints];
    read_points(frame, h, points.u, points.v, kContrastPoints, x, y, v);
    double ring_sum = 0, gap_sum = 0;
    int ring_n = 0, gap_n = 0;
    if (first_ring == 0 && last_ring == kRings - 1) {
        // Every ring: one flat pass each (the hot path; the per-direction loops below, used for
        // every range, cost 0.3 % more instructions on camera frames and 0.5 % on negatives).
        for (int j = 0; j < kContrastRingPoints; ++j)
            if (v[j] >= 0) ring_sum += v[j], ++ring_n;
        for (int j = kContrastRingPoints; j < kContrastPoints; ++j)
            if (v[j] >= 0) gap_sum += v[j], ++gap_n;
    } else {
        // Points run ring by ring within each direction; band k lies between rings k and k + 1.
        const float* ring_v = v;
        const float* gap_v = v + kContrastRingPoints;
        for (int i = 0; i < kContrastAngles; ++i, ring_v += kRings, gap_v += kRings - 1) {
            for (int k = first_ring; k <= last_ring; ++k)
                if (ring_v[k] >= 0) ring_sum += ring_v[k], ++ring_n;
            for (int k = first_ring; k < last_ring; ++k)
                if (gap_v[k] >= 0) gap_sum += gap_v[k], ++gap_n;
        }
    }
    return {ring_sum, gap_sum, ring_n, gap_n};
}

// The code's background outside ring 5, midway to the rim, in kMarginAngles directions.
constexpr int kMarginAngles = 32;
struct MarginPoints {
    double u[kMarginAngles], v[kMarginAngles];
};
const MarginPoints& margin_points() {
    static const MarginPoints table = [] {
        const CodeGeometry& g = CodeGeometry::get();
        const double radius = 0.5 * (g.rings[kRings - 1].radius + g.half_stroke + g.disc_radius);
        const RayDirections<kMarginAngles>& dirs = ray_directions<kMarginAngles>();
        MarginPoints t{};
        for (int i = 0; i < kMarginAngles; ++i) t.u[i] = radius * dirs.c[i], t.v[i] = radius * dirs.s[i];
        return t;
    }();
    return table;
}
}  // namespace

double ring_contrast(const Frame& frame, const cv::Matx33d& h, int first_ring, int last_ring) {
    return ring_sums(frame, h, first_ring, last_ring).contrast();
}

double ring_contrast_in_disc(const Frame& frame, const cv::Matx33d& h) {
    ContrastSums sums = ring_sums(frame, h, 0, kRings - 1);
    const MarginPoints& points = margin_points();
    double x[kMarginAngles], y[kMarginAngles];
    float v[kMarginAngles];
    read_points(frame, h, points.u, points.v, kMarginAngles, x, y, v);
    for (int j = 0; j < kMarginAngles; ++j)
        if (v[j] >= 0) sums.gap_sum += v[j], ++sums.gap_n;
    return sums.contrast();
}

bool ConcentricFit::stroke_on_ray(const Frame& frame, const cv::Matx33d& h, double radius, double c, double s,
                                  double polarity, double magnitude, cv::Point2d& centre) {
    const CodeGeometry& g = CodeGeometry::get();
    const double half_window = 0.8 * 0.5 * g.ring_spacing;
    const double r0 = radius - half_window, r1 = radius + half_window;
    const cv::Point2d A = apply(h, r0 * c, r0 * s), B = apply(h, r1 * c, r1 * s);
    // (A square root, not std::hypot: this runs for every ray of every fit, and the library's
    // overflow-safe hypot cost ~2 % of a frame without a code; the lengths are pixels.)
    const double length = std::sqrt((B.x - A.x) * (B.x - A.x) + (B.y - A.y) * (B.y - A.y));
    const int n = std::clamp(static_cast<int>(length / 0.5), 9, kMaxWindowSamples);
    const double* fraction = window_fractions().at[n];
    float line[kMaxWindowSamples];
    // Both ends surely inside: so is every sample between them, read without bounds tests.
    if (frame.surely_inside(A.x, A.y) && frame.surely_inside(B.x, B.y)) {
        frame.luma_inside_along(A, B, fraction, n, line);
        // The callers' polarity is +1 or -1, which leave a float as it is or negate it exactly.
        if (polarity == -1.0)
            for (int j = 0; j < n; ++j) line[j] = -line[j];
        else if (polarity != 1.0)
            for (int j = 0; j < n; ++j) line[j] = static_cast<float>(polarity * line[j]);
    } else {
        for (int j = 0; j < n; ++j) {
            const double x = A.x + (B.x - A.x) * fraction[j], y = A.y + (B.y - A.y) * fraction[j];
            const float v = frame.luma_at(x, y);
            if (v < 0) return false;
            line[j] = static_cast<float>(polarity * v);
        }
    }
    // Entering the stroke: the largest rise; leaving it: the largest fall after it.
    int up = -1, down = -1;
    float up_v = 0, down_v = 0;
    for (int j = 1; j + 1 < n; ++j) {
        const float d = line[j + 1] - line[j - 1];
        if (d > up_v) up_v = d, up = j;
    }
    if (up < 0) return false;
    for (int j = up + 1; j + 1 < n; ++j) {
        const float d = line[j - 1] - line[j + 1];
        if (d > down_v) down_v = d, down = j;
    }
    if (down < 0) return false;
    const double px_per_sample = length / (n - 1);
    const double min_slope = 0.12 * magnitude * 2 * std::min(1.0, px_per_sample);
    if (up_v < min_slope || down_v < min_slope) return false;
    const float inside_v = line[(up + down) / 2];
    const float outside_v = 0.5f * (line[0] + line[n - 1]);
    if (inside_v - outside_v < 0.35 * magnitude) return false;
    auto refine = [&](int j, float sign) {
        const double l = sign * (line[j] - line[std::max(0, j - 2)]);
        const double m = sign * (line[j + 1] - line[j - 1]);
        const double r = sign * (line[std::min(n - 1, j + 2)] - line[j]);
        const double den = l - 2 * m + r;
        return j + (den < -1e-6 ? std::clamp(0.5 * (l - r) / den, -0.5, 0.5) : 0.0);
    };
    const double t_up = refine(up, 1.f), t_down = refine(down, -1.f);
    const double width_units = (t_down - t_up) / (n - 1) * (r1 - r0);
    if (width_units < 0.45 * 2 * g.half_stroke || width_units > 1.7 * 2 * g.half_stroke) return false;
    const double t = 0.5 * (t_up + t_down) / (n - 1);
    centre = {A.x + (B.x - A.x) * t, A.y + (B.y - A.y) * t};
    return true;
}

void ConcentricFit::find_strokes(const Frame& frame, const cv::Matx33d& h, double contrast, FitQuality& q) {
    const CodeGeometry& g = CodeGeometry::get();
    const double polarity = contrast > 0 ? 1.0 : -1.0;
    observations_.clear();
    const StrokeDirections& dirs = stroke_directions();
    for (int k = 0; k < kRings; ++k) q.coverage[k] = 0;
    for (int i = 0; i < kAngles; ++i) {
        for (int k = 0; k < kRings; ++k) {
            cv::Point2d p;
            if (!stroke_on_ray(frame, h, g.rings[k].radius, dirs.c[i], dirs.s[i], polarity, std::abs(contrast), p))
                continue;
            observations_.push_back({p, g.rings[k].radius});
            q.coverage[k] += 1.0 / kAngles;
        }
    }
}

// The rough ellipse traced one ring, called ring 3. If it was ring 3 + s, the code is
// r3 / r(3+s) times the guess: the right s puts strokes on all five rings and none on
// the background band inside ring 1 nor just outside ring 5.
int ConcentricFit::identify_ring(const Frame& frame, const cv::Matx33d& h, double polarity, double magnitude,
                                 int shifts[2]) {
    const CodeGeometry& g = CodeGeometry::get();
    const double inner_band = g.rings[0].radius - g.ring_spacing;
    const double outer_band = g.rings[4].radius + g.ring_spacing;
    double scores[5];
    for (int shift = -2; shift <= 2; ++shift) {
        const double factor = shift_scale(shift);
        const cv::Matx33d hs = h * scaling(factor);
        double score = 0;
        for (int i = 0; i < 20; ++i) {
            const double a = (i + 0.5) * 2 * kPi / 20, c = std::cos(a), s = std::sin(a);
            cv::Point2d p;
            for (int k = 0; k < kRings; ++k)
                score += stroke_on_ray(frame, hs, g.rings[k].radius, c, s, polarity, magnitude, p);
            score -= 2 * stroke_on_ray(frame, hs, inner_band, c, s, polarity, magnitude, p);
            score -= stroke_on_ray(frame, hs, outer_band, c, s, polarity, magnitude, p);
        }
        ACC_TRACE("  identify: shift %d score %.0f\n", shift, score);
        scores[shift + 2] = score;
    }
    int first = 0, second = -1;
    for (int i = 1; i < 5; ++i)
        if (scores[i] > scores[first]) first = i;
    for (int i = 0; i < 5; ++i)
        if (i != first && (second < 0 || scores[i] > scores[second])) second = i;
    shifts[0] = first - 2;
    shifts[1] = second - 2;
    return scores[second] >= 0.8 * scores[first] && scores[first] > 0 ? 2 : 1;
}

// Ring by ring from `start_ring` outwards and inwards, alternately (from the middle ring:
// 3, 4, 2, 5, 1): each ring's own ellipse predicts its neighbour, which follows perspective
// far better than one affine guess.
bool ConcentricFit::ring_by_ring(const Frame& frame, cv::Matx33d& h, double contrast, int start_ring) {
    const CodeGeometry& g = CodeGeometry::get();
    const double polarity = contrast > 0 ? 1.0 : -1.0;
    int order[kRings];
    order[0] = start_ring;
    for (int n = 1, d = 1; n < kRings; ++d) {
        if (start_ring + d < kRings) order[n++] = start_ring + d;
        if (start_ring - d >= 0 && n < kRings) order[n++] = start_ring - d;
    }
    cv::RotatedRect fitted[kRings];
    bool have[kRings] = {false, false, false, false, false};
    observations_.clear();
    int rings = 0;
    for (int step = 0; step < kRings; ++step) {
        // Three rings are needed below: once the rings left cannot make that up, stop.
        if (rings + (kRings - step) < 3) return false;
        const int k = order[step];
        cv::Matx33d predict = h;
        // Nearest ring already fitted, scaled about its own centre.
        int nearest = -1;
        for (int j = 0; j < kRings; ++j)
            if (have[j] && (nearest < 0 || std::abs(j - k) < std::abs(nearest - k))) nearest = j;
        if (nearest >= 0) predict = affine_from_ellipse(fitted[nearest], g.rings[nearest].radius);
        ring_points_.clear();
        const StrokeDirections& dirs = stroke_directions();
        for (int i = 0; i < kAngles; ++i) {
            cv::Point2d p;
            if (stroke_on_ray(frame, predict, g.rings[k].radius, dirs.c[i], dirs.s[i], polarity, std::abs(contrast), p))
                ring_points_.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
        }
        ACC_TRACE("  ring %d: %d points\n", k + 1, static_cast<int>(ring_points_.size()));
        if (ring_points_.size() < 16) continue;
        cv::RotatedRect e = fit_ellipse(ring_points_);
        // One trimming pass: caps and clutter sit off the ring's ellipse.
        kept_.clear();
        const EllipseDistance distance(e);
        for (const auto& p : ring_points_)
            if (distance(p) < 0.03) kept_.push_back(p);
        if (kept_.size() < 12) continue;
        e = fit_ellipse(kept_);
        if (!(e.size.width > 4 && e.size.height > 4)) continue;
        fitted[k] = e;
        have[k] = true;
        ++rings;
        for (const auto& p : kept_) observations_.push_back({cv::Point2d(p.x, p.y), g.rings[k].radius});
    }
    if (rings < 3) return false;
    const int base = have[2] ? 2 : (have[3] ? 3 : 1);
    h = affine_from_ellipse(fitted[base], g.rings[base].radius);
    return true;
}

void ConcentricFit::solve(cv::Matx33d& h, FitQuality& q) {
    const int n = static_cast<int>(observations_.size());
    for (int step = 0; step < kSolveSteps; ++step) {
        const cv::Matx33d hi = h.inv();
        rectified_.resize(n);
        for (int i = 0; i < n; ++i) rectified_[i] = apply(hi, observations_[i].image.x, observations_[i].image.y);
        // Gauss-Newton on M(p): residual_i = |M(p)^-1 y_i| - r_i, Jacobian at p = 0. M is
        // I + G(p) with G linear in p (see correction), so M^-1 y moves by -G_k y per unit
        // p_k (then the projective division), and |y| by that motion along y / |y|.
        cv::Matx<double, 7, 7> jtj = cv::Matx<double, 7, 7>::zeros();
        cv::Matx<double, 7, 1> jtr = cv::Matx<double, 7, 1>::zeros();
        // The strokes are found in the image, so their errors are pixels: each residual is
        // weighed in pixels, relative to the code's mean scale (a frontal code's weights stay
        // 1). In code units, a steep code's minor-axis ends, where the rings crowd and blur
        // together, counted (major / minor)^2 times a pixel of error along the major axis.
        // The scales, from the plane the steps start from, serve every step: a step moves
        // them by far less than they differ around a steep code.
        if (step == 0) {
            radial_scales_.resize(n);
            double mean_scale = 0;
            int scaled = 0;
            for (int i = 0; i < n; ++i) {
                const cv::Point2d y = rectified_[i];
                const double rho = std::sqrt(y.x * y.x + y.y * y.y);
                if (rho < 1e-9) {
                    radial_scales_[i] = 0;
                    continue;
                }
                const double w = h(2, 0) * y.x + h(2, 1) * y.y + h(2, 2);
                radial_scales_[i] = pixels_per_unit_along(h, observations_[i].image, w, y.x / rho, y.y / rho);
                mean_scale += radial_scales_[i];
                ++scaled;
            }
            // Relative scales: a frontal code's are all 1.
            const double inv = scaled > 0 && mean_scale > 0 ? scaled / mean_scale : 1.0;
            for (double& scale : radial_scales_) scale *= inv;
        }
        double sum_sq = 0;
        int used = 0;
        for (int i = 0; i < n; ++i) {
            const cv::Point2d y = rectified_[i];
            const double rho = std::sqrt(y.x * y.x + y.y * y.y);
            if (rho < 1e-9) continue;
            const double res = rho - observations_[i].radius;
            const double rel = radial_scales_[i];
            const double res_scaled = res * rel;   // code units at the code's mean scale
            if (std::abs(res_scaled) > kReject) continue;
            const double w = rel * rel * (std::abs(res_scaled) < kHuber ? 1.0 : kHuber / std::abs(res_scaled));
            const double ux = y.x / rho, uy = y.y / rho;
            const cv::Matx<double, 7, 1> jrow(-y.x * ux, -(y.y * ux + y.x * uy), -400 * ux, -y.y * uy, -400 * uy,
                                              rho * y.x / 400, rho * y.y / 400);
            // The lower triangle only (mirrored below): each term as (w j_a) j_b, as before.
            const cv::Matx<double, 7, 1> wrow = w * jrow;
            for (int a = 0; a < 7; ++a)
                for (int b = 0; b <= a; ++b) jtj(a, b) += wrow(a) * jrow(b);
            jtr += w * res * jrow;
            sum_sq += res * res;
            ++used;
        }
        for (int a = 0; a < 7; ++a)
            for (int b = a + 1; b < 7; ++b) jtj(a, b) = jtj(b, a);
        q.points = used;
        q.rms = used > 0 ? std::sqrt(sum_sq / used) : 1e9;
        if (used < 30) return;
        for (int p = 0; p < 7; ++p) jtj(p, p) += 1e-9 + 1e-6 * jtj(p, p);
        cv::Matx<double, 7, 1> delta;
        if (!solve_cholesky(jtj, cv::Matx<double, 7, 1>(-jtr), delta)) return;
        double p[7];
        for (int i = 0; i < 7; ++i) p[i] = delta(i);
        h = h * correction(p);
    }
}

namespace {
// The ring contrast a fit from `start_ring` must show first: from the middle ring every
// ring's; from another, that of the rings beside it (see kPartedRingsMinMajorPx).
double start_contrast(const Frame& frame, const cv::Matx33d& h, int start_ring) {
    if (start_ring == kMiddleRing) return ring_contrast(frame, h);
    return ring_contrast(frame, h, std::max(0, start_ring - 1), std::min(kRings - 1, start_ring + 1));
}
}  // namespace

bool ConcentricFit::refine_from(const Frame& frame, cv::Matx33d& h, double polarity, FitQuality& q, int start_ring) {
    q = FitQuality{};
    const double contrast0 = start_contrast(frame, h, start_ring);
    if (polarity != 0 && contrast0 * polarity <= 0) return false;
    if (std::abs(contrast0) < kMinRingContrast) return false;
    if (!ring_by_ring(frame, h, contrast0, start_ring)) return false;
    solve(h, q);
    for (int iter = 0; iter < kOuterIterations; ++iter) {
        const double contrast = ring_contrast(frame, h);
        q.contrast = contrast;
        if (std::abs(contrast) < kMinRingContrast) return false;
        find_strokes(frame, h, contrast, q);
        if (observations_.size() < 40) return false;
        solve(h, q);
        if (q.points < 30) return false;
    }
    return q.rms < 6.0;
}

bool ConcentricFit::refine(const Frame& frame, cv::Matx33d& h, double polarity, FitQuality& q) {
    if (polarity == 0) return refine_from(frame, h, polarity, q, kMiddleRing);
    // Measured on a guess that may sit between rings: trust the rough fit's sign.
    const double magnitude = std::max(std::abs(ring_contrast(frame, h)), 12.0);
    const CodeGeometry& g = CodeGeometry::get();
    // The rough ellipse's size and flattening (h maps the middle ring's circle onto it): on a
    // large, flattened one each ring assignment is fitted from the ring the rough fit traced.
    const double axis_a = std::hypot(h(0, 0), h(1, 0)), axis_b = std::hypot(h(0, 1), h(1, 1));
    const double traced_major_px = 2 * g.rings[kMiddleRing].radius * std::max(axis_a, axis_b);
    const bool rings_parted = traced_major_px >= kPartedRingsMinMajorPx &&
                              std::min(axis_a, axis_b) <= kPartedRingsMaxAxisRatio * std::max(axis_a, axis_b);
    auto start_ring = [&](int shift) { return rings_parted ? kMiddleRing + shift : kMiddleRing; };
    // Every fit below starts from one of the five ring assignments and gives up at once
    // when the rings' contrast there is weak or of the other sign (refine_from): when no
    // assignment passes that, nothing can, and identifying the ring (~700 stroke searches,
    // most of a texture candidate's fit) is skipped.
    bool any_passes = false;
    for (int shift = -2; shift <= 2 && !any_passes; ++shift) {
        const double factor = shift_scale(shift);
        const double contrast = start_contrast(frame, h * scaling(factor), start_ring(shift));
        any_passes = contrast * polarity > 0 && std::abs(contrast) >= kMinRingContrast;
    }
    if (!any_passes) return false;
    int shifts[2];
    const int count = identify_ring(frame, h, polarity, magnitude, shifts);
    // Under strong perspective two ring assignments can look alike from the affine
    // guess: fit both and keep the one whose rings agree best.
    bool found = false;
    double best_merit = -1;
    cv::Matx33d best_h;
    FitQuality best_q;
    // Fits `base` scaled by `factor` with `sign` from ring `first`; kept (true) when its rings
    // agree best so far.
    auto try_scaled = [&](const cv::Matx33d& base, double factor, double sign, int first) {
        cv::Matx33d trial = base * scaling(factor);
        FitQuality trial_q;
        if (!refine_from(frame, trial, sign, trial_q, first)) return false;
        const double merit = trial_q.points / (1.0 + trial_q.rms);
        ACC_TRACE("  scaled %.3f polarity %.0f: points %d rms %.2f merit %.1f (best %.1f)\n", factor, sign,
                  trial_q.points, trial_q.rms, merit, best_merit);
        if (merit <= best_merit) return false;
        best_merit = merit, best_h = trial, best_q = trial_q, found = true;
        return true;
    };
    int best_shift = 0;
    for (int i = 0; i < count; ++i)
        if (try_scaled(h, shift_scale(shifts[i]), polarity, start_ring(shifts[i]))) best_shift = shifts[i];
    if (!found) return false;
    // A poor fit on parted rings whose outermost (innermost) ring found no stroke: the traced
    // ring named one further out (in), unless identify_ring's choice already tried it.
    if (rings_parted && best_q.rms >= kPoorFitRms) {
        int next = best_shift;
        if (best_q.coverage[kRings - 1] == 0) next = best_shift + 1;   // ring 5 empty: named one too far in
        else if (best_q.coverage[0] == 0) next = best_shift - 1;       // ring 1 empty: one too far out
        const bool tried = std::any_of(shifts, shifts + count, [&](int s) { return s == next; });
        if (next != best_shift && std::abs(next) <= 2 && !tried) {
            ACC_TRACE("  poor fit with an empty outer ring: the traced ring as ring %d\n", kMiddleRing + next + 1);
            try_scaled(h, shift_scale(next), polarity, start_ring(next));
        }
    }
    // Strokes and the bands between them are equally wide: a fit of the other polarity can
    // lock onto the bands, half a ring spacing out or in (the plane 1.08 or 0.92 times too
    // large). Each is tried with the polarity turned, and the better-fitting plane kept.
    const cv::Matx33d found_h = best_h;
    const double flipped = best_q.contrast > 0 ? -1.0 : 1.0;
    for (double half : {-0.5, 0.5}) {
        // The scale that moves the rings by `half` a spacing, least squares over the five.
        double num = 0, den = 0;
        for (int k = 0; k < kRings; ++k) {
            num += g.rings[k].radius * (g.rings[k].radius + half * g.ring_spacing);
            den += g.rings[k].radius * g.rings[k].radius;
        }
        try_scaled(found_h, num / den, flipped, kMiddleRing);
    }
    h = best_h;
    q = best_q;
    return true;
}

}  // namespace appclip::vision
