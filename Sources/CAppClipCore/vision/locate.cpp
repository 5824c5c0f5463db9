#include "locate.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "branchless_list.hpp"
#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "edge_map.hpp"
#include "ellipse_fit.hpp"
#include "image_view.hpp"
#include "outline_rings.hpp"
#include "pyramid.hpp"
#include "rough_ellipse.hpp"
#include "vote_filters.hpp"

namespace appclip::vision {
namespace {

// At every pyramid level we look for codes 20..48 level pixels across: the rims and
// rings then lie 4..25 pixels from the centre.
constexpr double kLevelMinDiameter = Locator::kMinCodeDiameter;
constexpr double kLevelMaxDiameter = 48.0;
constexpr int kVoteMin = 4;
constexpr int kVoteMax = 25;
constexpr int kMinEdge = 40;           // |gx|+|gy| of a 3x3 Sobel: about 10 grey levels of contrast
constexpr int kMaxVotersPerLevel = 5000;   // before thinning
constexpr int kMaxTileVotersPerLevel = 16000;   // shared by the tiles, on top of the frame's
constexpr int kVoteTiles = 8;              // per side
constexpr int kHistogramBins = 511;        // of (|gx|+|gy|) / 4: a 3x3 Sobel on 8 bits stays under 2044
// Thinning along the gradient keeps about half of the edge pixels over the thresholds
// (median 0.44 of voters, 0.5 of vote peaks and floors, measured on camera/small/hard
// levels), so vote heights are half what the caps' un-thinned pixel counts suggest.
constexpr float kVotersPerEdgePixel = 0.5f;
constexpr float kMinPeak = 7.f * kVotersPerEdgePixel;   // half-density votes
constexpr float kOutstandingVotes = 2.f;   // vote peak over floor (see vote_level) that ranks a candidate up
constexpr size_t kRankedPeaks = 32;         // merged vote peaks ranked by their rings (by votes first)
constexpr size_t kProminentPeaks = 4;       // and of the rest, the most prominent (Candidate::prominence)
// A vote peak's local floor: the mean votes over kFloorBlocks x kFloorBlocks blocks of
// kFloorBlock level pixels around it: 80 level pixels, 1.7 to 4 of the level's codes across.
constexpr int kFloorBlock = 16, kFloorBlocks = 5;
constexpr size_t kPairSources = 5;         // peaks by ring score, and by votes, whose midpoints are tried
constexpr float kLeaderMidpointGain = 1.2f;   // see add_midpoints
constexpr int kMaxCuspLevels = 2;             // see add_midpoints
// A refined centre is read when its rings score this much higher than the vote peak's: the
// three std codes only refined centres read scored 1.19-1.49 times their peaks'; over 120 std
// frames without a code, 233 of 720 refined centres scored higher at all, 105 of them 1.1 times.
constexpr float kRefinedRingGain = 1.1f;
constexpr int kCannyLow = 20, kCannyHigh = 60;
constexpr double kMinEllipseMajor = 16.0;   // working pixels
constexpr double kMinBoxMajor = 0.9;        // of the smallest major axis: a contour's box side
constexpr size_t kEllipseFitPoints = 64;
constexpr double kCentroidSlack = 0.15;   // of the box's side
constexpr double kMinAxisRatio = 0.2;       // views up to ~78 degrees from the line of sight
// The ring check's ring zone, in rims (the strokes' edges lie at 0.41..0.94), and a noise
// floor for its energy (central differences of grey levels) so flat ground does not score.
constexpr double kZoneInner = 0.36, kZoneOuter = 0.99;
constexpr double kZoneNoise = 4.0;

}  // namespace

void Locator::locate(const cv::Mat& full, const cv::Mat& work, double scale, double min_diameter_full) {
    std::vector<Candidate>& peaks = peaks_;
    peaks.clear();
    full_ = full;
    if (levels_.empty()) levels_.resize(6), vote_scratch_.resize(levels_.size());
    levels_[0] = work;
    int level_count = 1;
    while (level_count < static_cast<int>(levels_.size())) {
        const cv::Mat& prev = levels_[level_count - 1];
        if (std::min(prev.cols, prev.rows) / 2 < kLevelMinDiameter + 4) break;
        pyr_down(prev, levels_[level_count], pyramid_rows_);
        ++level_count;
    }
    level_count_ = level_count;
    voted_levels_ = 0;
    for (int level = 0; level < level_count; ++level) {
        const double level_scale = scale * static_cast<double>(1 << level);
        if (kLevelMaxDiameter * level_scale < min_diameter_full) continue;
        vote_level(levels_[level], level, level_scale, peaks);
        voted_levels_ |= 1 << level;
    }
    for (const Candidate& c : peaks)
        ACC_TRACE("raw candidate %.1f,%.1f d=[%.0f,%.0f] score %.1f prominence %.1f\n", c.center.x, c.center.y,
                  c.diameter_lo, c.diameter_hi, c.score, c.prominence);
    // Merge the same code seen at two levels (keep the stronger, widen its size range).
    std::sort(peaks.begin(), peaks.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    std::vector<Candidate>& merged = merged_;
    merger_.merge(peaks, scale, merged);
    // Ranked by ring structure rather than by votes (rank): votes favour busy texture. The
    // rest wait in vote order (refill).
    overflow_.clear();
    if (merged.size() > kRankedPeaks) {
        overflow_.assign(merged.begin() + kRankedPeaks, merged.end());
        merged.resize(kRankedPeaks);
        // Votes favour busy texture: the peak of a code on a white card in gravel (std
        // camera_00207) is 34th by votes, and among the most prominent. Ranked by prominence
        // alone, or with fewer by votes, other codes are lost.
        for (size_t k = 0; k < kProminentPeaks && !overflow_.empty(); ++k) {
            const auto most = std::max_element(overflow_.begin(), overflow_.end(), [](const Candidate& a, const Candidate& b) {
                return a.prominence < b.prominence;
            });
            merged.push_back(*most);
            overflow_.erase(most);
        }
    }
}

void Locator::rank(const std::function<bool(const cv::Point2d&)>& covered, int max_candidates, int read_first,
                   std::vector<Candidate>& ranked) {
    ranked.clear();
    vote_leaders_.clear();
    for (const Candidate& peak : merged_) {
        if (covered(peak.center)) continue;
        Candidate c = peak;
        const float votes = c.score;
        const float best = rank_by_rings(c);
        ACC_TRACE("merged %.1f,%.1f levels %x voted %d best %d ring score %.2f votes %.2f prominence %.2f\n", c.center.x,
                  c.center.y, c.levels, c.voted_level, c.best_level, best, votes, c.prominence);
        // `merged_` is in vote order.
        if (vote_leaders_.size() < kPairSources) vote_leaders_.push_back(c);
        ranked.push_back(c);
    }
    std::sort(ranked.begin(), ranked.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    // Pairs of peaks are taken among the best by ring score and the best by votes: a tilted
    // code's two cusp peaks can top the votes and still score low rings, their centre being
    // off the code's.
    pair_sources_.assign(ranked.begin(), ranked.begin() + std::min<size_t>(kPairSources, ranked.size()));
    const int first_leader = static_cast<int>(pair_sources_.size());
    for (const Candidate& c : vote_leaders_)
        if (std::none_of(pair_sources_.begin(), pair_sources_.end(),
                         [&](const Candidate& p) { return p.center == c.center; }))
            pair_sources_.push_back(c);
    add_midpoints(pair_sources_, first_leader, covered, ranked);
    std::sort(ranked.begin(), ranked.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    // The most prominent peak is read among the first `read_first` even when its rings score
    // low: blur or a steep view can leave a code's rings unresolved at its peak while the
    // code stands out of its surroundings. It takes the last of those places.
    if (read_first > 0 && ranked.size() > static_cast<size_t>(read_first)) {
        const auto most = std::max_element(ranked.begin(), ranked.end(), [](const Candidate& a, const Candidate& b) {
            return a.prominence < b.prominence;
        });
        const auto last_read = ranked.begin() + (read_first - 1);
        if (most > last_read) std::rotate(last_read, most, most + 1);
    }
    if (static_cast<int>(ranked.size()) > max_candidates) ranked.resize(max_candidates);
    for (const Candidate& c : ranked)
        ACC_TRACE("ranked %.1f,%.1f levels %x voted %d best %d score %.2f\n", c.center.x, c.center.y, c.levels,
                  c.voted_level, c.best_level, c.score);
}

void Locator::refill(const std::function<bool(const cv::Point2d&)>& covered, int count, std::vector<Candidate>& out) {
    out.clear();
    for (const Candidate& c : overflow_) {
        if (static_cast<int>(out.size()) >= count) break;
        if (!covered(c.center)) out.push_back(c);
    }
    for (Candidate& c : out) rank_by_rings(c);
    std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
}

float Locator::rank_by_rings(Candidate& c) {
    // The strongest level by votes, the two above it (a fine peak can be the logo or inner
    // rings of a larger code) and the coarsest level that saw it.
    const int voted = c.best_level;
    c.voted_level = voted;
    int coarse = -1;
    for (int l = 15; l >= 0 && coarse < 0; --l)
        if (c.levels & (1 << l)) coarse = l;
    const int tries[4] = {voted, voted + 1, voted + 2, coarse};
    float best = 0;
    int tried = 0;
    for (int l : tries) {
        if (l < 0 || l >= level_count_ || (tried & (1 << l))) continue;
        tried |= 1 << l;
        const float r = ring_score(c, l);
        if (r > best) best = r, c.best_level = l;
    }
    c.levels |= tried;
    c.ring = best;
    // An outstanding vote peak (a small code whose rings are only half resolved at the ring
    // check's level) keeps part of its lead.
    c.score = best * std::max(1.f, std::sqrt(c.score / kOutstandingVotes));
    return best;
}

void Locator::find_ellipses(const cv::Mat& work, double scale, double min_diameter_full, int max_candidates,
                            std::vector<Candidate>& out) {
    const size_t before = out.size();
    groups_.clear();
    const double min_major = std::max(kMinEllipseMajor, 0.8 * min_diameter_full / scale);
    // Edge curves whose contours would all fail the box test below are not traced.
    const int min_extent = static_cast<int>(std::ceil(kMinBoxMajor * min_major));
    // One edge plane serves every level, each a view of its top-left corner: planes of the
    // sizes the levels take in turn would be reallocated on every frame.
    if (edges_.rows < work.rows || edges_.cols < work.cols)
        edges_.create(std::max(edges_.rows, work.rows), std::max(edges_.cols, work.cols), CV_8U);
    cv::Mat edges = edges_(cv::Rect(0, 0, work.cols, work.rows));
    // A level the vote has seen this frame: its derivatives serve again (the vote is done
    // with them; the edge map rewrites their border).
    int voted = -1;
    for (int l = 0; l < level_count_; ++l)
        if ((voted_levels_ & (1 << l)) && levels_[l].data == work.data && levels_[l].size() == work.size()) voted = l;
    if (voted >= 0) {
        VoteScratch& v = vote_scratch_[voted];
        edge_map_.trace(work, v.dx, v.dy, v.magnitude, kCannyLow, kCannyHigh, min_extent, edges);
    } else {
        edge_map_.trace(work, kCannyLow, kCannyHigh, min_extent, edges);
    }
    contours_.trace(edges);
    const double max_major = 1.2 * std::max(work.cols, work.rows);
    for (size_t i = 0; i < contours_.count(); ++i) {
        // A closed edge around an ellipse of at least min_major (contours run round both sides).
        const size_t n = contours_.size(i);
        const cv::Point* contour = contours_.points(i);
        if (n < static_cast<size_t>(1.5 * min_major)) continue;
        // The contour's bounding box (as cv::boundingRect) and the mean of its points.
        cv::Point lo = contour[0], hi = contour[0];
        cv::Point2d mean(0, 0);
        for (size_t k = 0; k < n; ++k) {
            const cv::Point& p = contour[k];
            lo.x = std::min(lo.x, p.x), lo.y = std::min(lo.y, p.y);
            hi.x = std::max(hi.x, p.x), hi.y = std::max(hi.y, p.y);
            mean += cv::Point2d(p.x, p.y);
        }
        const cv::Rect box(lo.x, lo.y, hi.x - lo.x + 1, hi.y - lo.y + 1);
        const int box_major = std::max(box.width, box.height), box_minor = std::min(box.width, box.height);
        if (box_major < kMinBoxMajor * min_major || box_minor < kMinAxisRatio * box_major ||
            n > 2.6 * 2 * (box.width + box.height))
            continue;
        // Around an ellipse the points average to the box's centre; an open curve's do not
        // (most contours of a textured frame): the fit is spared them.
        mean *= 1.0 / static_cast<double>(n);
        if (std::abs(mean.x - (box.x + 0.5 * (box.width - 1))) > kCentroidSlack * box.width ||
            std::abs(mean.y - (box.y + 0.5 * (box.height - 1))) > kCentroidSlack * box.height)
            continue;
        contour_points_.assign(contour, contour + n);
        // The fit needs no more than ~64 points spread along the contour (its cost grows with
        // the points, and the working level has many long contours); all are checked below.
        fit_points_.clear();
        const size_t stride = std::max<size_t>(1, contour_points_.size() / kEllipseFitPoints);
        for (size_t k = 0; k < contour_points_.size(); k += stride) fit_points_.push_back(contour_points_[k]);
        const cv::RotatedRect e = fit_ellipse(fit_points_);
        const double major = std::max(e.size.width, e.size.height), minor = std::min(e.size.width, e.size.height);
        if (!(minor >= kMinAxisRatio * major) || major < min_major || major > max_major) continue;
        // Perimeter (Ramanujan) against the contour: most of the ellipse must be traced.
        const double a = 0.5 * major, b = 0.5 * minor;
        const double perimeter = kPi * (3 * (a + b) - std::sqrt((3 * a + b) * (a + 3 * b)));
        if (n < 0.75 * perimeter || n > 2.6 * perimeter) continue;
        const EllipseDistance distance(e);
        const double tolerance = std::max(0.04, 1.5 / b);
        int on = 0;
        for (const auto& p : contour_points_) on += distance(p) < tolerance ? 1 : 0;
        if (on < 0.85 * contour_points_.size()) continue;
        bool joined = false;
        for (EllipseGroup& g : groups_) {
            const double gmajor = std::max(g.largest.size.width, g.largest.size.height);
            const double d = std::hypot(g.largest.center.x - e.center.x, g.largest.center.y - e.center.y);
            if (d > 0.12 * std::max(gmajor, major) + 1.5) continue;
            joined = true;
            if (major > gmajor) g.largest = e;
            if (major < g.smallest_major) g.smallest_major = major, g.inner_center = e.center;
            break;
        }
        if (!joined) groups_.push_back({e, major, e.center, {}, 0.f});
    }
    // Working pixel i covers full-resolution pixels [i*s, (i+1)*s).
    auto full = [scale](const cv::Point2f& p) { return cv::Point2d((p.x + 0.5) * scale - 0.5, (p.y + 0.5) * scale - 0.5); };
    for (EllipseGroup& g : groups_) {
        g.outline = cv::RotatedRect(cv::Point2f(full(g.largest.center)), g.largest.size * static_cast<float>(scale),
                                    g.largest.angle);
        g.rings = outline_rings_.score(full_, g.outline);
        ACC_TRACE("outline %.1f,%.1f major %.0f rings %.3f\n", g.outline.center.x, g.outline.center.y,
                  std::max(g.outline.size.width, g.outline.size.height), g.rings);
    }
    // Outlines with the code's rings where the drawing has them first: a frame's large
    // round objects (cups, plates, wheels) outnumber and outsize a tilted code's rim.
    std::sort(groups_.begin(), groups_.end(), [](const EllipseGroup& x, const EllipseGroup& y) {
        if (x.rings != y.rings) return x.rings > y.rings;
        return x.largest.size.area() > y.largest.size.area();
    });
    int added = 0;
    for (const EllipseGroup& g : groups_) {
        if (added >= max_candidates) break;
        Candidate c;
        c.center = full(g.inner_center);
        // The largest ellipse is the rim, or a card or label around the code.
        c.outline = g.outline;
        c.diameter_lo = std::max(min_diameter_full, 0.3 * c.outline_major());
        c.diameter_hi = 1.05 * c.outline_major();
        c.score = g.rings;
        c.level0_scale = scale;
        // Already found on another level (an earlier call): same centre, same size.
        bool known = false;
        for (size_t k = 0; k < before; ++k) {
            const double a = out[k].outline_major(), b = c.outline_major();
            known = known || (cv::norm(out[k].center - c.center) < 0.1 * std::max(a, b) && std::abs(a - b) < 0.08 * std::max(a, b));
        }
        if (known) continue;
        ++added;
        out.push_back(c);
        ACC_TRACE("ellipse candidate %.1f,%.1f major %.0f rings %.3f\n", c.center.x, c.center.y, c.outline_major(),
                  g.rings);
    }
}

// The vote peaks of a strongly tilted code sit at the two ends of its evolute, on the
// major axis either side of the centre: the midpoint of two peaks that both voted near the
// size their distance implies is worth a look.
void Locator::add_midpoints(const std::vector<Candidate>& sources, int first_leader,
                            const std::function<bool(const cv::Point2d&)>& covered, std::vector<Candidate>& list) {
    const int n = static_cast<int>(sources.size());
    midpoints_.clear();
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            const Candidate& a = sources[i];
            const Candidate& b = sources[j];
            const double d = cv::norm(a.center - b.center);
            // Cusps of a code tilted 40..60 degrees lie 0.55..0.8 diameters apart.
            const double diameter = 1.5 * d;
            if (diameter < 20.0 * a.level0_scale) continue;
            int level = 0;
            while (level + 1 < level_count_ && 48.0 * a.level0_scale * (1 << level) < diameter) ++level;
            // Each cusp's votes come from the rim where it bends most: at 60 degrees of tilt
            // that stretch curves like a circle a quarter of the code's size, two levels
            // down. Peaks voted further from the midpoint's level are unrelated clutter.
            if (std::abs(a.voted_level - level) > kMaxCuspLevels || std::abs(b.voted_level - level) > kMaxCuspLevels)
                continue;
            Candidate m = a;
            m.center = 0.5 * (a.center + b.center);
            if (covered(m.center)) continue;
            m.levels = 1 << level;
            m.voted_level = m.best_level = level;
            float best = 0;
            // From the level below: peaks either side of a frontal code (on a busy ground, where
            // its own centre peak was merged away) lie over a diameter apart, not 0.55-0.8, and
            // 1.5 times their distance overshoots a level (std mirrored_00002: 118 px, read at
            // [128, 480] px).
            for (int l = std::max(0, level - 1); l <= std::min(level + 1, level_count_ - 1); ++l) {
                const float r = ring_score(m, l);
                if (r > best) best = r, m.best_level = l;
            }
            m.levels |= 1 << m.best_level;
            m.score = m.ring = best;
            ACC_TRACE("midpoint %.1f,%.1f of %d,%d level %d score %.2f\n", m.center.x, m.center.y, i, j, level, best);
            // A vote leader's pairs are many and mostly clutter: their midpoint must look
            // clearly more like rings than either peak (the code's centre between its cusps).
            if (j >= first_leader && best < kLeaderMidpointGain * std::max(a.score, b.score)) continue;
            midpoints_.push_back(m);
        }
    std::sort(midpoints_.begin(), midpoints_.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    for (int k = 0; k < std::min<int>(3, static_cast<int>(midpoints_.size())); ++k) list.push_back(midpoints_[k]);
}

bool Locator::refined_centre(const Candidate& c, cv::Point2d& centre) {
    const int level = c.voted_level;
    if (level < 0 || level >= level_count_ || !(voted_levels_ & (1 << level)) || c.ring <= 0) return false;
    const cv::Point2d at = c.level_point(level);
    SymmetricPeak peak;
    if (!symmetric_centres_.find_near(vote_scratch_[level].voters, at, peak)) return false;
    if (cv::norm(peak.center - at) < 1.0) return false;
    Candidate moved = c;
    moved.center = c.full_point(peak.center, level);
    const float ring = ring_score(moved, c.best_level);
    ACC_TRACE("refine %.1f,%.1f -> %.1f,%.1f votes %.1f ring %.2f -> %.2f\n", c.center.x, c.center.y, moved.center.x,
              moved.center.y, peak.votes, c.ring, ring);
    if (ring < kRefinedRingGain * c.ring) return false;
    centre = moved.center;
    return true;
}

float Locator::ring_score(const Candidate& c, int level) {
    // Look two levels finer than the one that saw the code: strokes are resolved there.
    // Codes seen at level 0 or 1 are checked on the full-resolution image.
    const int vl = level - 2;
    const bool full = vl < 0 && !full_.empty();
    const cv::Mat& img = full ? full_ : levels_[std::max(0, vl)];
    const double px = full ? 1.0 : c.level0_scale * (1 << std::max(0, vl));  // full-res pixels per pixel
    const cv::Point2d at = full ? c.center : c.level_point(std::max(0, vl));
    const double cx = at.x, cy = at.y;
    const double d_lo = c.level_lo(level) / px, d_hi = c.level_hi(level) / px;
    constexpr int rays = kRingRays;
    const int length = static_cast<int>(0.6 * d_hi) + 2;
    const double r_lo = 0.2 * d_lo, r_hi = 0.55 * d_hi;   // rim distance searched
    const CodeGeometry& g = CodeGeometry::get();
    static const CodeGeometry::StrokeEdges edges = g.stroke_edges(g.disc_radius);
    const double* comb = edges.data();
    const int r_count = static_cast<int>(r_hi - r_lo) + 1;
    if (r_count < 2 || length < 8) return 0;
    ray_profile_.resize(length);
    ray_derivatives_.resize(static_cast<size_t>(length) * rays);
    ray_comb_.assign(static_cast<size_t>(rays) * r_count, 0.f);
    // One table per level: candidates are checked on several levels in turn, and a level's
    // table is the same for all of them (build keeps it when asked for it again).
    if (comb_tables_.size() <= static_cast<size_t>(level)) comb_tables_.resize(level + 1);
    CombTable& comb_table = comb_tables_[level];
    comb_table.build(comb, 10, r_lo, 1.0, r_count, length);
    double energy = 0;
    // Per ray, running sums of the squared derivative: the ring zone's energy at any scale.
    ray_energy2_.resize(static_cast<size_t>(rays) * (length + 1));
    for (int i = 0; i < rays; ++i) {
        const double a = (i + 0.5) * 2 * 3.14159265358979 / rays, ux = std::cos(a), uy = std::sin(a);
        int valid = length;
        const int inside = std::min(length, steps_inside(cx, cy, ux, uy, img.cols, img.rows));
        bilinear_along(img, cx, cy, ux, uy, inside, ray_profile_.data());
        for (int t = inside; t < length; ++t) {
            const double x = cx + ux * t, y = cy + uy * t;
            if (t >= inside && (x < 0 || y < 0 || x >= img.cols - 1 || y >= img.rows - 1)) {
                valid = t;
                break;
            }
            const int ix = static_cast<int>(x), iy = static_cast<int>(y);
            const float fx = static_cast<float>(x - ix), fy = static_cast<float>(y - iy);
            const uchar* r0 = img.ptr<uchar>(iy) + ix;
            const uchar* r1 = r0 + img.step[0];
            ray_profile_[t] = (r0[0] + fx * (r0[1] - r0[0])) * (1 - fy) + (r1[0] + fx * (r1[1] - r1[0])) * fy;
        }
        // Signed derivative in place (profile[t] becomes d at t, zero at the ends).
        float prev = ray_profile_[0];
        for (int t = 1; t + 1 < valid; ++t) {
            const float d = ray_profile_[t + 1] - prev;
            prev = ray_profile_[t];
            ray_profile_[t] = d;
            energy += std::abs(d);
        }
        for (int t = std::max(0, valid - 1); t < length; ++t) ray_profile_[t] = 0;
        ray_profile_[0] = 0;
        double* cum = ray_energy2_.data() + static_cast<size_t>(i) * (length + 1);
        cum[0] = 0;
        for (int t = 0; t < length; ++t) cum[t + 1] = cum[t] + ray_profile_[t] * ray_profile_[t];
        for (int t = 0; t < length; ++t) ray_derivatives_[static_cast<size_t>(t) * rays + i] = ray_profile_[t];
    }
    // The comb at every scale, all rays at once.
    static_assert(rays == 8, "float_sums8 is the eight rays' comb");
    comb_table.float_sums8(ray_derivatives_.data(), r_count, ray_comb_.data());
    // Each ray may sit at its own scale within [R, 2.2 R] (tilt up to 60 degrees); one polarity for all.
    // Window maxima per ray (WindowExtremes); beside the sums, the energy of each chosen scale's
    // ring zone (see below).
    window_sum_.assign(2 * static_cast<size_t>(r_count), 0.0);
    zone_sum_.assign(2 * static_cast<size_t>(r_count), 0.0);
    zone_lo_.resize(r_count);
    zone_hi_.resize(r_count);
    for (int m = 0; m < r_count; ++m) {
        zone_lo_[m] = std::min(length, static_cast<int>(kZoneInner * (r_lo + m)));
        zone_hi_[m] = std::min(length, static_cast<int>(kZoneOuter * (r_lo + m)) + 1);
    }
    // Each scale's window ends at the same scale for every ray.
    window_end_.resize(r_count);
    for (int m = 0; m < r_count; ++m) window_end_[m] = std::min(r_count - 1, static_cast<int>(2.2 * (r_lo + m) - r_lo));
    // Each ray's ring zone energy at every scale, for both polarities.
    ray_zone_.resize(static_cast<size_t>(rays) * r_count);
    for (int i = 0; i < rays; ++i) {
        const double* cum = ray_energy2_.data() + static_cast<size_t>(i) * (length + 1);
        double* zone = ray_zone_.data() + static_cast<size_t>(i) * r_count;
        for (int j = 0; j < r_count; ++j)
            zone[j] = cum[zone_hi_[j]] - cum[zone_lo_[j]] + kZoneNoise * kZoneNoise * (zone_hi_[j] - zone_lo_[j]);
    }
    // Both polarities from one pass of window extremes over all rays: the maximum of the
    // negated comb is minus its minimum (exactly, and at the same scale).
    double* sums_positive = window_sum_.data();
    double* sums_negative = window_sum_.data() + r_count;
    double* zones_positive = zone_sum_.data();
    double* zones_negative = zone_sum_.data() + r_count;
    window_extremes_.run(ray_comb_.data(), window_end_.data(), r_count);
    for (int m = 0; m < r_count; ++m) {
        const size_t at = static_cast<size_t>(m) * rays;
        for (int i = 0; i < rays; ++i) {
            const double* zone = ray_zone_.data() + static_cast<size_t>(i) * r_count;
            sums_positive[m] += std::max(0.f, window_extremes_.max_value[at + i]);
            zones_positive[m] += zone[window_extremes_.max_at[at + i]];
            sums_negative[m] += std::max(0.f, -window_extremes_.min_value[at + i]);
            zones_negative[m] += zone[window_extremes_.min_at[at + i]];
        }
    }
    // Against the rays' total edge energy: texture scores low, rings high. That favours codes
    // on plain ground; a small code in busy texture is better told by the energy of the ring
    // zones alone (L2: the comb's correlation with the strokes), which in turn favours a
    // tilted code's few resolved rays less. The geometric mean of the two ranks both.
    double best = 0, best_zone = 0;
    for (size_t k = 0; k < window_sum_.size(); ++k) {
        best = std::max(best, window_sum_[k]);
        if (zone_sum_[k] > 0) best_zone = std::max(best_zone, window_sum_[k] / std::sqrt(10.0 * zone_sum_[k]));
    }
    return static_cast<float>(std::sqrt(best / (energy / length * 10.0 + 1.0) * best_zone));
}

void Locator::vote_level(const cv::Mat& image, int level, double scale, std::vector<Candidate>& out) {
    // Planes of this level's size, kept per level so that warm frames allocate none.
    VoteScratch& scratch = vote_scratch_[level];
    cv::Mat &dx = scratch.dx, &dy = scratch.dy, &magnitude = scratch.magnitude, &votes = scratch.votes,
            &smooth = scratch.smooth;
    // Both 3x3 Sobel derivatives in one pass over the image.
    cv::spatialGradient(image, dx, dy, 3, cv::BORDER_DEFAULT);
    const int w = image.cols, h = image.rows;

    // Edge thresholds that keep the voter count bounded in busy frames: one for the frame,
    // and per tile one that keeps at least the tile's share of its own strongest edges, so
    // a small code beside busy texture still votes.
    const int tiles_x = std::min(kVoteTiles, std::max(1, w / 16)), tiles_y = std::min(kVoteTiles, std::max(1, h / 16));
    histogram_.assign(static_cast<size_t>(tiles_x * tiles_y + 1) * kHistogramBins, 0);
    tile_of_column_.resize(w);
    for (int x = 0; x < w; ++x) tile_of_column_[x] = x * tiles_x / w;
    int* frame_histogram = histogram_.data() + static_cast<size_t>(tiles_x * tiles_y) * kHistogramBins;
    // |gx| + |gy| once per pixel: the voting pass below reads it for each pixel and its
    // two neighbours across the edge.
    l1_magnitude(dx, dy, magnitude);
    // The pixels over kMinEdge, row by row (list_where: whether a textured frame's pixel is an
    // edge is noise to the branch predictor). Both passes below read the list.
    edge_x_.resize(static_cast<size_t>(w) * h + 1);
    edge_row_start_.assign(static_cast<size_t>(h) + 1, 0);
    int* const edges = edge_x_.data();
    int listed = 0;
    for (int y = 1; y < h - 1; ++y) {
        const short* mag = magnitude.ptr<short>(y);
        edge_row_start_[y] = listed;
        listed += list_where(1, w - 1, [mag](int x) { return mag[x] >= kMinEdge; }, edges + listed);
        edge_row_start_[y + 1] = listed;
        int* row_histograms = histogram_.data() + static_cast<size_t>(y * tiles_y / h * tiles_x) * kHistogramBins;
        for (int k = edge_row_start_[y]; k < listed; ++k) {
            const int x = edges[k];
            const int bin = std::min(mag[x] >> 2, kHistogramBins - 1);
            ++row_histograms[tile_of_column_[x] * kHistogramBins + bin];
        }
    }
    // The frame's histogram is the tiles' sum (cheaper than counting every pixel twice).
    for (int t = 0; t < tiles_x * tiles_y; ++t) {
        const int* tile = histogram_.data() + static_cast<size_t>(t) * kHistogramBins;
        for (int bin = 0; bin < kHistogramBins; ++bin) frame_histogram[bin] += tile[bin];
    }
    // The lowest edge level (a bin's lower edge, at least kMinEdge) that keeps at most `count`
    // of the histogram's edges in bins up to `top_bin`.
    auto threshold_keeping = [](const int* histogram, int count, int top_bin) {
        int kept = 0;
        for (int bin = top_bin; bin >= 0; --bin) {
            kept += histogram[bin];
            if (kept > count) return std::max(kMinEdge, (bin + 1) << 2);
        }
        return kMinEdge;
    };
    const int threshold = threshold_keeping(frame_histogram, kMaxVotersPerLevel, kHistogramBins - 1);
    tile_threshold_.resize(static_cast<size_t>(tiles_x * tiles_y));
    const int tile_share = kMaxTileVotersPerLevel / (tiles_x * tiles_y);
    // A tile's share comes on top of its edges over the frame's threshold (it is counted in
    // the bins below it, so a tile's threshold is never above the frame's): where strong
    // clutter (bright streaks) holds the frame's voters, a fainter code in the same tile
    // still votes.
    const int below_frame_threshold = (threshold >> 2) - 1;
    for (int t = 0; t < tiles_x * tiles_y; ++t)
        tile_threshold_[t] = threshold_keeping(histogram_.data() + static_cast<size_t>(t) * kHistogramBins, tile_share,
                                               below_frame_threshold);

    // Vote counts in 16 bits: half the memory of floats (a 1080p frame's working level, 960 x
    // 540, takes 1 MB instead of 2, against 1 MiB of L2 per core here), which the lines of votes
    // cross at random. A voter votes at most once per cell (its steps are 2 cells long, its two
    // lines go opposite ways), and a level has fewer voters than 16 bits count.
    static_assert(kMaxVotersPerLevel + kMaxTileVotersPerLevel < 65536, "vote counts fit 16 bits");
    votes.create(h, w, CV_16U);
    for (int y = 0; y < h; ++y) std::fill(votes.ptr<unsigned short>(y), votes.ptr<unsigned short>(y) + w, 0);
    scratch.voters.clear();
    unsigned short* acc = votes.ptr<unsigned short>(0);
    const int row_step = static_cast<int>(magnitude.step1());
    const int acc_step = static_cast<int>(votes.step1());
#ifdef ACC_VISION_DEBUG
    int above = 0, voters = 0;   // edge pixels over the thresholds, and those left by thinning
#endif
    for (int y = 1; y < h - 1; ++y) {
        const short* gx = dx.ptr<short>(y);
        const short* gy = dy.ptr<short>(y);
        const short* mag = magnitude.ptr<short>(y);
        const int* thresholds = tile_threshold_.data() + y * tiles_y / h * tiles_x;
        for (int k = edge_row_start_[y], end = edge_row_start_[y + 1]; k < end; ++k) {
            const int x = edges[k];
            const int m = mag[x];
            if (m < thresholds[tile_of_column_[x]]) continue;
#ifdef ACC_VISION_DEBUG
            ++above;
#endif
            // Thin edges to their crest along the gradient (4 directions): one voter per edge.
            const int ax = std::abs(gx[x]), ay = std::abs(gy[x]);
            int o1, o2;  // neighbour offsets in elements along the gradient
            if (ay * 5 < ax * 2) {
                o1 = -1, o2 = 1;
            } else if (ax * 5 < ay * 2) {
                o1 = -row_step, o2 = row_step;
            } else if ((gx[x] > 0) == (gy[x] > 0)) {
                o1 = -row_step - 1, o2 = row_step + 1;
            } else {
                o1 = -row_step + 1, o2 = row_step - 1;
            }
            const int m1 = mag[x + o1], m2 = mag[x + o2];
            if (m < m1 || m <= m2) continue;
#ifdef ACC_VISION_DEBUG
            ++voters;
#endif
            scratch.voters.push_back({x, y, gx[x], gy[x]});
            const float inv = 1.f / std::sqrt(float(gx[x]) * gx[x] + float(gy[x]) * gy[x]);
            // Every other cell along the line (alternating phase between neighbours): the
            // blur below fills the holes, and voting costs half. Fixed-point stepping,
            // with the line clipped to the image once instead of per cell.
            const int phase = (x + y) & 1;
            // Lines from pixels at least kVoteMax + 1 from every border cannot leave the image
            // (|s| exceeds 1 by float rounding at most): no clipping to compute.
            const bool interior = x > kVoteMax && x < w - 1 - kVoteMax && y > kVoteMax && y < h - 1 - kVoteMax;
            for (int sign = -1; sign <= 1; sign += 2) {
                const float sx = sign * gx[x] * inv, sy = sign * gy[x] * inv;
                int t_end = kVoteMax;
                if (!interior) {
                    if (sx > 1e-6f) t_end = std::min(t_end, static_cast<int>((w - 1 - x) / sx));
                    if (sx < -1e-6f) t_end = std::min(t_end, static_cast<int>(x / -sx));
                    if (sy > 1e-6f) t_end = std::min(t_end, static_cast<int>((h - 1 - y) / sy));
                    if (sy < -1e-6f) t_end = std::min(t_end, static_cast<int>(y / -sy));
                }
                const int t0 = kVoteMin + phase;
                if (t0 > t_end) continue;
                const int step_x = static_cast<int>(sx * 2 * 65536.f), step_y = static_cast<int>(sy * 2 * 65536.f);
                int fx = static_cast<int>((x + sx * t0) * 65536.f + 32768.f);
                int fy = static_cast<int>((y + sy * t0) * 65536.f + 32768.f);
                for (int t = t0; t <= t_end; t += 2, fx += step_x, fy += step_y)
                    ++acc[(fy >> 16) * acc_step + (fx >> 16)];
            }
        }
    }
    gaussian5_sigma1(votes, scratch.rows, smooth);
    // One pass over the smoothed votes gives the block sums (each peak's local floor,
    // Candidate::prominence), through column sums over each block row (a loop the compiler
    // runs on vectors), and which rows hold a cell over kMinPeak, the only rows the peak
    // search below reads.
    const int blocks_x = (w + kFloorBlock - 1) / kFloorBlock, blocks_y = (h + kFloorBlock - 1) / kFloorBlock;
    std::vector<float>& blocks = scratch.blocks;
    std::vector<float>& columns = scratch.columns;
    std::vector<unsigned char>& row_may_peak = scratch.row_may_peak;
    blocks.assign(static_cast<size_t>(blocks_x) * blocks_y, 0.f);
    row_may_peak.resize(static_cast<size_t>(h));   // (every row is written below)
    for (int block_y = 0; block_y < blocks_y; ++block_y) {
        columns.assign(w, 0.f);
        for (int y = block_y * kFloorBlock, end = std::min(h, y + kFloorBlock); y < end; ++y) {
            const float* s = smooth.ptr<float>(y);
            unsigned char any = 0;
            for (int x = 0; x < w; ++x) columns[x] += s[x], any |= s[x] >= kMinPeak;
            row_may_peak[y] = any;
        }
        float* block_row = blocks.data() + static_cast<size_t>(block_y) * blocks_x;
        for (int x = 0; x < w; ++x) block_row[x / kFloorBlock] += columns[x];
    }
    // Busy texture raises every cell of a level; scores are peaks over that floor so
    // levels compare fairly.
    double total = 0;
    for (const float b : blocks) total += b;
    const float floor = static_cast<float>(total / (static_cast<double>(w) * h));
    auto local_floor = [&](int x, int y) {
        constexpr int reach = kFloorBlocks / 2;
        const int x0 = std::max(0, x / kFloorBlock - reach), x1 = std::min(blocks_x, x / kFloorBlock + reach + 1);
        const int y0 = std::max(0, y / kFloorBlock - reach), y1 = std::min(blocks_y, y / kFloorBlock + reach + 1);
        float sum = 0;
        for (int j = y0; j < y1; ++j)
            for (int i = x0; i < x1; ++i) sum += blocks[static_cast<size_t>(j) * blocks_x + i];
        const int cells = (std::min(w, x1 * kFloorBlock) - x0 * kFloorBlock) * (std::min(h, y1 * kFloorBlock) - y0 * kFloorBlock);
        return sum / static_cast<float>(cells);
    };
#ifdef ACC_VISION_DEBUG
    double peak_max = 0;
    cv::minMaxLoc(smooth, nullptr, &peak_max);
    ACC_TRACE("level %d: %dx%d threshold %d vote floor %.2f max %.1f voters %d of %d\n", level, w, h, threshold, floor,
              peak_max, voters, above);
#endif
    // A peak is the largest cell of its 5 x 5 window (what two 3 x 3 dilations compare with),
    // looked for only in rows where the votes pass kMinPeak; the windows tested lie inside the
    // plane.
    std::vector<float>& window_max = scratch.window_max;
    std::vector<unsigned char>& peak_flags = scratch.peak_flags;
    std::vector<int>& peak_x = scratch.peak_x;
    window_max.resize(w), peak_flags.resize(w), peak_x.resize(static_cast<size_t>(w) + 1);
    // Full-resolution pixels per working pixel (Candidate::full_point maps the peaks there).
    const double base = scale / static_cast<double>(1 << level);
    for (int y = 2; y < h - 2; ++y) {
        if (!row_may_peak[y]) continue;
        const float* s = smooth.ptr<float>(y);
        const int peaks = row_peaks(smooth, y, kMinPeak, window_max.data(), peak_flags.data(), peak_x.data());
        for (int k = 0; k < peaks; ++k) {
            const int x = peak_x[k];
            // Sub-cell peak position from the neighbours (parabola per axis).
            const double ox = peak_offset(s[x - 1], s[x], s[x + 1]);
            const double oy = peak_offset(smooth.ptr<float>(y - 1)[x], s[x], smooth.ptr<float>(y + 1)[x]);
            Candidate c;
            c.level0_scale = base;
            c.center = c.full_point(cv::Point2d(x + ox, y + oy), level);
            c.diameter_lo = kLevelMinDiameter * scale;
            c.diameter_hi = kLevelMaxDiameter * scale;
            c.score = s[x] / (4.f * floor + 4.f * kVotersPerEdgePixel);
            c.prominence = s[x] / (4.f * local_floor(x, y) + 4.f * kVotersPerEdgePixel);
            c.levels = 1 << level;
            c.best_level = level;
            out.push_back(c);
        }
    }
}

}  // namespace appclip::vision
