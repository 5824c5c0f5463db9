#include "drawing_fit.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <opencv2/imgproc.hpp>

#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "homography.hpp"

namespace appclip::vision {
namespace {

// Piece indices: each position's stroke, the gap zone at each position's start, then the
// pieces the bits do not decide.
constexpr int kGapZone = ACC_RING_POSITIONS;
constexpr int kLogo = 2 * ACC_RING_POSITIONS;
constexpr int kOutside = kLogo + 1;
constexpr int kBackground = kLogo + 2;  // then the background's gradient along x and along y
constexpr int kPieces = kBackground + 3;
// Inside the logo's disc the drawing is one unknown colour; pixels near it are left out of
// the fit, as are those at the rim (whatever lies outside the disc blurs into them).
constexpr double kObservedInner = 125, kObservedOuter = 392;
// The fit's pixels span at most this (times 1.1) across the disc. Larger codes are fitted on
// bins of several pixels: the fit's cost grows with its pixel count, and a code that large
// still needs the fit when it is steeply tilted (its strokes thin across the minor axis),
// blurred or partly covered.
constexpr double kMaxDiameterPx = 260;
constexpr double kBlurs[] = {0.4, 0.6, 0.9, 1.25, 1.7, 2.3};
static_assert(sizeof kBlurs / sizeof kBlurs[0] == DrawingFit::kBlurSteps);
constexpr double kMaxBlur = 2.3;
constexpr double kKernelReach = 3.0;  // sigmas
constexpr float kNegligible = 1e-4f;

// Zeroes a matrix made by create() (continuous). Mat::setTo allocates on every call.
void clear(cv::Mat1d& m) {
    CV_DbgAssert(m.isContinuous());
    std::fill_n(m.ptr<double>(), m.total(), 0.0);
}

// Which piece of the drawing a centred code-plane point lies in.
int piece_at(double x, double y) {
    const CodeGeometry& g = CodeGeometry::get();
    const double r = std::sqrt(x * x + y * y);
    if (r >= g.disc_radius) return kOutside;
    if (r < kLogoDiscRadius) return kLogo;
    for (const Ring& ring : g.rings) {
        const double across = r - ring.radius;
        if (std::abs(across) > g.half_stroke) continue;
        const double pitch = 360.0 / ring.positions;
        double rel = std::atan2(y, x) / kDeg - ring.rotation_deg;
        rel -= 360.0 * std::floor(rel / 360.0);
        const int p = std::min(static_cast<int>(rel / pitch), ring.positions - 1);
        const double off = rel - p * pitch;
        // The nearest position start, and the distance along the centre line from it.
        const bool next = off > 0.5 * pitch;
        const int start = next ? (p + 1) % ring.positions : p;
        const double along = (next ? off - pitch : off) * kDeg * ring.radius;
        const double half_gap = ring.half_gap_deg * kDeg * ring.radius;
        if (std::abs(along) >= half_gap) return ring.first_bit + p;
        // In the gap zone the round caps of the strokes on either side are theirs whatever the bits.
        const double cap2 = g.half_stroke * g.half_stroke, across2 = across * across;
        if ((along + half_gap) * (along + half_gap) + across2 <= cap2)
            return ring.first_bit + (start + ring.positions - 1) % ring.positions;
        if ((along - half_gap) * (along - half_gap) + across2 <= cap2) return ring.first_bit + start;
        return kGapZone + ring.first_bit + start;
    }
    return kBackground;
}

// Groups `in` by key (a counting sort that keeps the order within a key): `start[k]` ..
// `start[k + 1]` index key k's entries in `out`.
template <typename Entry, typename Key>
void group_by(const std::vector<Entry>& in, int keys, Key key, std::vector<int>& start, std::vector<int>& fill,
              std::vector<Entry>& out) {
    start.assign(keys + 1, 0);
    for (const Entry& e : in) ++start[key(e) + 1];
    for (int k = 0; k < keys; ++k) start[k + 1] += start[k];
    fill.assign(start.begin(), start.end() - 1);
    out.resize(in.size());
    for (const Entry& e : in) out[fill[key(e)]++] = e;
}

// The pieces the bits decide sorted by the angle of their middle, folded (θ and 360° − θ
// side by side) so that pieces either side of 0° are near in the order too; the pieces
// every pixel may see (logo, outside, background) last.
void angular_order(std::vector<int>& order) {
    std::vector<std::pair<double, int>> keyed;
    for (const Ring& ring : CodeGeometry::get().rings) {
        const double pitch = 360.0 / ring.positions;
        auto folded = [](double deg) {
            deg -= 360.0 * std::floor(deg / 360.0);
            return deg <= 180.0 ? deg : 360.0 - deg;
        };
        for (int p = 0; p < ring.positions; ++p) {
            keyed.emplace_back(folded(ring.rotation_deg + (p + 0.5) * pitch), ring.first_bit + p);
            keyed.emplace_back(folded(ring.rotation_deg + p * pitch), kGapZone + ring.first_bit + p);
        }
    }
    std::sort(keyed.begin(), keyed.end());
    order.clear();
    for (const auto& k : keyed) order.push_back(k.second);
    for (int piece = kLogo; piece < kPieces; ++piece) order.push_back(piece);
}

}  // namespace

void DrawingFit::corner_row(const cv::Matx33d& inv, int x0, int y, int width, std::vector<Corner>& out) {
    out.resize(static_cast<size_t>(width) + 1);
    for (int i = 0; i <= width; ++i) {
        const double x = x0 + i - 0.5, ym = y - 0.5;
        out[i].point = apply(inv, x, ym);
        out[i].w = inv(2, 0) * x + inv(2, 1) * ym + inv(2, 2);
    }
}

int DrawingFit::sole_piece(const cv::Point2d& c, double r, int rx) const {
    const Corner* corners[4] = {&corners_above_[rx], &corners_above_[rx + 1], &corners_below_[rx],
                                &corners_below_[rx + 1]};
    // With the plane's horizon off the pixel (one sign of w at its corners) the pixel maps to
    // the convex hull of its corners, so no sample lies farther from c than the farthest corner.
    double reach2 = 0;
    const bool positive = corners[0]->w > 0;
    for (const Corner* k : corners) {
        if (!(std::abs(k->w) > 1e-9) || (k->w > 0) != positive) return -1;
        const cv::Point2d d = k->point - c;
        reach2 = std::max(reach2, d.x * d.x + d.y * d.y);
    }
    const double reach = std::sqrt(reach2), slack = 1e-6 * (1 + r);
    const CodeGeometry& g = CodeGeometry::get();
    if (r - reach > g.disc_radius + slack) return kOutside;
    if (r + reach < kLogoDiscRadius - slack) return kLogo;
    // Wholly inside a ring's stroke band and away from its gap zones: one position's stroke
    // (piece_at's answer wherever a sample's distance along the centre line to every
    // position start is at least the half gap).
    if (reach > 0.25 * r) return -1;
    for (const Ring& ring : g.rings) {
        if (std::abs(r - ring.radius) + reach > g.half_stroke - slack) continue;
        const double pitch = 360.0 / ring.positions;
        double rel = std::atan2(c.y, c.x) / kDeg - ring.rotation_deg;
        rel -= 360.0 * std::floor(rel / 360.0);
        const int p = std::min(static_cast<int>(rel / pitch), ring.positions - 1);
        const double off = rel - p * pitch;
        // The samples' angles lie within asin(reach / r) <= reach / (r - reach) of c's.
        const double start_distance = std::min(off, pitch - off) * kDeg * ring.radius;
        const double turn = ring.radius * reach / (r - reach);
        const double half_gap = ring.half_gap_deg * kDeg * ring.radius;
        return start_distance - turn > half_gap + slack ? ring.first_bit + p : -1;
    }
    return -1;
}

cv::Rect2d DrawingFit::disc_box(const cv::Matx33d& h) {
    const CodeGeometry& g = CodeGeometry::get();
    double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
    for (int i = 0; i < 64; ++i) {
        const double a = i * (2 * kPi / 64);
        const cv::Point2d p = apply(h, g.disc_radius * std::cos(a), g.disc_radius * std::sin(a));
        x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    }
    return {x0, y0, x1 - x0, y1 - y0};
}

int DrawingFit::bin_size(const cv::Matx33d& oriented) {
    const cv::Rect2d disc = disc_box(oriented);
    int bin = 1;
    while (bin < kMaxBins && std::max(disc.width, disc.height) >= kMaxDiameterPx * 1.1 * bin) ++bin;
    return bin;
}

bool DrawingFit::binned_colour(const Frame& frame, int x, int y, cv::Vec3f& out) const {
    if (bin_ == 1) return frame.rgb_at(x, y, out);
    cv::Vec3f sum(0, 0, 0), one;
    for (int j = 0; j < bin_; ++j)
        for (int i = 0; i < bin_; ++i) {
            if (!frame.rgb_at(x * bin_ + i, y * bin_ + j, one)) return false;
            sum += one;
        }
    out = sum * (1.f / static_cast<float>(bin_ * bin_));
    return true;
}

bool DrawingFit::cover(const Frame& frame, const cv::Matx33d& h, int ss) {
    const CodeGeometry& g = CodeGeometry::get();
    const int margin = static_cast<int>(std::ceil(kKernelReach * kMaxBlur / bin_)) + 1;
    const cv::Rect2d disc = disc_box(h);
    const double x0 = disc.x, y0 = disc.y, x1 = disc.x + disc.width, y1 = disc.y + disc.height;
    if (!(x1 - x0 < kMaxDiameterPx * 1.1 && y1 - y0 < kMaxDiameterPx * 1.1)) return false;
    roi_ = cv::Rect(static_cast<int>(std::floor(x0)) - margin, static_cast<int>(std::floor(y0)) - margin,
                    static_cast<int>(x1 - x0) + 2 * margin + 2, static_cast<int>(y1 - y0) + 2 * margin + 2);
    const cv::Matx33d inv = h.inv();
    observed_.assign(static_cast<size_t>(roi_.area()), -1);
    values_.clear();
    covers_.clear();
    piece_box_.assign(kPieces, cv::Rect());
    seen_.assign(kPieces, 0.f);
    const float unit = 1.f / static_cast<float>(ss * ss);
    // A pixel all of whose samples land in one piece gets the samples' sum, added as below.
    float whole = unit;
    for (int k = 1; k < ss * ss; ++k) whole += unit;
    constexpr int kMaxLocal = 12;
    int local_piece[kMaxLocal];
    float local_weight[kMaxLocal];
    // apply(inv, X, Y) at the samples, its products with X once per sample column and with
    // Y once per sample row (the same products, summed in apply's order).
    const auto offset = [ss](int v, int s) { return v + (s + 0.5) / ss - 0.5; };
    column_terms_.resize(static_cast<size_t>(roi_.width) * ss * 3);
    for (int rx = 0; rx < roi_.width; ++rx)
        for (int sx = 0; sx < ss; ++sx) {
            const double sample_x = offset(roi_.x + rx, sx);
            double* t = column_terms_.data() + (static_cast<size_t>(rx) * ss + sx) * 3;
            t[0] = inv(0, 0) * sample_x, t[1] = inv(1, 0) * sample_x, t[2] = inv(2, 0) * sample_x;
        }
    constexpr int kMaxSamples = 4;   // per side (measure asks for 2 to 4)
    double row_terms[kMaxSamples][3];
    corner_row(inv, roi_.x, roi_.y, roi_.width, corners_below_);
    for (int ry = 0; ry < roi_.height; ++ry) {
        corners_above_.swap(corners_below_);
        corner_row(inv, roi_.x, roi_.y + ry + 1, roi_.width, corners_below_);
        for (int sy = 0; sy < ss; ++sy) {
            const double sample_y = offset(roi_.y + ry, sy);
            row_terms[sy][0] = inv(0, 1) * sample_y, row_terms[sy][1] = inv(1, 1) * sample_y;
            row_terms[sy][2] = inv(2, 1) * sample_y;
        }
        for (int rx = 0; rx < roi_.width; ++rx) {
            const int x = roi_.x + rx, y = roi_.y + ry, index = ry * roi_.width + rx;
            const cv::Point2d c = apply(inv, x, y);
            const double r = std::sqrt(c.x * c.x + c.y * c.y);
            cv::Vec3f colour;
            const bool observed = r >= kObservedInner && r <= kObservedOuter && binned_colour(frame, x, y, colour);
            if (observed) {
                observed_[index] = static_cast<int>(values_.size());
                values_.push_back(colour);
            }
            const int sole = sole_piece(c, r, rx);
            if (sole >= 0) {
                covers_.push_back({index, sole, whole});
                piece_box_[sole] |= cv::Rect(rx, ry, 1, 1);
                if (observed) seen_[sole] += whole;
                continue;
            }
            int n = 0;
            auto add = [&](int piece, float w) {
                for (int k = 0; k < n; ++k)
                    if (local_piece[k] == piece) {
                        local_weight[k] += w;
                        return;
                    }
                if (n < kMaxLocal) local_piece[n] = piece, local_weight[n++] = w;
            };
            const double* columns = column_terms_.data() + static_cast<size_t>(rx) * ss * 3;
            for (int sy = 0; sy < ss; ++sy)
                for (int sx = 0; sx < ss; ++sx) {
                    const double* t = columns + sx * 3;
                    const double* u = row_terms[sy];
                    const double w = t[2] + u[2] + inv(2, 2);
                    const double iw = std::abs(w) > 1e-12 ? 1.0 / w : 0.0;
                    const cv::Point2d q((t[0] + u[0] + inv(0, 2)) * iw, (t[1] + u[1] + inv(1, 2)) * iw);
                    const int piece = piece_at(q.x, q.y);
                    add(piece, unit);
                    if (piece == kBackground) {
                        add(kBackground + 1, unit * static_cast<float>(q.x / g.disc_radius));
                        add(kBackground + 2, unit * static_cast<float>(q.y / g.disc_radius));
                    }
                }
            for (int k = 0; k < n; ++k) {
                covers_.push_back({index, local_piece[k], local_weight[k]});
                piece_box_[local_piece[k]] |= cv::Rect(rx, ry, 1, 1);
                if (observed) seen_[local_piece[k]] += local_weight[k];
            }
        }
    }
    // Every piece the bits decide must be seen somewhere, else its colour is a guess.
    for (int piece = 0; piece < kLogo; ++piece)
        if (seen_[piece] <= 0.f) return false;
    group_by(covers_, kPieces, [](const Cover& c) { return c.piece; }, piece_start_, fill_, by_piece_);
    return values_.size() > static_cast<size_t>(kPieces);
}

cv::Rect DrawingFit::blur_box(int piece, int reach) const {
    const cv::Rect whole(0, 0, roi_.width, roi_.height);
    return (piece_box_[piece] + cv::Size(2 * reach, 2 * reach) - cv::Point(reach, reach)) & whole;
}

void DrawingFit::render(int piece, const cv::Rect& box, cv::Mat1f& canvas) const {
    for (int c = piece_start_[piece]; c < piece_start_[piece + 1]; ++c) {
        const Cover& cover = by_piece_[c];
        canvas(cover.pixel / roi_.width - box.y, cover.pixel % roi_.width - box.x) += cover.weight;
    }
}

void DrawingFit::collect(int piece, const cv::Rect& box, const cv::Mat1f& blurred) {
    for (int y = 0; y < box.height; ++y) {
        const float* v = blurred.ptr<float>(y);
        const int* rows = observed_.data() + (box.y + y) * roi_.width + box.x;
        for (int x = 0; x < box.width; ++x)
            if (rows[x] >= 0 && std::abs(v[x]) > kNegligible) blurred_.push_back({rows[x], piece, v[x]});
    }
}

void DrawingFit::blur_one_by_one(int reach, const cv::Mat& kernel) {
    canvas_storage_.resize(static_cast<size_t>(roi_.area()));
    for (int piece = 0; piece < kPieces; ++piece) {
        if (piece_start_[piece] == piece_start_[piece + 1]) continue;
        const cv::Rect box = blur_box(piece, reach);
        // A canvas of the box's size on storage kept across pieces and frames (a header
        // of its own, not a view into a larger image, so the blur's border stays the box's).
        cv::Mat1f canvas(box.height, box.width, canvas_storage_.data());
        // (A plain fill: Mat::setTo's own cost exceeds a small piece's canvas.)
        std::fill_n(canvas_storage_.data(), box.area(), 0.f);
        render(piece, box, canvas);
        // What cv::GaussianBlur does for float images, with the kernel built once per blur.
        blur_zero_border(canvas, kernel, blur_scratch_);
        collect(piece, box, canvas);
    }
}

void DrawingFit::blur_in_atlas(int reach, const cv::Mat& kernel) {
    // Shelves of boxes as wide as the region, `reach` zeros between boxes and between
    // shelves: within a box the blur sees what it sees of the box alone with a zero border.
    const int width = roi_.width;
    int x = 0, y = 0, shelf = 0;
    spots_.assign(kPieces, cv::Rect());
    for (int piece = 0; piece < kPieces; ++piece) {
        if (piece_start_[piece] == piece_start_[piece + 1]) continue;
        const cv::Rect box = blur_box(piece, reach);
        if (x > 0 && x + box.width > width) y += shelf + reach, x = 0, shelf = 0;
        spots_[piece] = cv::Rect(x, y, box.width, box.height);
        x += box.width + reach;
        shelf = std::max(shelf, box.height);
    }
    const int height = y + shelf;
    atlas_storage_.assign(static_cast<size_t>(width) * height, 0.f);
    cv::Mat1f atlas(height, width, atlas_storage_.data());
    for (int piece = 0; piece < kPieces; ++piece) {
        if (spots_[piece].empty()) continue;
        cv::Mat1f canvas = atlas(spots_[piece]);
        render(piece, blur_box(piece, reach), canvas);
    }
    blur_zero_border(atlas, kernel, blur_scratch_);
    for (int piece = 0; piece < kPieces; ++piece)
        if (!spots_[piece].empty()) collect(piece, blur_box(piece, reach), atlas(spots_[piece]));
}

bool DrawingFit::normal_equations(int step) {
    const double sigma = kBlurs[step] / bin_;
    const int reach = static_cast<int>(std::ceil(kKernelReach * sigma));
    cv::Mat& kernel = kernels_[bin_ - 1][step];
    if (kernel.empty()) kernel = cv::getGaussianKernel(2 * reach + 1, sigma, CV_32F);
    blurred_.clear();
    // One blur for all pieces spares the blur's fixed cost per call (most pieces are small).
    // Only for kernels of 7 taps and more: OpenCV's 3- and 5-tap paths round a pixel's sum
    // differently depending on where in a row it lies, the longer ones do not.
    if (2 * reach + 1 >= 7)
        blur_in_atlas(reach, kernel);
    else
        blur_one_by_one(reach, kernel);
    // Rows of the design matrix: the pieces' blurred footprints at each observed pixel
    // (`pixel` of a blurred entry is its row), pieces in increasing order within a row.
    const int n_rows = static_cast<int>(values_.size());
    group_by(blurred_, n_rows, [](const Cover& c) { return c.pixel; }, row_start_, fill_, rows_);
    normal_.create(kPieces, kPieces);
    clear(normal_);
    rhs_.create(kPieces, 3);
    clear(rhs_);
    energy_ = 0;
    // A row's pieces and weights (as double, which is exact) in arrays of their own, for the
    // products below: each piece at most once per row.
    int piece[kPieces];
    double weight[kPieces];
    for (int i = 0; i < n_rows; ++i) {
        const cv::Vec3f& b = values_[i];
        energy_ += static_cast<double>(b.dot(b));
        const int n = row_start_[i + 1] - row_start_[i];
        for (int k = 0; k < n; ++k) piece[k] = rows_[row_start_[i] + k].piece, weight[k] = rows_[row_start_[i] + k].weight;
        for (int a = 0; a < n; ++a) {
            const double va = weight[a];
            double* rhs = rhs_.ptr<double>(piece[a]);
            rhs[0] += va * b[0], rhs[1] += va * b[1], rhs[2] += va * b[2];
            double* row = normal_.ptr<double>(piece[a]);
            for (int c = a; c < n; ++c) row[piece[c]] += va * weight[c];
        }
    }
    // Entries were added at (a, c ≥ a); mirror them into a symmetric matrix.
    double trace = 0;
    for (int a = 0; a < kPieces; ++a) trace += normal_(a, a);
    for (int a = 0; a < kPieces; ++a)
        for (int c = a + 1; c < kPieces; ++c) normal_(c, a) = normal_(a, c);
    // A faint ridge keeps pieces the pixels hardly see from blowing up.
    const double ridge = 1e-6 * trace / kPieces + 1e-9;
    for (int a = 0; a < kPieces; ++a) normal_(a, a) += ridge;
    // A piece's footprint overlaps only pieces at nearby angles (and the few global ones):
    // in angular order the system is nearly banded.
    if (order_.empty()) angular_order(order_);
    return cholesky_.solve(normal_, rhs_, order_, solution_);
}

bool DrawingFit::measure(const Frame& frame, const cv::Matx33d& oriented, const CodePalette& palette,
                         PositionMeasures& out) {
    // Bins of bin_ × bin_ pixels, as few as keep the fit within kMaxDiameterPx: the plane
    // then maps to bin coordinates (bin (0, 0) is centred where pixels 0 .. bin_ − 1 are).
    bin_ = bin_size(oriented);
    const double to_bin = 1.0 / bin_, shift = -0.5 * (bin_ - 1) * to_bin;
    const cv::Matx33d binned = cv::Matx33d(to_bin, 0, shift, 0, to_bin, shift, 0, 0, 1) * oriented;
    const double diameter = 2 * CodeGeometry::get().disc_radius * local_scale(binned, 0, 0);
    if (!cover(frame, binned, bin_ > 1 ? 2 : diameter < 130 ? 4 : diameter < 200 ? 3 : 2)) return false;
    // The residual falls to the right blur and rises past it: walk the steps from the
    // middle one downhill. The best step's equations are kept for `measure_arcs`.
    constexpr int kSteps = static_cast<int>(sizeof kBlurs / sizeof kBlurs[0]);
    double sse[kSteps];
    std::fill(sse, sse + kSteps, -1.0);
    double best_sse = 1e300;
    int best = -1;
    auto evaluate = [&](int i) {
        if (sse[i] >= 0) return sse[i];
        sse[i] = 1e300;
        if (!normal_equations(i)) return sse[i];
        // Residual of the least-squares solution: |b|² − x·Aᵀb.
        sse[i] = energy_;
        for (int a = 0; a < kPieces; ++a)
            for (int c = 0; c < 3; ++c) sse[i] -= solution_(a, c) * rhs_(a, c);
        if (sse[i] < best_sse) {
            best_sse = sse[i];
            best = i;
            cv::swap(normal_, best_normal_);
            cv::swap(rhs_, best_rhs_);
            cv::swap(solution_, best_);
        }
        return sse[i];
    };
    int at = kSteps / 2;
    evaluate(at);
    const int step = at + 1 < kSteps && evaluate(at + 1) < sse[at] ? 1 : -1;
    if (step > 0) ++at;
    while (at + step >= 0 && at + step < kSteps && evaluate(at + step) < sse[at]) at += step;
    if (best < 0) return false;
    // Ink against the background the fit found at the centre, along the palette's axis.
    fitted_ = palette;
    fitted_.background = colour(best_, kBackground);
    fitted_.foreground = fitted_.background + (palette.foreground - palette.background);
    std::fill(out.gap_known, out.gap_known + ACC_RING_POSITIONS, true);
    std::fill(out.ink_known, out.ink_known + ACC_RING_POSITIONS, true);
    float* stroke = out.stroke_ink;
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) stroke[i] = ink_level(fitted_, colour(best_, i));
    float sorted[ACC_RING_POSITIONS];
    std::copy(stroke, stroke + ACC_RING_POSITIONS, sorted);
    std::nth_element(sorted, sorted + ACC_RING_POSITIONS / 2, sorted + ACC_RING_POSITIONS);
    const float floor = 0.25f * std::max(1e-3f, sorted[ACC_RING_POSITIONS / 2]);
    for (const Ring& ring : CodeGeometry::get().rings)
        for (int p = 0; p < ring.positions; ++p) {
            const int i = ring.first_bit + p, prev = ring.first_bit + (p + ring.positions - 1) % ring.positions;
            out.gap_ratio[i] = ink_level(fitted_, colour(best_, kGapZone + i)) / std::max(floor, 0.5f * (stroke[prev] + stroke[i]));
        }
    ACC_TRACE("  drawing fit: blur %.2f px, rms %.1f over %zu bins of %d px\n", kBlurs[best],
              std::sqrt(std::max(0.0, best_sse) / (3.0 * values_.size())), values_.size(), bin_ * bin_);
    return true;
}

bool DrawingFit::measure_arcs(const float* p_arc_start, PositionMeasures& out) {
    // Each arc one unknown: its positions' strokes and the gap zones it runs over; gap zones
    // where an arc starts are background. Since the blurred footprint of a union is the sum
    // of its parts', the arcs' equations are sums of the pieces' (no new rendering).
    int merged[kPieces];
    int unknowns = 0;
    for (const Ring& ring : CodeGeometry::get().rings) {
        int first = -1;
        for (int p = 0; p < ring.positions && first < 0; ++p)
            if (p_arc_start[ring.first_bit + p] > 0.5f) first = p;
        if (first < 0) return false;
        for (int j = 0; j < ring.positions; ++j) {
            const int i = ring.first_bit + (first + j) % ring.positions;
            if (p_arc_start[i] > 0.5f) ++unknowns;
            merged[i] = unknowns - 1;
            merged[kGapZone + i] = p_arc_start[i] > 0.5f ? -1 : unknowns - 1;   // −1: background, set below
        }
    }
    for (int piece = kLogo; piece < kPieces; ++piece) merged[piece] = unknowns++;
    for (int i = 0; i < ACC_RING_POSITIONS; ++i)
        if (merged[kGapZone + i] < 0) merged[kGapZone + i] = merged[kBackground];
    arc_normal_.create(unknowns, unknowns);
    clear(arc_normal_);
    arc_rhs_.create(unknowns, 3);
    clear(arc_rhs_);
    for (int a = 0; a < kPieces; ++a) {
        const double* row = best_normal_.ptr<double>(a);
        double* merged_row = arc_normal_.ptr<double>(merged[a]);
        for (int c = 0; c < kPieces; ++c) merged_row[merged[c]] += row[c];
        for (int c = 0; c < 3; ++c) arc_rhs_(merged[a], c) += best_rhs_(a, c);
    }
    // The merged system in its own order (cv::solve copies it to a buffer it allocates).
    arc_order_.resize(static_cast<size_t>(unknowns));
    std::iota(arc_order_.begin(), arc_order_.end(), 0);
    if (!cholesky_.solve(arc_normal_, arc_rhs_, arc_order_, arc_solution_)) return false;
    for (int i = 0; i < ACC_RING_POSITIONS; ++i) out.stroke_ink[i] = ink_level(fitted_, colour(arc_solution_, merged[i]));
    return true;
}

cv::Vec3f DrawingFit::colour(const cv::Mat1d& solution, int row) {
    return cv::Vec3f(static_cast<float>(solution(row, 0)), static_cast<float>(solution(row, 1)),
                     static_cast<float>(solution(row, 2)));
}

}  // namespace appclip::vision
