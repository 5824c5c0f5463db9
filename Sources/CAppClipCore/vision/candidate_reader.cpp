#include "candidate_reader.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "../format/codec.hpp"
#include "../format/generated/format_tables_data.hpp"
#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "homography.hpp"
#include "stage_clock.hpp"
#include "logo.hpp"
#include "plane_polish.hpp"
#include "position_sampling.hpp"

namespace appclip::vision {
namespace {

constexpr int kMaxHypotheses = 6;
// An unread plane is polished on its rings (plane_polish.hpp) when its rings lie at most
// this many pixels apart across its minor axis and the edge fit's points scattered (rms in
// code units): a plane read from clear strokes is where they put it. It is read again when
// the polish raised the ring contrast by kPolishMinGain (the planes it brought to a decode
// over the frame sets gained 1.7-2.2x; most planes in frames without a code gain under 1.3x).
constexpr double kPolishMaxPitchPx = 6.5;
// A read that failed (surely a code, see read_plane) is read again from its plane shifted by
// this many code units (of 800 across: 0.4 % of the diameter, a third of a pixel on a 90 px
// code) to each of the eight neighbours: at a few pixels per ring, which pixels a sample's
// footprint takes is what decides a doubtful bit, and a shift that small keeps the plane as
// good as the fit (std camera_00117 does not read from its true plane, but from 11 of 27 planes
// shifted by this much or scaled by 1 %). Over std's fitted planes that read as failed, the
// shifts decoded 13 more codes (hard, occluded, small), none wrong. Each extra read of a code
// is another chance for a wrong payload to pass, so a decode from them asks for more checking
// (kRepeatedReadCheckBits).
constexpr double kShiftUnits = 3.0;
constexpr double kPolishMinRms = 2.5;
constexpr double kPolishMinGain = 1.5;
constexpr double kPolishStageGain = 1.05;   // the major axis's search over the minor's, to be read again
// Codes read so far score 0.45..0.85 (mean phase agreement of the five rings); clutter
// and concentric look-alikes stay under ~0.2. Small, blurred or tilted codes score
// 0.06..0.28 and still decode, so every plane from kMinRotationScoreRead up is read; an
// unread one is reported as failed only from 0.3 (see code_like in read).
constexpr double kMinRotationScoreRead = 0.06;
// Alignment t asked of a code acquired from a bare centre: the shift search tries many
// planes, so the best of them stands out further by chance than one plane would.
constexpr double kMinAcquireT = 16;
constexpr int kMaxAcquireTemplateWrong = 0;
// A tracked code's hint this far (pixels) from where it was last reported is also tried
// from there when its rings are not found.
constexpr double kRetryFromLastPx = 1.0;
// Unused checking asked of a decode from a code read more than once (profiles fused over
// frames, a failed plane shifted), before the term for the reads: + log2 of their number.
constexpr double kRepeatedReadCheckBits = 26;
// Rotation hypotheses read by fitting the drawing when the profiles could not be read.
constexpr size_t kDrawingHypotheses = 2;
// ... and on codes fitted on bins (about 280 px across and larger): over std, held2, held3,
// small2 and the probes every such fit that decoded was its place's first, of the first
// hypothesis (5 of 5), while unreadable glare codes paid for four (std hard_00117: 353 M
// instructions before the binned fit, 761 M with four, 452 M with one).
constexpr size_t kBinnedDrawingHypotheses = 1;
constexpr int kMaxBinnedDrawingsPerPlace = 1;
// Template bits the profiles may get confidently wrong before the drawing fit is tried:
// unread codes show 0 (sometimes 2), candidates in frames without a code mostly 2 to 4.
constexpr int kMaxDrawingTemplateWrong = 1;
// ... and bits they must get confidently right (in a hypothesis with at most the above
// wrong): with most of the code's bins unreliable (glare-like clutter, a washed plane)
// nothing is wrong because nothing is seen, and the drawing fit ran on such planes again
// and again (8 fits, 300 ms, in one std negative frame). Over std, held2, small2 and a
// third hard set (759 drawing fits), every fit that decoded had 6 or more right; 265 of the
// fits had 4 or fewer.
constexpr int kMinDrawingTemplateRight = 5;
// Drawing fits that may fail on planes centred at one place (within kSamePlaceUnits code
// units of their centres) before that place gets no more: candidates around one clutter
// object refit it again and again (5 fits, 200 ms, in a std negative frame). Of those 759
// fits, the ones that decoded came first or second at their place.
constexpr int kMaxDrawingsPerPlace = 2;
constexpr double kSamePlaceUnits = 100;
// Planes whose rim and centre land within this many pixels of each other read alike.
// Several candidates around one unreadable code (vote peaks, size ranges, outlines) often
// refine to the same plane; reading it again costs the drawing fit again, for nothing.
constexpr double kSamePlanePixels = 0.25;

std::uint32_t pack_rgb(const cv::Vec3f& c) {
    auto ch = [](float v) { return static_cast<std::uint32_t>(std::clamp(std::lround(v), 0L, 255L)); };
    return ch(c[0]) << 16 | ch(c[1]) << 8 | ch(c[2]);
}

// Fills the geometric fields from the final centred homography.
void fill_geometry(const cv::Matx33d& centred, acc_detection& d) {
    cv::Matx33d h = centred * centred_from_svg();
    h *= 1.0 / h(2, 2);
    for (int i = 0; i < 9; ++i) d.homography[i] = h.val[i];
    const cv::Point2d c = apply(h, 400, 400);
    d.center[0] = c.x;
    d.center[1] = c.y;
    static const double rim[4][2] = {{400, 0}, {800, 400}, {400, 800}, {0, 400}};
    for (int i = 0; i < 4; ++i) {
        const cv::Point2d p = apply(h, rim[i][0], rim[i][1]);
        d.corners[i][0] = p.x;
        d.corners[i][1] = p.y;
    }
    // A mirror image reverses the code's orientation in the picture.
    const cv::Point2d px = apply(h, 401, 400), py = apply(h, 400, 401);
    d.mirrored = ((px.x - c.x) * (py.y - c.y) - (px.y - c.y) * (py.x - c.x)) < 0 ? 1 : 0;
}

// How many of the eight constant template bits the observation gets confidently wrong, and
// how many confidently right. A real code read at its true rotation shows the template byte
// even when the rest of it is too damaged to decode; a look-alike with the same rings does not.
struct TemplateEvidence {
    int wrong = 0;   // bits confidently the other way
    int right = 0;   // bits confidently as the template has them
};
TemplateEvidence template_evidence(const acc_ring_observation& o) {
    constexpr int kTemplateStart = 128 - 8;  // pre-permutation layout: metadata, gaps, template
    TemplateEvidence e;
    for (int i = 0; i < 8; ++i) {
        const int position = appclip::data::gaps_bits_order_lut[kTemplateStart + i];
        const int expected = (appclip::data::template_byte >> i) & 1;  // 1 = no arc starts here
        const float p = o.p_arc_start[position];
        if (expected == 1 ? p > 0.75f : p < 0.25f) ++e.wrong;
        if (expected == 1 ? p < 0.25f : p > 0.75f) ++e.right;
    }
    return e;
}

}  // namespace

ReadOutcome CandidateReader::read(const Frame& frame, cv::Matx33d h, double polarity, bool try_mirrored,
                                  acc_detection& out, StageTimes& times, bool drawing_fit) {
    auto t0 = Clock::now();
    ACC_TRACE("  H %.6g %.6g %.6g %.6g %.6g %.6g %.6g %.6g %.6g (initial)\n", h.val[0], h.val[1], h.val[2], h.val[3],
              h.val[4], h.val[5], h.val[6], h.val[7], h.val[8]);
    FitQuality quality;
#ifdef ACC_VISION_DEBUG
    // Debug builds: ACC_DEBUG_PLANE_AS_GIVEN=1 reads every plane as given, as if fitted, so
    // that `detect_main --truth-only` reads the exact true plane (what is lost to the fit
    // against what is lost to reading).
    if (std::getenv("ACC_DEBUG_PLANE_AS_GIVEN") != nullptr) {
        quality.points = 100;
        quality.rms = 0.5;
        for (double& c : quality.coverage) c = 1;
        return read_plane(frame, h, quality, try_mirrored, drawing_fit, out, times);
    }
#endif
    const bool fitted = fit_.refine(frame, h, polarity, quality);
    times.fit_ms += ms_since(t0);
    ACC_TRACE("  fit %s: points %d rms %.2f contrast %.1f coverage %.2f %.2f %.2f %.2f %.2f\n", fitted ? "ok" : "failed",
              quality.points, quality.rms, quality.contrast, quality.coverage[0], quality.coverage[1],
              quality.coverage[2], quality.coverage[3], quality.coverage[4]);
    ACC_TRACE("  H %.6g %.6g %.6g %.6g %.6g %.6g %.6g %.6g %.6g\n", h.val[0], h.val[1], h.val[2], h.val[3], h.val[4],
              h.val[5], h.val[6], h.val[7], h.val[8]);
    if (!fitted) return ReadOutcome::not_a_code;
    if (read_before(h)) {
        ACC_TRACE("  plane read before in this frame: no code\n");
        return ReadOutcome::not_a_code;
    }
    ReadOutcome outcome = read_plane(frame, h, quality, try_mirrored, drawing_fit, out, times);
    if (outcome != ReadOutcome::decoded && quality.rms >= kPolishMinRms && minor_ring_pitch(h) <= kPolishMaxPitchPx &&
        read_polished(frame, h, quality, try_mirrored, drawing_fit, times)) {
        out = other_plane_detection_;
        return ReadOutcome::decoded;
    }
    // Shifted reads go with the drawing fit (off where a read's place was tried before: a
    // code's rereads, a tracked code between drawing frames).
    if (outcome == ReadOutcome::failed && drawing_fit && read_shifted(frame, h, quality, try_mirrored, times)) {
        out = other_plane_detection_;
        return ReadOutcome::decoded;
    }
    if (outcome == ReadOutcome::not_a_code) unread_planes_.push_back(h.inv());
    return outcome;
}

bool CandidateReader::read_shifted(const Frame& frame, const cv::Matx33d& h, const FitQuality& quality,
                                    bool try_mirrored, StageTimes& times) {
    // + log2 of the nine reads (the plane and its eight shifts), 3.1699, rounded up.
    const double min_check_bits = kRepeatedReadCheckBits + 3.17;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0) continue;
            const cv::Matx33d shifted = h * cv::Matx33d(1, 0, kShiftUnits * dx, 0, 1, kShiftUnits * dy, 0, 0, 1);
            // Without the drawing fit: the failed read tried it on the plane itself.
            const bool drawing_fit = false;
            if (read_plane(frame, shifted, quality, try_mirrored, drawing_fit, other_plane_detection_, times,
                           min_check_bits) == ReadOutcome::decoded) {
                ACC_TRACE("  shifted plane %+d %+d decoded\n", dx, dy);
                return true;
            }
        }
    return false;
}

bool CandidateReader::read_polished(const Frame& frame, const cv::Matx33d& h, const FitQuality& quality,
                                    bool try_mirrored, bool drawing_fit, StageTimes& times) {
    auto t0 = Clock::now();
    RingPolish polish;
    const bool started = polish.start(frame, h);
    times.fit_ms += ms_since(t0);
    if (!started) return false;
    const double before = std::abs(polish.start_contrast());
    double reached = 0;
    // The minor axis first; then, from the fitted plane again, both axes (read only when that
    // found more: the wider search also finds chance maxima, and one read first keeps what
    // the narrow search gives).
    for (const PolishAxes axes : {PolishAxes::minor, PolishAxes::both}) {
        t0 = Clock::now();
        cv::Matx33d polished;
        const double after = std::abs(polish.polish(frame, axes, polished));
        times.fit_ms += ms_since(t0);
        ACC_TRACE("  polish (%s): pitch %.2f px, rms %.2f, ring contrast %.1f -> %.1f\n",
                  axes == PolishAxes::minor ? "minor axis" : "both axes", minor_ring_pitch(h), quality.rms, before, after);
        const bool worth_reading = after >= kPolishMinGain * before && after >= kPolishStageGain * reached;
        reached = std::max(reached, after);
        // Only a decode replaces the first read: a failure reported from the polished plane
        // would cover the code, and a later candidate might still read it.
        if (worth_reading && read_plane(frame, polished, quality, try_mirrored, drawing_fit, other_plane_detection_,
                                        times) == ReadOutcome::decoded)
            return true;
    }
    return false;
}

bool CandidateReader::read_before(const cv::Matx33d& h) const {
    const double rim = CodeGeometry::get().disc_radius;
    for (const cv::Matx33d& inverse : unread_planes_) {
        // Eight rim points and the centre of `h`, taken back through the other plane: the
        // rim must stay on its rim and the centre on its centre (an image circle and its
        // centre fix the plane up to a rotation, which reading searches anyway).
        bool same = true;
        for (int k = 0; k <= 8 && same; ++k) {
            const double x = k < 8 ? rim * std::cos(k * kPi / 4) : 0.0, y = k < 8 ? rim * std::sin(k * kPi / 4) : 0.0;
            const cv::Point2d p = apply(h, x, y);
            const cv::Point2d q = apply(inverse, p.x, p.y);
            const double off_units = k < 8 ? std::abs(std::hypot(q.x, q.y) - rim) : std::hypot(q.x, q.y);
            same = off_units * local_scale(h, x, y) <= kSamePlanePixels;
        }
        if (same) return true;
    }
    return false;
}

bool CandidateReader::drawn_here_enough(const cv::Matx33d& h) const {
    const cv::Point2d centre = apply(h, 0, 0);
    int failed_here = 0;
    for (const cv::Matx33d& inverse : failed_drawings_) {
        const cv::Point2d q = apply(inverse, centre.x, centre.y);
        if (std::hypot(q.x, q.y) < kSamePlaceUnits) ++failed_here;
    }
    return failed_here >= (DrawingFit::bin_size(h) > 1 ? kMaxBinnedDrawingsPerPlace : kMaxDrawingsPerPlace);
}

ReadOutcome CandidateReader::read_plane(const Frame& frame, const cv::Matx33d& h, const FitQuality& quality,
                                        bool try_mirrored, bool drawing_fit, acc_detection& out, StageTimes& times,
                                        double min_check_bits) {
    auto t0 = Clock::now();
    CodePalette palette;
    const bool sampled = sample_rings(frame, h, profiles_);
    if (!sampled || !rotations(profiles_, palette, try_mirrored)) {
        ACC_TRACE("  %s\n", sampled ? "no palette or rotation" : "rings not sampled");
        times.sample_ms += ms_since(t0);
        return ReadOutcome::not_a_code;
    }
    times.sample_ms += ms_since(t0);
    ACC_TRACE("  palette contrast %.1f third %.2f; rotation best %.3f; unreliable bins %d\n", palette.contrast,
              palette.third_level, hypotheses_[0].score,
              static_cast<int>(std::count(profiles_.reliable.begin(), profiles_.reliable.end(), 0)));
    // Gaps that agree on no rotation: rings perhaps, but not a code's. Gaps that hardly
    // agree (blur or noise on a small code) are still read: the codec's checks guard what
    // is read from them.
    if (hypotheses_[0].score < kMinRotationScoreRead) return ReadOutcome::not_a_code;

    t0 = Clock::now();
    Reading reading = try_hypotheses(profiles_, palette, min_check_bits, &h);
    // Background-coloured stretches along the rings as erasures: only a decode counts from
    // them. A failure keeps the first reading's evidence (with the stretches erased, a plane
    // a few pixels off a code can look enough like one to be reported, and cover the code).
    if (!reading.decoded && erase_background_runs(profiles_, palette.ring_third_level, palette_scratch_.background_runs)) {
        Reading erased = try_hypotheses(profiles_, palette, min_check_bits, &h);
        if (erased.decoded) reading = erased;
    }
    // The drawing fit costs milliseconds: only for what shows the template byte already.
    if (!reading.decoded && drawing_fit && reading.template_wrong <= kMaxDrawingTemplateWrong &&
        reading.template_right >= kMinDrawingTemplateRight && !drawn_here_enough(h)) {
        try_drawing(frame, h, palette, reading);
        if (!reading.decoded) failed_drawings_.push_back(h.inv());
    }
    times.decode_ms += ms_since(t0);
    fill(frame, h, palette, reading, false, out);
    if (reading.decoded) {
        out.confidence = static_cast<float>(std::clamp(0.55 + 0.3 * reading.result.margin + 0.3 * reading.hyp.score, 0.0, 1.0));
        return ReadOutcome::decoded;
    }
    // Located but unread: only worth reporting when the rings and their gaps are clearly there.
    const double coverage = (quality.coverage[0] + quality.coverage[1] + quality.coverage[2] +
                             quality.coverage[3] + quality.coverage[4]) / kRings;
    const double code_like = std::min({1.0, hypotheses_[0].score / 0.5, reading.stats.gap_separation / 6.0,
                                       coverage / 0.6, 3.0 / std::max(1.0, quality.rms)});
    out.confidence = static_cast<float>(0.5 * code_like);
    // Failures are reported only for what is surely a code: rings, gaps on the position
    // grid, and the template byte at some tried rotation.
    return code_like > 0.6 && reading.template_wrong <= 1 ? ReadOutcome::failed : ReadOutcome::not_a_code;
}

float CandidateReader::aligned_confidence(const Reading& r, const AlignmentQuality& aligned) {
    if (r.decoded) return static_cast<float>(std::clamp(0.5 + 0.3 * r.result.margin, 0.0, 1.0));
    return static_cast<float>(0.25 * std::min(1.0, std::abs(aligned.t_stat) / 40.0));
}

bool CandidateReader::rotations(RingProfiles& profiles, CodePalette& palette, bool try_mirrored) {
    if (!cluster_palette(profiles, palette, palette_scratch_)) return false;
    search_rotation(profiles, palette, try_mirrored, kMaxHypotheses, hypotheses_);
    return !hypotheses_.empty();
}

namespace {

// The codec's verdict on one observation, refused when it leaves less than
// `min_check_bits` of unused checking. `urls` decompresses the payload's URL (a check).
acc_status decode_observation(const acc_ring_observation& observation, double min_check_bits,
                              UrlDecompressor& urls, acc_decode_result& result, acc_error& error) {
    const Result<acc_decode_result> decoded = appclip::decode_observation(observation, urls);
    acc_status status = decoded.ok() ? report_ok(&error) : report(decoded.failure(), &error);
    if (status == ACC_OK) result = decoded.value();
    if (status == ACC_OK && (result.version == 8 ? min_check_bits > 0 : result.check_bits < min_check_bits))
        status = ACC_E_UNCORRECTABLE;  // accepted by the codec, but not with enough checking to spare
    return status;
}

#ifdef ACC_VISION_DEBUG
void trace_bits(const acc_ring_observation& observation) {
    ACC_TRACE("  bits ");
    for (int i = 0; i < ACC_RING_POSITIONS; ++i)
        ACC_TRACE("%c", observation.p_arc_start[i] > 0.8f ? '1' : observation.p_arc_start[i] < 0.2f ? '0' : '?');
    ACC_TRACE(" ");
    for (int i = 0; i < ACC_RING_POSITIONS; ++i)
        ACC_TRACE("%c", observation.p_third[i] > 0.8f ? '1' : observation.p_third[i] < 0.2f ? '0' : '?');
    ACC_TRACE("\n");
    // The soft bits themselves, for tools (tools/dev/glare_diag.py).
    if (std::getenv("ACC_TRACE_SOFT") != nullptr) {
        ACC_TRACE("  soft arc");
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) ACC_TRACE(" %.3f", observation.p_arc_start[i]);
        ACC_TRACE("\n  soft third");
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) ACC_TRACE(" %.3f", observation.p_third[i]);
        ACC_TRACE("\n");
    }
}
#else
void trace_bits(const acc_ring_observation&) {}
#endif

// Light over a part of the code (a highlight) when the template shows the rotation is
// right: the colours read again allowing for it, added and then as a veil, then with
// thresholds learned around each position (narrow, then wide: a highlight's falloff can be
// steeper or gentler than one width follows), with the positions placed through `fitted`
// (the plane the measures were taken on; none for profiles fused over frames, whose light is
// no one frame's). The reading (observation, stats, result, status) is replaced only by a
// decode.
void read_under_light(const cv::Matx33d* fitted, const RotationHypothesis& hyp, PositionMeasures& measures,
                      float third_level, double min_check_bits, UrlDecompressor& urls, acc_ring_observation& observation,
                      SamplingStats& stats, acc_decode_result& result, acc_status& status, acc_error& error) {
    if (fitted == nullptr || status == ACC_OK || template_evidence(observation).wrong > 1) return;
    place_positions(oriented(*fitted, hyp), measures);
    struct Allowance {
        LightOver light;
        double local_width;   // code radii
        const char* name;
    };
    constexpr Allowance kAllowances[] = {{LightOver::added, 0, "added"},
                                         {LightOver::veiled, 0, "veil"},
                                         {LightOver::local, 0.15, "local, narrow"},
                                         {LightOver::local, 0.3, "local, wide"}};
    bool no_light_found = false;
    for (const Allowance& allow : kAllowances) {
        // The veil is estimated as added light is: none found for one, none for the other.
        if (allow.light == LightOver::veiled && no_light_found) continue;
        acc_ring_observation lit;
        SamplingStats lit_stats;
        if (!classify_positions(measures, third_level, lit, lit_stats, allow.light, allow.local_width)) {
            // Both local readings start from the same evened-out ink: neither can be read.
            if (allow.light == LightOver::local) return;
            no_light_found = true;
            continue;
        }
        acc_decode_result lit_result{};
        const acc_status lit_status = decode_observation(lit, min_check_bits, urls, lit_result, error);
        ACC_TRACE("  light over the code (%s): colsep %.2f -> %s\n", allow.name, lit_stats.color_separation,
                  lit_status == ACC_OK ? "ok" : error.message);
        trace_bits(lit);
        if (lit_status == ACC_OK) {
            observation = lit, stats = lit_stats, result = lit_result, status = ACC_OK;
            return;
        }
    }
}

}  // namespace

void CandidateReader::Reading::consider(const RotationHypothesis& h, const acc_ring_observation& o,
                                        const SamplingStats& s, acc_status status, const acc_decode_result& r,
                                        bool first) {
    const TemplateEvidence e = template_evidence(o);
    template_wrong = std::min(template_wrong, e.wrong);
    if (e.wrong <= kMaxDrawingTemplateWrong) template_right = std::max(template_right, e.right);
    if (first || status != ACC_E_UNCORRECTABLE) this->status = status;
    if (first) observation = o, stats = s, hyp = h;
    if (status != ACC_OK) return;
    decoded = true;
    result = r;
    observation = o;
    stats = s;
    hyp = h;
}

CandidateReader::Reading CandidateReader::try_hypotheses(const RingProfiles& profiles, const CodePalette& palette,
                                                         double min_check_bits, const cv::Matx33d* plane) {
    Reading best;
    acc_ring_observation observation;
    SamplingStats stats;
    for (size_t used = 0; used < hypotheses_.size() && !best.decoded; ++used) {
        const RotationHypothesis& hyp = hypotheses_[used];
        if (!plausible(used)) break;
        PositionMeasures measures;
        measure_positions(profiles, palette, hyp, measures);
        classify_positions(measures, palette.ring_third_level, observation, stats);
        acc_error error;
        acc_decode_result result{};
        acc_status status = decode_observation(observation, min_check_bits, urls_, result, error);
        read_under_light(plane, hyp, measures, palette.ring_third_level, min_check_bits, urls_, observation, stats, result, status,
                         error);
        ACC_TRACE("  hyp theta %.2f mirror %d score %.3f: gapsep %.2f colsep %.2f visible %d uncertain %d -> %s\n",
                  hyp.theta_deg, hyp.mirrored ? 1 : 0, hyp.score, stats.gap_separation, stats.color_separation,
                  stats.visible, stats.uncertain, status == ACC_OK ? "ok" : error.message);
        trace_bits(observation);
        best.consider(hyp, observation, stats, status, result, used == 0);
    }
    return best;
}

void CandidateReader::try_drawing(const Frame& frame, const cv::Matx33d& h, const CodePalette& palette,
                                  Reading& reading) {
    PositionMeasures measures;
    acc_ring_observation observation;
    SamplingStats stats;
    const size_t tried = DrawingFit::bin_size(h) > 1 ? kBinnedDrawingHypotheses : kDrawingHypotheses;
    for (size_t used = 0; used < hypotheses_.size() && used < tried && !reading.decoded; ++used) {
        const RotationHypothesis& hyp = hypotheses_[used];
        if (!plausible(used)) break;
        if (!drawing_.measure(frame, oriented(h, hyp), palette, measures)) return;
        classify_positions(measures, palette.third_level, observation, stats);
        acc_error error;
        acc_decode_result result{};
        acc_status status = decode_observation(observation, 0.0, urls_, result, error);
        ACC_TRACE("  drawing theta %.2f mirror %d: gapsep %.2f colsep %.2f visible %d -> %s\n", hyp.theta_deg,
                  hyp.mirrored ? 1 : 0, stats.gap_separation, stats.color_separation, stats.visible,
                  status == ACC_OK ? "ok" : error.message);
        trace_bits(observation);
        // Colours again with the arcs these gaps draw, each arc one piece. Wrong gaps make
        // wrong arcs, which the codec's checks then refuse.
        if (status != ACC_OK && template_evidence(observation).wrong == 0 &&
            drawing_.measure_arcs(observation.p_arc_start, measures)) {
            classify_positions(measures, palette.third_level, observation, stats);
            status = decode_observation(observation, 0.0, urls_, result, error);
            ACC_TRACE("  drawing arcs: colsep %.2f -> %s\n", stats.color_separation, status == ACC_OK ? "ok" : error.message);
            trace_bits(observation);
        }
        read_under_light(&h, hyp, measures, palette.third_level, 0.0, urls_, observation, stats, result, status, error);
        reading.consider(hyp, observation, stats, status, result, false);
    }
}

void CandidateReader::fill(const Frame& frame, const cv::Matx33d& h, const CodePalette& palette,
                           const Reading& reading, bool aligned, acc_detection& out) {
    const cv::Matx33d final_h = oriented(h, reading.hyp);
    std::memset(&out, 0, sizeof(out));
    fill_geometry(final_h, out);
    out.palette.background = pack_rgb(palette.background);
    out.palette.foreground = pack_rgb(palette.foreground);
    out.palette.third = pack_rgb(palette.third);
    out.logo = classify_logo(frame, final_h, palette);
    out.observation = reading.observation;
    if (!reading.decoded) {
        out.aligned_only = aligned ? 1 : 0;
        out.state = ACC_STATE_FAILED;
        out.failure = reading.status;
        out.version = -1;
        return;
    }
    const acc_decode_result& result = reading.result;
    out.state = ACC_STATE_DECODED;
    out.failure = ACC_OK;
    out.version = result.version;
    out.payload_length = result.payload_length;
    std::memcpy(out.payload, result.payload, sizeof(out.payload));
    out.corrected_symbols = result.corrected_symbols;
    out.erasures = result.erasures;
    out.decision_margin = result.margin;
    if (result.payload_length == ACC_PAYLOAD_BYTES) {
        // Decompressed again: the decode that read it may not have been the last one. (`out`
        // was zeroed above: no URL if it does not fit.)
        if (urls_.decompress(result.payload).status == ACC_OK && urls_.url().size() < sizeof(out.url))
            std::memcpy(out.url, urls_.url().c_str(), urls_.url().size() + 1);
    }
}

ReadOutcome CandidateReader::acquire(const Frame& frame, cv::Point2d centre, double d_lo, double d_hi,
                                     const cv::Matx22d& shape, bool try_mirrored, acc_detection& out,
                                     StageTimes& times) {
    const auto t0 = Clock::now();
    cv::Matx33d h;
    const bool started = align_.initial_plane(frame, centre, d_lo, d_hi, shape, h);
    times.fit_ms += ms_since(t0);
    if (!started) {
        ACC_TRACE("  acquire failed: no initial plane\n");
        return ReadOutcome::not_a_code;
    }
    return acquire_plane(frame, h, try_mirrored, out, times);
}

ReadOutcome CandidateReader::acquire_plane(const Frame& frame, const cv::Matx33d& initial, bool try_mirrored,
                                           acc_detection& out, StageTimes& times) {
    auto t0 = Clock::now();
    cv::Matx33d h = initial;
    AlignmentQuality aligned;
    const bool ok = align_.align(frame, h, aligned, true);
    ACC_TRACE("  acquire %s: contrast %.1f t %.1f\n", ok ? "ok" : "failed", aligned.contrast, aligned.t_stat);
    // Noise can make the bands between rings fit better than the rings from the profile's
    // start: rings of the other polarity about half a ring spacing smaller (or larger) than
    // the code. Once followed, the track keeps that polarity and never reads. So a plane
    // the rings surely fit is tried against the other polarity at those scales too, and
    // the rings that stand out most are kept.
    if (ok && std::abs(aligned.t_stat) >= kMinAcquireT) {
        const CodeGeometry& g = CodeGeometry::get();
        const double half_ring = 1 + 0.5 * g.ring_spacing / g.rings[3].radius;
        for (const double f : {1 / half_ring, 1.0, half_ring}) {
            cv::Matx33d other = initial * scaling(f);
            AlignmentQuality q;
            const bool other_ok = align_.align(frame, other, q, true, aligned.t_stat > 0 ? -1.0 : 1.0);
            ACC_TRACE("  other polarity x%.3f: %s t %.1f\n", f, other_ok ? "ok" : "failed", q.t_stat);
            if (other_ok && std::abs(q.t_stat) > std::abs(aligned.t_stat)) h = other, aligned = q;
        }
    }
    times.fit_ms += ms_since(t0);
    if (!ok || std::abs(aligned.t_stat) < kMinAcquireT) return ReadOutcome::not_a_code;
    t0 = Clock::now();
    CodePalette palette;
    const bool sampled = sample_rings(frame, h, profiles_) && rotations(profiles_, palette, try_mirrored);
    times.sample_ms += ms_since(t0);
    if (!sampled) return ReadOutcome::not_a_code;
    t0 = Clock::now();
    const Reading reading = try_hypotheses(profiles_, palette, 0.0, &h);
    times.decode_ms += ms_since(t0);
    fill(frame, h, palette, reading, true, out);
    out.confidence = aligned_confidence(reading, aligned);
    if (reading.decoded) return ReadOutcome::decoded;
    // Concentric look-alikes match the radial template as well as codes do: only the
    // template byte, read at some tried rotation, tells a code.
    ACC_TRACE("  acquired: template byte wrong in %d of 8\n", reading.template_wrong);
    return reading.template_wrong <= kMaxAcquireTemplateWrong ? ReadOutcome::failed : ReadOutcome::not_a_code;
}

ReadOutcome CandidateReader::read_fused(const Frame& frame, cv::Matx33d h, FusedTrack& track,
                                        ProfileAccumulator& accumulator, bool try_mirrored, acc_detection& out,
                                        StageTimes& times) {
    auto t0 = Clock::now();
    const cv::Point2d last_centre = apply(track.reported, 0, 0);
    accumulator.follow(track, h);
    AlignmentQuality aligned;
    // Strokes keep their polarity from frame to frame.
    const double polarity = track.polarity();
    const cv::Matx33d hint = h;
    bool ok = align_.align(frame, h, aligned, true, polarity);
    // A session predicts the plane from the code's motion, which a few jittery frames can
    // throw further off than the code moves in one frame: then the hint is tried again
    // where the code was last reported.
    const cv::Point2d centre = apply(hint, 0, 0), moved = last_centre - centre;
    if (!ok && track.frames > 0 && std::hypot(moved.x, moved.y) > kRetryFromLastPx) {
        h = translation(moved.x, moved.y) * hint;
        ok = align_.align(frame, h, aligned, true, polarity);
        ACC_TRACE("  align from the last report (%.1f px away) %s: t %.1f\n", std::hypot(moved.x, moved.y),
                  ok ? "ok" : "failed", aligned.t_stat);
        if (!ok) h = hint;
    }
    // Rings of the other polarity only: the plane sits about half a ring spacing off, close
    // enough to follow the code but not to add its profiles to the sums.
    bool fuse = ok || polarity == 0;
    if (!fuse) {
        h = hint;
        ok = align_.align(frame, h, aligned, true);
    }
    times.fit_ms += ms_since(t0);
    ACC_TRACE("  align %s%s: contrast %.1f t %.1f (polarity %.0f)\n", ok ? "ok" : "failed", fuse ? "" : " (not fused)",
              aligned.contrast, aligned.t_stat, polarity);
    if (!ok) return ReadOutcome::not_a_code;
    track.t_sum += aligned.t_stat;
    // Until a decode tells, the polarity is what the frames' rings agree on, those of the
    // other polarity included: once they outweigh the frames fused so far, it was those that
    // sat half a ring off (the first frames of a track can lock onto the bands between the
    // rings), and the sums start over in this polarity.
    if (!fuse && track.decoded_polarity == 0 && track.polarity() * polarity < 0) {
        ACC_TRACE("  the other polarity outweighs the sums: starting over\n");
        ProfileAccumulator::forget(track, h);
        track.t_sum = aligned.t_stat;
        fuse = true;
    }
    t0 = Clock::now();
    if (!sample_rings(frame, h, profiles_)) {
        times.sample_ms += ms_since(t0);
        return ReadOutcome::not_a_code;
    }
    // This frame's bin b shows what the sums hold at b + turn: in the sums' frame the plane
    // is h turned back by that much.
    const int turn = accumulator.turn_to_sums(track, profiles_);
    if (fuse) ProfileAccumulator::add(track, profiles_, turn);
    if (track.frames > 0) ProfileAccumulator::fused(track, profiles_, fused_profiles_);
    else fused_profiles_ = profiles_;
    h = h * rotation(-turn * RingProfiles::kBinDeg * kDeg);
    ACC_TRACE("  turned %.1f deg to the sums\n", turn * RingProfiles::kBinDeg);
    CodePalette palette;
    const bool read_ready = rotations(fused_profiles_, palette, try_mirrored);
    times.sample_ms += ms_since(t0);
    if (!read_ready) return ReadOutcome::not_a_code;
    t0 = Clock::now();
    // Each fused decode is one more chance for noise to pass the checks: ask for more
    // unused checking as the attempts add up (as the session's evidence does). Every
    // hypothesis counts, tried or not: the bound errs on the strict side.
    track.attempts += static_cast<int>(hypotheses_.size());
    const double min_check_bits = kRepeatedReadCheckBits + std::log2(static_cast<double>(track.attempts));
    const Reading reading = try_hypotheses(fused_profiles_, palette, min_check_bits, nullptr);
    times.decode_ms += ms_since(t0);
    ACC_TRACE("  fused %d frames: %s\n", track.frames, reading.decoded ? "decoded" : "not yet");
    fill(frame, h, palette, reading, true, out);
    out.confidence = aligned_confidence(reading, aligned);
    if (reading.decoded) {
        ProfileAccumulator::restart(track, out);
        return ReadOutcome::decoded;
    }
    accumulator.reorient(track, reading.hyp, oriented(h, reading.hyp));
    // The session fuses per-frame samples of its own: give it this frame's, not the sum.
    CodePalette own;
    SamplingStats stats;
    if (cluster_palette(profiles_, own, palette_scratch_)) {
        RotationHypothesis in_frame = reading.hyp;   // this frame's profiles are turned from the sums'
        in_frame.theta_deg -= turn * RingProfiles::kBinDeg;   // reported = h · rotation(θ − turn) [· mirror]
        sample_positions(profiles_, own, in_frame, out.observation, stats);
    } else {
        for (int i = 0; i < ACC_RING_POSITIONS; ++i) out.observation.p_arc_start[i] = out.observation.p_third[i] = 0.5f;
    }
    return ReadOutcome::failed;
}

}  // namespace appclip::vision
