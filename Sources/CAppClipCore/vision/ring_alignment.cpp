#include "ring_alignment.hpp"

#include <algorithm>
#include <cmath>

#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "homography.hpp"
#include "small_solve.hpp"

namespace appclip::vision {
namespace {

constexpr int kGridAngles = 96;
// From inside ring 1 (plain background down to the logo's disc) to just inside the rim:
// the plain bands at both ends tell the rings apart from their neighbours.
constexpr double kInnerRadius = 132, kOuterRadius = 394, kRadialStep = 4;
constexpr int kCoarseSteps = 4, kFineSteps = 4;
constexpr double kHuberSigmas = 2.0;
constexpr double kMinT = 12.0;           // contrast / its standard error, for rings to be there
constexpr double kMaxScaleChange = 0.4;  // relative, from the starting plane
constexpr double kMaxShift = 60;         // code units the centre may move
// The shift search: every kSearchStride-th grid point, up to kSearchSteps grid steps of
// kSearchStep ring spacings each way (and at least kSearchReach pixels when that allows).
constexpr int kSearchStride = 4;
constexpr int kSearchSteps = 8;
constexpr double kSearchStep = 0.4;
constexpr double kSearchReach = 5.0;
// initial_plane, in ring spacings at the smallest rim tried: profile radii an eighth apart
// (at least kMinProfileStep pixels), each the mean over kProfileAngles directions; centres
// on a grid of kCentreStep (at least 1 px) within kCentreSteps steps of the candidate's;
// rim radii in steps of kRimRatio (3 % missed peaks: at 1.5 % off, ring 5 sits half a
// stroke away).
constexpr double kProfileStepSpacings = 0.125, kMinProfileStep = 0.5;
constexpr double kCentreStep = 0.3;
constexpr int kCentreSteps = 3;
constexpr double kRimRatio = 1.01;
// Finer centres look again at kRefineRims radii either side of the best one.
constexpr size_t kRefineRims = 3;
constexpr double kMinRingSpacingPx = 2.0;

double gauss(double d, double sigma) {
    return std::exp(-0.5 * d * d / (sigma * sigma)) / (sigma * 2.5066282746310002);
}

// The ring template at code radius `rho`: strokes of the drawing's width blurred by
// `sigma`, 1 on a stroke's centre line, 0 between rings; and its derivative.
void ring_template(double rho, double sigma, double& value, double& slope) {
    const CodeGeometry& g = CodeGeometry::get();
    const double w = g.half_stroke, k = 1.0 / (std::sqrt(2.0) * sigma);
    value = slope = 0;
    for (const Ring& ring : g.rings) {
        const double d = rho - ring.radius;
        if (std::abs(d) > w + 5 * sigma) continue;
        value += 0.5 * (std::erf((d + w) * k) - std::erf((d - w) * k));
        slope += gauss(d + w, sigma) - gauss(d - w, sigma);
    }
}

// A radial trend (vignetting, the blurred rim's edge) that must not pass for ring contrast.
double trend(double rho) { return (rho - 263) / 131; }

// The band the rings occupy, blurred like them: what is left of the rings when blur has
// merged them. A nuisance term, so only the rings' own modulation counts as contrast.
double ring_zone(double rho, double sigma) {
    const CodeGeometry& g = CodeGeometry::get();
    const double k = 1.0 / (std::sqrt(2.0) * sigma);
    const double inner = g.rings[0].radius - g.half_stroke, outer = g.rings[kRings - 1].radius + g.half_stroke;
    return 0.5 * (std::erf((rho - inner) * k) - std::erf((rho - outer) * k));
}

// Template blur (code units) near the optics' own, for a plane of `px_per_unit`; and the
// coarse one whose basin is wider.
double fine_blur(double px_per_unit) { return std::max(7.0, 0.7 / px_per_unit); }
double coarse_blur(double px_per_unit) { return std::max(14.0, 1.5 / px_per_unit); }

// Least squares of luma on (1, template, trend, zone), weighted: the template's coefficient
// is the rings' contrast, its t statistic how surely they are there.
struct TemplateFit {
    cv::Matx44d normal = cv::Matx44d::zeros();
    cv::Vec4d rhs = cv::Vec4d(0, 0, 0, 0);
    cv::Matx44d inverse;
    cv::Vec4d coef;

    void add(const double row[4], double luma, double weight) {
        for (int a = 0; a < 4; ++a) {
            rhs[a] += weight * row[a] * luma;
            for (int b = 0; b < 4; ++b) normal(a, b) += weight * row[a] * row[b];
        }
    }
    bool solve() {
        if (cv::invert(normal, inverse, cv::DECOMP_CHOLESKY) == 0) return false;
        coef = inverse * rhs;
        return true;
    }
    // From the weighted sum of squared residuals of the solved fit.
    double t_stat(double residual_sq) const {
        const double variance = residual_sq / std::max(1.0, normal(0, 0) - 4);
        return coef[1] / std::sqrt(std::max(1e-12, variance * inverse(1, 1)));
    }
};

// How surely rings of the expected polarity are there (either polarity when it is 0).
double signed_t(const AlignmentQuality& q, double polarity) {
    return polarity > 0 ? q.t_stat : polarity < 0 ? -q.t_stat : std::abs(q.t_stat);
}

}  // namespace

RingAlignment::RadiusTerms RingAlignment::terms_at(double rho, double sigma) {
    double t, dt;
    ring_template(rho, sigma, t, dt);
    return {static_cast<float>(t), static_cast<float>(dt), static_cast<float>(ring_zone(rho, sigma)), trend(rho)};
}

void RingAlignment::sample(const Frame& frame, const cv::Matx33d& h, double sigma, int stride) {
    // The template depends on the radius and the blur alone: once per grid radius, again
    // only when the blur changes (the shift search and step trials sample many planes).
    if (sigma != terms_sigma_) {
        for (size_t i = 0; i < radius_terms_.size(); ++i)
            radius_terms_[i] = terms_at(kInnerRadius + static_cast<double>(i) * kRadialStep, sigma);
        terms_sigma_ = sigma;
    }
    for (size_t j = 0; j < grid_.size(); j += stride) {
        const cv::Point2d y = apply(h, grid_[j].x, grid_[j].y);
        values_[j] = frame.luma_at(y.x, y.y);
    }
}

double RingAlignment::fit(AlignmentQuality& q, int stride) {
    // luma = a + b·template + c·trend + d·zone by weighted least squares, on the last sample.
    const int n = static_cast<int>(grid_.size());
    TemplateFit lsq;
    int used = 0;
    for (int j = 0; j < n; j += stride) {
        if (values_[j] < 0) continue;
        const RadiusTerms& r = radius_terms_[j / kGridAngles];
        const double row[4] = {1, r.value, r.trend, r.zone};
        lsq.add(row, values_[j], weights_[j]);
        ++used;
    }
    q.samples = used;
    if (used < n / stride / 3 || !lsq.solve()) return -1;
    const cv::Vec4d& coef = lsq.coef;
    double sum_sq = 0;
    for (int j = 0; j < n; j += stride) {
        if (values_[j] < 0) continue;
        const RadiusTerms& r = radius_terms_[j / kGridAngles];
        const double residual = values_[j] - coef[0] - coef[1] * r.value - coef[2] * r.trend - coef[3] * r.zone;
        residuals_[j] = static_cast<float>(residual);
        sum_sq += weights_[j] * residual * residual;
    }
    q.contrast = coef[1];
    q.t_stat = lsq.t_stat(sum_sq);
    return sum_sq;
}

void RingAlignment::reweight() {
    // Huber weights from the current residuals: gaps between arcs and clutter count less.
    double sum_sq = 0;
    int used = 0;
    for (size_t j = 0; j < values_.size(); ++j)
        if (values_[j] >= 0) sum_sq += residuals_[j] * residuals_[j], ++used;
    const double spread = std::sqrt(sum_sq / std::max(1, used));
    for (size_t j = 0; j < values_.size(); ++j) {
        const double r = std::abs(residuals_[j]);
        weights_[j] = static_cast<float>(values_[j] < 0 || r < kHuberSigmas * spread ? 1.0 : kHuberSigmas * spread / r);
    }
}

bool RingAlignment::step(const Frame& frame, cv::Matx33d& h, double sigma, AlignmentQuality& q) {
    // Image points stay fixed during a step; the correction M(p) moves the code plane under
    // them, so each point's code radius becomes |M(p)^-1 X| ≈ |X| − X·(∂M/∂p X)/|X|. The
    // model luma a + b·T(radius) + c·trend + d·zone is then linear in (a, b, b·p, c, d): one
    // weighted least-squares solve. The step is kept only when it lowers the cost (halved up
    // to twice): noise makes the linear model a poor guide far from the optimum.
    // On entry the grid holds `h`'s samples (from `align` or the last accepted step).
    if (fit(q) < 0) return false;
    reweight();
    const double before = fit(q);
    if (before < 0) return false;
    cv::Matx<double, 11, 11> normal = cv::Matx<double, 11, 11>::zeros();
    cv::Matx<double, 11, 1> rhs = cv::Matx<double, 11, 1>::zeros();
    const int n = static_cast<int>(grid_.size());
    double row[11];
    for (int j = 0; j < n; ++j) {
        if (values_[j] < 0) continue;
        const RadiusTerms& r = radius_terms_[j / kGridAngles];
        const double x = grid_[j].x, y = grid_[j].y, rho = kInnerRadius + (j / kGridAngles) * kRadialStep;
        // ∂M/∂p_k applied to X, one column per parameter (see correction()).
        const double dx[7] = {x, y, 400, 0, 0, -x * x / 400, -x * y / 400};
        const double dy[7] = {0, x, 0, y, 400, -y * x / 400, -y * y / 400};
        row[0] = 1;
        row[1] = r.value;
        for (int k = 0; k < 7; ++k) row[2 + k] = -r.slope * (x * dx[k] + y * dy[k]) / rho;
        row[9] = r.trend;
        row[10] = r.zone;
        const double w = weights_[j];
        for (int a = 0; a < 11; ++a) {
            rhs(a) += w * row[a] * values_[j];
            for (int b = a; b < 11; ++b) normal(a, b) += w * row[a] * row[b];
        }
    }
    for (int a = 0; a < 11; ++a)
        for (int b = 0; b < a; ++b) normal(a, b) = normal(b, a);
    for (int a = 0; a < 11; ++a) normal(a, a) += 1e-9 + 1e-9 * normal(a, a);
    cv::Matx<double, 11, 1> solution;
    if (!solve_cholesky(normal, rhs, solution)) return false;
    const double b0 = solution(1);
    if (!std::isfinite(b0) || std::abs(b0) < 1e-6) return false;
    double p[7];
    for (int k = 0; k < 7; ++k) p[k] = std::clamp(solution(2 + k) / b0, -0.08, 0.08);
    for (int attempt = 0; attempt < 3; ++attempt) {
        const cv::Matx33d trial = h * correction(p);
        AlignmentQuality tq;
        sample(frame, trial, sigma);
        const double after = fit(tq);
        if (after >= 0 && after < before) {
            h = trial;
            q = tq;
            return true;
        }
        for (double& v : p) v *= 0.5;
    }
    sample(frame, h, sigma);  // back to the plane kept, and its quality
    fit(q);
    return false;
}

bool RingAlignment::radial_profile(const Frame& frame, cv::Point2d centre, const cv::Vec2d* steps, int count) {
    for (int i = 0; i < count; ++i) {
        double sum = 0;
        int n = 0;
        for (int a = 0; a < kProfileAngles; ++a) {
            const cv::Vec2d& d = steps[(i % 2) * kProfileAngles + a];
            const float v = frame.luma_at(centre.x + i * d[0], centre.y + i * d[1]);
            if (v >= 0) sum += v, ++n;
        }
        if (n < kProfileAngles / 2) return false;
        radial_[i] = static_cast<float>(sum / n);
    }
    return true;
}

void RingAlignment::prepare_rims(double r_lo, double r_hi) {
    // At each rim radius R the profile over the rings' span is fitted like the alignment's
    // grid (template, constant, radial trend, blurred ring band). The terms depend on R
    // alone: worked out once here for every centre tried.
    const int count = static_cast<int>(radial_.size());
    rims_.clear();
    rim_rows_.clear();
    for (double r = r_lo; r <= r_hi; r *= kRimRatio) {
        const double units_per_px = 400.0 / r;
        RimScale rim;
        rim.radius = r;
        rim.i0 = static_cast<int>(std::ceil(kInnerRadius / units_per_px / profile_step_));
        rim.i1 = std::min(count - 1, static_cast<int>(kOuterRadius / units_per_px / profile_step_));
        if (rim.i1 - rim.i0 < 12) continue;
        rim.first_row = static_cast<int>(rim_rows_.size());
        const double sigma = fine_blur(r / 400.0);
        TemplateFit fit;
        for (int i = rim.i0; i <= rim.i1; ++i) {
            const RadiusTerms terms = terms_at(i * profile_step_ * units_per_px, sigma);
            const double row[4] = {1, terms.value, terms.trend, terms.zone};
            fit.add(row, 0.0, 1.0);
            rim_rows_.emplace_back(row[0], row[1], row[2], row[3]);
        }
        if (!fit.solve()) {
            rim_rows_.resize(rim.first_row);
            continue;
        }
        rim.normal = fit.normal;
        rim.inverse = fit.inverse;
        rims_.push_back(rim);
    }
}

double RingAlignment::best_rim(size_t first, size_t last, size_t& best_index) const {
    // The template's t statistic says how surely rings of that size are there, with the
    // code's and a card's edges absorbed by the nuisance terms.
    double best = 0;
    for (size_t k = first; k < last; ++k) {
        TemplateFit lsq;
        lsq.normal = rims_[k].normal;
        lsq.inverse = rims_[k].inverse;
        double luma_sq = 0;
        for (int i = rims_[k].i0; i <= rims_[k].i1; ++i) {
            const double luma = radial_[i];
            lsq.rhs += luma * rim_rows_[rims_[k].first_row + i - rims_[k].i0];
            luma_sq += luma * luma;
        }
        lsq.coef = lsq.inverse * lsq.rhs;
        const double score = std::abs(lsq.t_stat(std::max(1e-9, luma_sq - lsq.coef.dot(lsq.rhs))));
        if (score > best) best = score, best_index = k;
    }
    return best;
}

bool RingAlignment::initial_plane(const Frame& frame, cv::Point2d centre, double d_lo, double d_hi,
                                  const cv::Matx22d& shape, cv::Matx33d& h) {
    // Rings closer than ~2 px blur into one band (their modulation is a few % of the code's
    // contrast), and the template fitted there matches the logo disc's and ring 1's edges of a
    // code twice the size instead: no plane is started below that size.
    const double spacing_units = CodeGeometry::get().ring_spacing;
    const double r_min = std::max(0.5 * d_lo, kMinRingSpacingPx * 400.0 / spacing_units);
    if (r_min > 0.5 * d_hi) return false;
    // Steps follow the smallest rings looked for, so a large candidate costs no more.
    const double spacing_px = spacing_units * r_min / 400.0;
    profile_step_ = std::max(kMinProfileStep, kProfileStepSpacings * spacing_px);
    const double centre_step = std::max(1.0, kCentreStep * spacing_px);
    const int count = static_cast<int>(0.5 * d_hi / profile_step_) + 2;
    radial_.assign(count, 0.f);
    // Steps along the outline's shape; odd radii take the angles half a step on.
    cv::Vec2d steps[2 * kProfileAngles];
    for (int parity = 0; parity < 2; ++parity)
        for (int a = 0; a < kProfileAngles; ++a) {
            const double angle = (a + 0.5 * parity) * 2 * kPi / kProfileAngles;
            steps[parity * kProfileAngles + a] =
                shape * cv::Vec2d(profile_step_ * std::cos(angle), profile_step_ * std::sin(angle));
        }
    // A centre one ring spacing off (3 px on a 55 px code: a vote peak's or a noisy
    // outline's error) smears the rings out of the mean profile, and a half-size scale wins.
    // So the centre is searched too: a coarse grid, then finer grids around the best centre.
    prepare_rims(r_min, 0.5 * d_hi);
    if (rims_.empty()) return false;
    double best = 0;
    size_t best_rim_index = rims_.size();
    cv::Point2d best_c = centre;
    auto try_centre = [&](cv::Point2d c, size_t first, size_t last) {
        if (!radial_profile(frame, c, steps, count)) return;
        size_t k = rims_.size();
        const double t = best_rim(first, last, k);
        if (t > best) best = t, best_rim_index = k, best_c = c;
    };
    for (int iy = -kCentreSteps; iy <= kCentreSteps; ++iy)
        for (int ix = -kCentreSteps; ix <= kCentreSteps; ++ix)
            try_centre(centre + cv::Point2d(ix * centre_step, iy * centre_step), 0, rims_.size());
    if (best_rim_index >= rims_.size()) return false;
    for (double step = 0.5 * centre_step; step >= 0.2 * centre_step; step *= 0.5) {
        const cv::Point2d around = best_c;
        const size_t first = best_rim_index >= kRefineRims ? best_rim_index - kRefineRims : 0;
        const size_t last = std::min(rims_.size(), best_rim_index + kRefineRims + 1);
        best = 0;
        for (int iy = -1; iy <= 1; ++iy)
            for (int ix = -1; ix <= 1; ++ix) try_centre(around + cv::Point2d(ix * step, iy * step), first, last);
    }
    const double best_r = rims_[best_rim_index].radius;
    const double k = best_r / 400.0;
    h = cv::Matx33d(k * shape(0, 0), k * shape(0, 1), best_c.x, k * shape(1, 0), k * shape(1, 1), best_c.y, 0, 0, 1);
    ACC_TRACE("  initial plane: centre %.1f,%.1f rim %.1f px, profile fit t %.1f\n", best_c.x, best_c.y, best_r, best);
    return true;
}

void RingAlignment::search_shift(const Frame& frame, cv::Matx33d& h, double sigma, double polarity) {
    const double scale = local_scale(h, 0, 0);
    const double step = std::max(0.3, kSearchStep * CodeGeometry::get().ring_spacing * scale);
    const int steps = std::min(kSearchSteps, static_cast<int>(std::ceil(kSearchReach / step)));
    double best = -1e300;
    cv::Matx33d best_h = h;
    for (int iy = -steps; iy <= steps; ++iy)
        for (int ix = -steps; ix <= steps; ++ix) {
            const cv::Matx33d shifted = translation(ix * step, iy * step) * h;
            AlignmentQuality q;
            sample(frame, shifted, sigma, kSearchStride);
            if (fit(q, kSearchStride) < 0) continue;
            if (signed_t(q, polarity) > best) best = signed_t(q, polarity), best_h = shifted;
        }
    h = best_h;
}

bool RingAlignment::align(const Frame& frame, cv::Matx33d& h, AlignmentQuality& q, bool search, double polarity) {
    if (grid_.empty()) {
        const int radii = static_cast<int>((kOuterRadius - kInnerRadius) / kRadialStep) + 1;
        radius_terms_.resize(radii);
        for (int r = 0; r < radii; ++r)
            for (int i = 0; i < kGridAngles; ++i) {
                // Staggered per radius so the samples do not line up along spokes.
                const double rho = kInnerRadius + r * kRadialStep;
                const double a = (i + 0.5 * (r % 2)) * 2 * kPi / kGridAngles;
                grid_.emplace_back(rho * std::cos(a), rho * std::sin(a));
            }
    }
    weights_.assign(grid_.size(), 1.f);
    values_.resize(grid_.size());
    residuals_.resize(grid_.size());
    q = AlignmentQuality{};
    const double scale0 = local_scale(h, 0, 0);
    const cv::Point2d centre0 = apply(h, 0, 0);
    if (!(scale0 > 0)) return false;
    if (search) search_shift(frame, h, fine_blur(scale0), polarity);
    // Coarse blur first (wide basin), then fine; after a shift search the plane is already
    // within the fine template's reach.
    for (int stage = search ? 1 : 0; stage < 2; ++stage) {
        const bool coarse = stage == 0;
        for (int s = 0; s < (coarse ? kCoarseSteps : kFineSteps); ++s) {
            const double scale = local_scale(h, 0, 0);
            const double sigma = coarse ? coarse_blur(scale) : fine_blur(scale);
            sample(frame, h, sigma);
            if (!step(frame, h, sigma, q)) {
                if (q.samples == 0) return false;
                break;  // converged at this blur
            }
            const double change = local_scale(h, 0, 0) / scale0;
            const cv::Point2d c = apply(h, 0, 0);
            if (std::abs(change - 1) > kMaxScaleChange || std::hypot(c.x - centre0.x, c.y - centre0.y) > kMaxShift * scale0)
                return false;
            ACC_TRACE("  align: sigma %.1f contrast %.1f t %.1f samples %d\n", sigma, q.contrast, q.t_stat, q.samples);
        }
    }
    return signed_t(q, polarity) >= kMinT;
}

}  // namespace appclip::vision
