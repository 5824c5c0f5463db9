#include "detector.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "../format/format_tables.hpp"
#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "homography.hpp"
#include "pyramid.hpp"
#include "stage_clock.hpp"

namespace appclip::vision {
namespace {

constexpr int kMaxCandidates = 24;
constexpr int kCandidateBudget = 8;
constexpr int kCandidatesPerCode = 4;
// A code the search reports failed still takes this many more candidates on it (without the
// drawing fit, which its failed read tried there): an outline of its logo disc or a vote
// peak off its centre can fit a plane a ring off and read it as failed, where a later
// candidate's plane decodes (std `mirrored_00112`, `hard_00142`, `hard_00212`: decoded by
// the 2nd to 7th candidate there). As many as the vote peaks' budget: with 3, two of the three
// read.
constexpr int kFailedCodeRereads = kCandidateBudget;
constexpr int kOpenToSearch = std::numeric_limits<int>::max();   // a hint's unread code (FoundCode)
constexpr int kEllipseCandidates = 3;
// The working level's outlines come last; ranked by their rings, the first is the one a
// steep code's rim gives (std, held2, small2: reading three instead of one decodes no more).
// They are searched for (edges, contours and ring checks on 4x the half-size level's
// pixels) only in frames where nothing has been decoded by then: what they give that
// nothing else does is a steep or small code's rim in a frame with no other code read
// (std: 16 of the 18 codes only they read). Beside codes read, the search took a fifth of a
// 720p camera frame's instructions for 2 of std multi's 462 codes.
constexpr int kFineEllipseCandidates = 1;
// Once a code is read: the strongest vote peaks past the ranked ones and off the codes read
// (kRefillPeaks of them) are ranked by their rings (Locator::refill), and those scoring at
// least kMinRefillScore read, up to kRefillReads more after each code (see detect). Codes
// missed that way scored 1.6-2.3 (std multi); clutter in frames with one code up to ~1.2
// (std camera) and 1.34 beside several; ranking 8 instead of 4 read no more codes for +1 %
// instructions on 720p camera frames.
constexpr int kRefillPeaks = 4;
constexpr float kMinRefillScore = 1.4f;
constexpr int kRefillReads = 3;
// Once a code is decoded, further vote peaks are read only from this ring score: every
// second code std's vote peaks read scored 1.35 or more, the clutter read after a code a
// median 1.13 (90 % under 1.35). The refill asks more (kMinRefillScore): its peaks are the
// ones the votes ranked low.
constexpr float kMinScoreOnceRead = 1.3f;
// An outline whose ring check (OutlineRingCheck) scores under this is read as the rim only,
// not as the logo's disc: 80 % of std's outlines that held no code scored under it and 10 %
// of those read; none of those few read as a logo's disc (std, held2, held3, probes, small2).
// Once a code is decoded such outlines are not read at all: of 1,390 std and held2 frames'
// (multi, camera, small, mirrored, occluded, clean), 732 outlines read after a code were weak
// and read no code, and the 12 further codes they read were read by vote peaks without them.
constexpr float kWeakOutlineRings = 0.1f;
// Size ranges tried per vote peak: three levels, then the same with the other polarity.
constexpr int kVoteAttempts = 6;
// Vote peaks around one code refine to one centre, read once: centres this near (level
// pixels of the peak's voted level) are the same.
constexpr double kSameRefinedCentre = 1.5;
// Candidates per frame that acquire_unread aligns when the edge fit finds nothing.
constexpr int kAcquisitions = 2;
// When every hint was followed, a full search still runs on one frame in this many, so new
// codes entering a tracked scene are found within a few frames.
constexpr unsigned kFullSearchEvery = 4;
// Those searches look for codes from kRefreshMinDiameter px (or the options' size if
// larger) on all but one in kFineRefreshEvery: sessions ask for codes from 20 px, which
// means a full-resolution search at 720p, 4x the pixels and most of a tracked scene's time.
constexpr double kRefreshMinDiameter = 40;
constexpr unsigned kFineRefreshEvery = 4;
// Tracked frames a code may go unread before its drawing fit runs on one frame in
// kDrawingEvery (see the hint loop in detect).
constexpr int kDrawingPatience = 8;
constexpr int kDrawingEvery = 4;
// Outlines are looked for down to ~2 frame pixels per level pixel, where a steep code's rim
// stands apart from ring 5. A working level at full resolution (sessions, which look for
// codes from 20 px) has that at half size already; searching it too would double the cost.
constexpr double kFinestOutlineScale = 1.5;
// Frame pixels per pixel of the level searched for outlines to acquire (see detect).
constexpr double kCoarseEllipseScale = 4.0;

// Pixels the hints' codes can be read from (clipped to the frame), out to `reach` code
// units from their centres; false when a hint's plane reaches the horizon there, or no
// pixel is left.
bool hinted_region(const acc_image_view& view, const acc_search_hint* hints, int hint_count, double reach,
                   cv::Rect& region) {
    constexpr int kMarginPx = 8;
    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
    for (int i = 0; i < hint_count; ++i) {
        cv::Matx33d h;
        for (int j = 0; j < 9; ++j) h.val[j] = hints[i].homography[j];
        h = h * svg_from_centred();
        for (int corner = 0; corner < 4; ++corner) {
            const double u = corner & 1 ? reach : -reach, v = corner & 2 ? reach : -reach;
            const double w = h(2, 0) * u + h(2, 1) * v + h(2, 2);
            // Behind the camera or at the horizon: no bounded region.
            if (!(w > 1e-9)) return false;
            const cv::Point2d p = apply(h, u, v);
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) return false;
            x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
        }
    }
    x0 = std::max(0.0, x0 - kMarginPx), y0 = std::max(0.0, y0 - kMarginPx);
    x1 = std::min<double>(view.width, x1 + kMarginPx + 2), y1 = std::min<double>(view.height, y1 + kMarginPx + 2);
    if (!(x1 > x0 && y1 > y0)) return false;
    region = cv::Rect(static_cast<int>(x0), static_cast<int>(y0), static_cast<int>(x1 - x0), static_cast<int>(y1 - y0));
    return true;
}

}  // namespace

acc_detector_options sanitize(const acc_detector_options* in) {
    acc_detector_options o;
    acc_detector_options_default(&o);
    if (in == nullptr) return o;
    if (in->max_codes > 0) o.max_codes = std::min(in->max_codes, 64);
    if (in->min_diameter_px > 0) o.min_diameter_px = std::max(in->min_diameter_px, 16);
    if (in->decimate >= 1.f) o.decimate = std::min(in->decimate, 16.f);
    o.try_mirrored = in->try_mirrored != 0 ? 1 : 0;
    if (in->max_image_pixels > 0) o.max_image_pixels = in->max_image_pixels;
    o.acquire_unread = in->acquire_unread != 0 ? 1 : 0;
    return o;
}

Detector::Detector(const acc_detector_options& options) : options_(options) {
    candidates_.reserve(64);
    found_.reserve(16);
    // The format tables are built once per process (~50-100 ms); build them now, so the
    // first frame's time is the frame's own.
    (void)tables();
}

double Detector::decimation(int width, int height, double min_diameter) const {
    if (options_.decimate >= 1.f) return options_.decimate;
    // Work at ~640 px on the long side, but never so small that the smallest code
    // falls under ~20 working pixels.
    const double by_size = std::max(width, height) / 640.0;
    const double by_code = min_diameter / 20.0;
    return std::max(1.0, std::min(by_size, std::max(1.0, by_code)));
}

namespace {
// Whether an inverse homography (pixels → SVG) puts `point` on its code's disc.
bool on_disc(const cv::Matx33d& inverse, const cv::Point2d& point) {
    const cv::Point2d q = apply(inverse, point.x, point.y);
    return std::hypot(q.x - 400, q.y - 400) < 420;
}
}  // namespace

int Detector::covering(const cv::Point2d& point) const {
    for (size_t i = 0; i < found_.size(); ++i)
        if (on_disc(found_[i].inverse, point)) return static_cast<int>(i);
    return -1;
}

bool Detector::covered_for_search(const cv::Point2d& point) const {
    return std::any_of(found_.begin(), found_.end(),
                       [&](const FoundCode& f) { return f.open_reads == 0 && on_disc(f.inverse, point); });
}

bool Detector::spend_reread(const cv::Point2d& point) {
    bool on_failed = false;
    for (FoundCode& f : found_)
        if (f.open_reads > 0 && f.open_reads != kOpenToSearch && on_disc(f.inverse, point))
            --f.open_reads, on_failed = true;
    return on_failed;
}

cv::Matx33d Detector::inverse_homography(const acc_detection& d) {
    cv::Matx33d h;
    for (int i = 0; i < 9; ++i) h.val[i] = d.homography[i];
    return h.inv();
}

Failure Detector::detect(const acc_image_view& view, const acc_search_hint* hints, int hint_count,
                         acc_detection* detections, int capacity, int* count, acc_frame_stats* stats) {
    const auto t_start = Clock::now();
    acc_frame_stats local{};
    *count = 0;
    found_.clear();
    const int limit = std::min(capacity, options_.max_codes);
    StageTimes times;
    // Colour frames: with every hint's surroundings known, only those are converted to luma
    // now; the rest only when the full search runs (one tracked frame in kFullSearchEvery).
    // The region reaches as far as the ring alignment can move a hint's plane (scale x1.4,
    // centre +60 code units): 1.6 rims either way. Of it, the discs are converted first:
    // all that a tracked code's fit reads unless its plane moves a lot.
    cv::Rect hinted, discs;
    const double rim = CodeGeometry::get().disc_radius;
    const bool regional = hint_count > 0 && hinted_region(view, hints, hint_count, 1.6 * rim, hinted);
    const bool cored = regional && hinted_region(view, hints, hint_count, rim, discs);
    frame_.wrap(view, luma_scratch_, regional ? &hinted : nullptr, cored ? &discs : nullptr);
    rough_.new_frame();
    reader_.new_frame();

    auto report = [&](const acc_detection& d, bool from_hint) {
        // A candidate near a found code's rim can lie outside it under perspective and read
        // the same code again: a code is reported once, decoded if any read decoded it.
        const int same = covering(cv::Point2d(d.center[0], d.center[1]));
        if (same >= 0) {
            if (same < *count && d.state == ACC_STATE_DECODED && detections[same].state != ACC_STATE_DECODED) {
                detections[same] = d;
                found_[same] = {inverse_homography(d), 0};
            }
            return;
        }
        if (*count < limit) detections[(*count)++] = d;
        const int open_reads = d.state == ACC_STATE_DECODED ? 0 : from_hint ? kOpenToSearch : kFailedCodeRereads;
        found_.push_back({inverse_homography(d), open_reads});
    };

    // Hints first: the last frame's homography is already a good starting plane. A hint is
    // followed when this frame reports its code, read or not (unread ones are being fused).
    int hints_followed = 0, hints_read = 0;
    for (int i = 0; i < hint_count && *count < limit; ++i) {
        cv::Matx33d h;
        for (int j = 0; j < 9; ++j) h.val[j] = hints[i].homography[j];
        if (!std::isfinite(cv::determinant(h)) || std::abs(h(2, 2)) < 1e-12) continue;
        const cv::Matx33d centred = h * svg_from_centred();
        if (covered(apply(centred, 0, 0))) continue;
        ++local.candidates;
        FusedTrack& track = accumulator_.match(centred, frame_index_);
        // A code no frame has read for a while (a look-alike, or one too small or noisy)
        // gets the drawing fit, the costliest read (~30 ms on a 110 px code), on one
        // frame in kDrawingEvery only: the fused read below runs on every frame.
        const bool drawing_fit = track.unread_reads < kDrawingPatience || track.unread_reads % kDrawingEvery == 0;
        const ReadOutcome r =
            reader_.read(frame_, centred, 0.0, options_.try_mirrored != 0, scratch_detection_, times, drawing_fit);
        if (r == ReadOutcome::decoded) {
            ProfileAccumulator::restart(track, scratch_detection_);
            ++hints_followed, ++hints_read;
            report(scratch_detection_, true);
            continue;
        }
        ++track.unread_reads;
        // Unread in this frame alone: add it to what the earlier frames of this code saw.
        const ReadOutcome f = reader_.read_fused(frame_, centred, track, accumulator_, options_.try_mirrored != 0,
                                                 fused_detection_, times);
        if (f != ReadOutcome::not_a_code) {
            ++hints_followed;
            if (f == ReadOutcome::decoded) ++hints_read;
            report(fused_detection_, true);
        } else if (r == ReadOutcome::failed) {
            // Reported in another orientation than the sums are kept in: start them afresh.
            ProfileAccumulator::forget(track, centred);
            ++hints_followed;
            report(scratch_detection_, true);
        }
    }

    // Codes already followed are covered (those left unread only for the full search's
    // fresh fits), so a full search looks for new ones: it runs on one frame in
    // kFullSearchEvery, or whenever a hint was lost. With every followed code read, most of
    // those searches look only for codes of kRefreshMinDiameter and up.
    const bool skip_search =
        hint_count > 0 && hints_followed == hint_count && (frame_index_ % kFullSearchEvery) != 0;
    const bool coarse_refresh =
        hint_count > 0 && hints_read == hint_count && (frame_index_ / kFullSearchEvery) % kFineRefreshEvery != 0;
    const double min_diameter =
        coarse_refresh ? std::max(kRefreshMinDiameter, static_cast<double>(options_.min_diameter_px))
                       : static_cast<double>(options_.min_diameter_px);
    // Acquiring (aligning rings where no stroke edge could be traced) is the costliest read:
    // it is for codes too small or noisy to fit, which the coarse refreshes, looking for
    // codes of kRefreshMinDiameter and up, leave to the fine ones. In a refresh it spent
    // ~70 % of the time on clutter (callgrind, long/orbit_001 frames 0-39).
    const bool acquire = options_.acquire_unread != 0 && !coarse_refresh;
    ++frame_index_;
    // A frame narrower than the smallest code looked for holds no code to search for, nor
    // does a working image narrower than the locator's smallest code (a 4 x 16,392 image
    // shrank to 2 columns, too few for its filters: found by the image fuzzer).
    const double f = decimation(view.width, view.height, min_diameter);
    const int shorter_side = std::min(view.width, view.height);
    const bool holds_code = shorter_side >= min_diameter && shorter_side / f >= Locator::kMinCodeDiameter;
    if (!skip_search && holds_code && *count < limit) {
        const auto t_locate = Clock::now();
        frame_.complete_luma(luma_scratch_);
        if (f > 1.0) {
            const int w = std::max(1, static_cast<int>(std::lround(view.width / f)));
            const int hgt = std::max(1, static_cast<int>(std::lround(view.height / f)));
            // Frames of 1,280 px and more shrink by 2 (the default options' cap), smaller ones
            // by less: our own averaging, which allocates nothing once warm (cv::resize, which
            // gives the same pixels, allocates on every call).
            area_shrink_.run(frame_.luma(), cv::Size(w, hgt), work_);
        } else {
            frame_.luma().copyTo(work_);
        }
        const double scale = static_cast<double>(view.width) / work_.cols;
        locator_.locate(frame_.luma(), work_, scale, min_diameter);
        // On the half-size level: the outlines that matter are those of larger, tilted codes.
        // (The working level's come after the vote peaks, when no code has been read.)
        ellipse_candidates_.clear();
        locator_.find_ellipses(locator_.level(1), 2.0 * scale, min_diameter, kEllipseCandidates,
                               ellipse_candidates_);
        const size_t first_fine_outline = ellipse_candidates_.size();
        // Outlines to acquire (codes a few dozen pixels across in strong noise) come out whole
        // only once the noise is averaged down to ~4 frame pixels per level pixel: the level
        // above when the search runs at full resolution (sessions look for codes from 20 px).
        coarse_ellipses_.clear();
        const bool coarse_search = 2.0 * scale < kCoarseEllipseScale;
        if (acquire && coarse_search)
            locator_.find_ellipses(locator_.level(2), 4.0 * scale, min_diameter, kAcquisitions,
                                   coarse_ellipses_);
        local.locate_ms += ms_since(t_locate);

        bool drawing_fit = true;   // off for candidates on a code this search reported failed
        // A plane from an outline (its perspective searched within it) is read with the
        // strokes' polarity left open.
        auto read_outline_plane = [&](const cv::Matx33d& plane, const char* outline) {
            ACC_TRACE("  outline as %s\n", outline);
            return reader_.read(frame_, plane, 0.0, options_.try_mirrored != 0, scratch_detection_, times, drawing_fit);
        };

        // The comb along rays from a candidate's centre gives a first plane, which is then read.
        auto read_traced = [&](const Candidate& c, bool alternative, const char* note) {
            cv::Matx33d h;
            double polarity = 0;
            const auto t_fit = Clock::now();
            const bool rough = rough_.fit(frame_, c, alternative, h, polarity);
            times.fit_ms += ms_since(t_fit);
            ACC_TRACE("  rough %s%s%s\n", rough ? "ok" : "failed", alternative ? " (other polarity)" : "", note);
            if (!rough) return ReadOutcome::not_a_code;
            const ReadOutcome r =
                reader_.read(frame_, h, polarity, options_.try_mirrored != 0, scratch_detection_, times, drawing_fit);
            // A steep code: its rings sit off the affine plane's, within the same outline.
            cv::RotatedRect outline;
            bool is_rim = false;
            if (r != ReadOutcome::not_a_code || !rough_.steep_outline(outline, is_rim)) return r;
            return is_rim ? read_outline_plane(plane_within_rim(frame_, rim_edge_, outline), "steep rim from combs")
                          : read_outline_plane(plane_within_ring_outline(frame_, outline), "steep traced ring");
        };

        // An outline taken as a circle of the code (rim or logo disc).
        auto read_within_outline = [&](const Candidate& c, double radius, const char* circle) {
            const bool rim = radius == CodeGeometry::get().disc_radius;
            return read_outline_plane(rim ? plane_within_rim(frame_, rim_edge_, c.outline)
                                          : plane_within_outline(frame_, c.outline, radius),
                                      circle);
        };

        int acquisitions = acquire ? kAcquisitions : 0;
        // With the coarser level searched as well, the half-size level's outlines get their
        // own acquisitions: a code whose outline only comes out there (steep, or where clutter
        // fills the coarse level's few outlines) is not left without one.
        int half_level_acquisitions = acquire && coarse_search ? kAcquisitions : 0;
        // Vote peaks whose strokes the edge fit traced but could not read get their own
        // acquisitions: the outlines of clutter must not use up a located code's chance.
        int fitted_acquisitions = acquire ? kAcquisitions : 0;
        int budget = kCandidateBudget;
        // A code a few dozen pixels across in noise has no stroke edges to trace, but its
        // outline (or a halo around it) is often the one thing the locator sees whole.
        auto acquire_outline = [&](const Candidate& c, int& budget) {
            --budget;
            ACC_TRACE("  acquire outline %.1f,%.1f d=[%.0f,%.0f]\n", c.center.x, c.center.y, c.diameter_lo, c.diameter_hi);
            // A tilted code's rings follow its outline's ellipse, not circles. The symmetric
            // map (no turn, unlike affine_from_ellipse) keeps the angular sampling grid where
            // it is: turning it moved a weak sequence's decode from frame 17 to 37.
            const double major = c.outline_major(), a = c.outline.angle * kDeg;
            const double sw = c.outline.size.width / major, sh = c.outline.size.height / major;
            const cv::Matx22d axes(std::cos(a), -std::sin(a), std::sin(a), std::cos(a));
            const cv::Matx22d shape = axes * cv::Matx22d(sw, 0, 0, sh) * axes.t();
            return reader_.acquire(frame_, c.center, c.diameter_lo, c.diameter_hi, shape, options_.try_mirrored != 0,
                                   scratch_detection_, times);
        };
        const auto any_decoded = [&] {
            return std::any_of(detections, detections + *count,
                               [](const acc_detection& d) { return d.state == ACC_STATE_DECODED; });
        };
        // An elliptical outline's centre is right even under steep tilt. `fine`: found on the
        // working level, where the comb is not run as if the outline were the logo's disc
        // (a code 3.7 times its size would have shown its own outline at half size).
        auto read_outline = [&](const Candidate& c, bool fine) {
            if (*count >= limit || covered_for_search(c.center)) return;
            if (c.score < kWeakOutlineRings && any_decoded()) return;
            drawing_fit = !spend_reread(c.center);
            ++local.candidates;
            ACC_TRACE("ellipse %.1f,%.1f d=[%.0f,%.0f]\n", c.center.x, c.center.y, c.diameter_lo, c.diameter_hi);
            // The outline is the rim (or a card around the code): traced by the comb, then,
            // for strokes too blurred or foreshortened for the comb (or a ring traced wrongly),
            // taken as the rim directly; failing that, the logo's disc inside it, whose size
            // gives the code's.
            ReadOutcome r = read_traced(c, false, "");
            if (r == ReadOutcome::not_a_code) r = read_traced(c, true, "");
            if (r == ReadOutcome::not_a_code) r = read_within_outline(c, CodeGeometry::get().disc_radius, "rim");
            if (r == ReadOutcome::not_a_code && c.score >= kWeakOutlineRings) {
                Candidate as_logo = c;
                const double logo_to_rim = CodeGeometry::get().disc_radius / kLogoDiscRadius;
                as_logo.diameter_lo = 0.95 * c.outline_major() * logo_to_rim;
                as_logo.diameter_hi = 1.05 * c.outline_major() * logo_to_rim;
                if (!fine) r = read_traced(as_logo, false, " (as logo)");
                if (r == ReadOutcome::not_a_code && !fine) r = read_traced(as_logo, true, " (as logo)");
                // Close up and tilted, the perspective across the code is more than the comb's
                // affine start can take; the logo's disc fixes it as the rim does above.
                if (r == ReadOutcome::not_a_code) r = read_within_outline(c, kLogoDiscRadius, "logo disc");
            }
            int& budget = coarse_search ? half_level_acquisitions : acquisitions;
            if (r == ReadOutcome::not_a_code && budget > 0 && !fine) r = acquire_outline(c, budget);
            ACC_TRACE("outline result %d rings %.3f\n", static_cast<int>(r), c.score);
            if (r != ReadOutcome::not_a_code) report(scratch_detection_, false);
        };

        // The half-size level's outlines first, then those to acquire.
        for (size_t i = 0; i < first_fine_outline; ++i) read_outline(ellipse_candidates_[i], false);
        for (const Candidate& c : coarse_ellipses_) {
            if (*count >= limit || acquisitions <= 0) break;
            if (covered_for_search(c.center)) continue;
            spend_reread(c.center);
            ++local.candidates;
            if (acquire_outline(c, acquisitions) != ReadOutcome::not_a_code) report(scratch_detection_, false);
        }

        // The vote peaks off the codes the outlines gave, ranked by their rings (most of a read
        // code's peaks lie on it: their ring checks are spared).
        // Whether a point lies on a code this search has to pass over (ranking and refill).
        const std::function<bool(const cv::Point2d&)> on_found = [this](const cv::Point2d& p) {
            return covered_for_search(p);
        };
        const auto t_rank = Clock::now();
        locator_.rank(on_found, kMaxCandidates, kCandidateBudget, candidates_);
        refined_tried_.clear();
        local.locate_ms += ms_since(t_rank);

        // A vote peak: its comb, fit and read over its levels and polarities, then (sessions)
        // acquisition. Reported when it is a code; returns how it read.
        auto read_vote_peak = [&](const Candidate& c) {
            ++local.candidates;
            int tried = 0, tried_alt = 0;
            ACC_TRACE("candidate %.1f,%.1f d=[%.0f,%.0f] score %.1f\n", c.center.x, c.center.y, c.diameter_lo,
                      c.diameter_hi, c.score);
            // One size range at a time, the strongest level first, then the others from
            // coarse to fine: a merged range would make the comb search coarse. A range
            // whose fit reads as no code gives way to the next.
            Candidate ranged = c;
            // One level's size range, with the slack every read of a vote peak allows.
            auto range_at = [&](int level) {
                ranged.diameter_lo = 0.8 * c.level_lo(level);
                ranged.diameter_hi = 1.25 * c.level_hi(level);
            };
            int coarsest = 0;
            for (int l = 0; l < 16; ++l)
                if (c.levels & (1 << l)) coarsest = l;
            const int order[3] = {c.best_level, c.voted_level, coarsest};
            ReadOutcome r = ReadOutcome::not_a_code;
            const size_t unread_before = reader_.unread_plane_count();
            for (int attempt = 0; attempt < kVoteAttempts && r == ReadOutcome::not_a_code; ++attempt) {
                // Each level with its preferred polarity, then with the other (same scan).
                const int level = order[attempt / 2];
                const bool alternative = (attempt % 2) == 1;
                if (!alternative && (tried & (1 << level))) continue;
                if (alternative && !(tried & (1 << level))) continue;
                if (alternative && (tried_alt & (1 << level))) continue;
                (alternative ? tried_alt : tried) |= 1 << level;
                range_at(level);
                r = read_traced(ranged, alternative, "");
            }
            // A vote peak off a tilted code's centre (on its evolutes) can lead the rough fit
            // onto an inner ring: from the centre of the symmetric edge pairs around it, once.
            cv::Point2d refined;
            if (r == ReadOutcome::not_a_code && locator_.refined_centre(c, refined) &&
                std::none_of(refined_tried_.begin(), refined_tried_.end(), [&](const cv::Point2d& p) {
                    return cv::norm(p - refined) < kSameRefinedCentre * c.level0_scale * (1 << c.voted_level);
                })) {
                refined_tried_.push_back(refined);
                ranged.center = refined;
                range_at(c.best_level);
                r = read_traced(ranged, false, " (symmetric centre)");
            }
            if (r == ReadOutcome::not_a_code && fitted_acquisitions > 0 && reader_.unread_plane_count() > unread_before) {
                --fitted_acquisitions;
                ACC_TRACE("  acquire the fitted plane\n");
                r = reader_.acquire_plane(frame_, reader_.unread_plane(unread_before), options_.try_mirrored != 0,
                                          scratch_detection_, times);
            }
            if (r == ReadOutcome::not_a_code && acquisitions > 0) {
                --acquisitions;
                // The size its strongest vote peak stands for: one level's range.
                range_at(c.voted_level);
                r = reader_.acquire(frame_, c.center, ranged.diameter_lo, ranged.diameter_hi, cv::Matx22d::eye(),
                                    options_.try_mirrored != 0, scratch_detection_, times);
            }
            if (r != ReadOutcome::not_a_code) report(scratch_detection_, false);
            return r;
        };

        // After each code read, a few more candidates may hold further codes; past them the
        // list is clutter. Once a code is decoded, only peaks that look much like rings are
        // read (the list is in score order, but for the most prominent peak: Locator::rank).
        for (const Candidate& c : candidates_) {
            if (*count >= limit || budget <= 0) break;
            // (Not a break: the most prominent peak may come out of score order. Tested before
            // the cover, which walks the codes found, for the clutter that follows a decode.)
            if (c.score < kMinScoreOnceRead && any_decoded()) continue;
            if (covered_for_search(c.center)) continue;
            drawing_fit = !spend_reread(c.center);
            --budget;
            if (read_vote_peak(c) == ReadOutcome::decoded) budget = kCandidatesPerCode;
        }
        // The codes read held ranked places (their rings and logos vote too); in frames with
        // large codes a smaller one's peaks rank far down the votes (std `multi_00035`: 98th
        // of the raw peaks, 2nd once those on the codes read are left out). The strongest vote
        // peaks past the ranked ones and off the codes read are ranked by their rings, and the
        // most code-like read.
        if (any_decoded() && *count < limit) {
            locator_.refill(on_found, kRefillPeaks, refill_);
            int refill_budget = kRefillReads;
            for (const Candidate& c : refill_) {
                if (*count >= limit || refill_budget <= 0 || c.score < kMinRefillScore) break;
                if (covered_for_search(c.center)) continue;
                drawing_fit = !spend_reread(c.center);
                --refill_budget;
                ACC_TRACE("refill:\n");
                if (read_vote_peak(c) == ReadOutcome::decoded) refill_budget = kRefillReads;
            }
        }

        // The working level's outlines last, and only while no code is decoded (see
        // kFineEllipseCandidates). There a steep code's rim no longer runs into ring 5 (a few
        // pixels inside it across the minor axis), as it does at half size.
        if (scale >= kFinestOutlineScale && *count < limit && !any_decoded()) {
            ACC_TRACE("working-level outlines:\n");
            const auto t_fine = Clock::now();
            locator_.find_ellipses(locator_.level(0), scale, min_diameter, kFineEllipseCandidates, ellipse_candidates_);
            local.locate_ms += ms_since(t_fine);
        }
        for (size_t i = first_fine_outline; i < ellipse_candidates_.size(); ++i) read_outline(ellipse_candidates_[i], true);
    }

    local.fit_ms = times.fit_ms;
    local.sample_ms = times.sample_ms;
    local.decode_ms = times.decode_ms;
    local.total_ms = ms_since(t_start);
    if (stats != nullptr) *stats = local;
    return Failure{};
}

}  // namespace appclip::vision
