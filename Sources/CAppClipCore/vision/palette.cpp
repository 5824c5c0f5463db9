#include "palette.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "centred_light.hpp"
#include "code_geometry.hpp"
#include "debug_log.hpp"
#include "linear_light.hpp"
#include "lit_ink.hpp"

namespace appclip::vision {
namespace {

cv::Vec3f channel_median(const std::vector<cv::Vec3f>& values, std::vector<float>& channel) {
    cv::Vec3f m;
    channel.resize(values.size());
    for (int c = 0; c < 3; ++c) {
        for (size_t i = 0; i < values.size(); ++i) channel[i] = values[i][c];
        auto mid = channel.begin() + channel.size() / 2;
        std::nth_element(channel.begin(), mid, channel.end());
        m[c] = *mid;
    }
    return m;
}

float distance2(const cv::Vec3f& a, const cv::Vec3f& b) {
    const cv::Vec3f d = a - b;
    return d.dot(d);
}

// Index of the centre nearest to each sample (the first of equally near ones), with
// distance2's arithmetic: channel arrays, so that the loop runs several samples at once.
void nearest_centres(const float* red, const float* green, const float* blue, size_t n, const cv::Vec3f centre[3],
                     unsigned char* nearest) {
    const float r0 = centre[0][0], g0 = centre[0][1], b0 = centre[0][2];
    const float r1 = centre[1][0], g1 = centre[1][1], b1 = centre[1][2];
    const float r2 = centre[2][0], g2 = centre[2][1], b2 = centre[2][2];
    for (size_t i = 0; i < n; ++i) {
        const float x0 = red[i] - r0, y0 = green[i] - g0, z0 = blue[i] - b0;
        const float x1 = red[i] - r1, y1 = green[i] - g1, z1 = blue[i] - b1;
        const float x2 = red[i] - r2, y2 = green[i] - g2, z2 = blue[i] - b2;
        const float d0 = x0 * x0 + y0 * y0 + z0 * z0;
        const float d1 = x1 * x1 + y1 * y1 + z1 * z1;
        const float d2 = x2 * x2 + y2 * y2 + z2 * z2;
        nearest[i] = d0 <= d1 && d0 <= d2 ? 0 : (d1 <= d2 ? 1 : 2);
    }
}

// A distance and a sample's index as one integer that sorts as the pair (distance, index)
// does: a non-negative float's bits order as its value. Integers compare in one step.
std::uint64_t rank_key(float distance, int index) {
    std::uint32_t bits;
    std::memcpy(&bits, &distance, sizeof bits);
    return static_cast<std::uint64_t>(bits) << 32 | static_cast<std::uint32_t>(index);
}

// The foreground seed: in each angular sector, a stroke sample among the farthest from
// the background (the foreground is the farthest of the code's colours), then the
// median over sectors. Glare or a foreign object over a few sectors, however bright,
// does not move it; taking the farthest samples of the whole code would.
bool foreground_seed(const RingProfiles& profiles, const cv::Vec3f& bg, PaletteScratch& scratch, cv::Vec3f& seed) {
    std::vector<cv::Vec3f>& picks = scratch.picks;
    std::vector<std::uint64_t>& ranked = scratch.ranked;
    constexpr int kSectors = 24;
    constexpr int kMinSamples = 40;
    constexpr double kRank = 0.85;   // of the sector's samples by distance from the background
    const int per_sector = RingProfiles::kBins / kSectors;
    picks.clear();
    for (int s = 0; s < kSectors; ++s) {
        ranked.clear();
        for (int k = 0; k < kRings; ++k)
            for (int b = s * per_sector; b < (s + 1) * per_sector; ++b) {
                const int i = k * RingProfiles::kBins + b;
                if (profiles.valid[i]) ranked.push_back(rank_key(distance2(profiles.color[i], bg), i));
            }
        if (static_cast<int>(ranked.size()) < kMinSamples) continue;
        auto at = ranked.begin() + static_cast<long>(kRank * (ranked.size() - 1));
        std::nth_element(ranked.begin(), at, ranked.end());
        picks.push_back(profiles.color[static_cast<std::uint32_t>(*at)]);
    }
    if (picks.size() < kSectors / 2) return false;
    seed = channel_median(picks, scratch.channel);
    return true;
}

// What counts as glare: samples clearly brighter than every colour of the code. A
// specular highlight washes strokes and background alike towards white; blur or a
// slightly wrong plane only mixes the code's colours, which never makes a sample brighter
// than the brightest of them. The brightest the code's own colours get: the background,
// or the foreground where it is brightest (its sectors' picks, three quarters of the way
// up: a highlight over a few sectors does not reach that far), plus a margin.
float glare_luminance(const cv::Vec3f& bg, const cv::Vec3f& fg, const std::vector<cv::Vec3f>& picks,
                      std::vector<float>& lum) {
    constexpr float kBrighter = 0.4f;    // luminance over the code's brightest colour, in contrasts
    constexpr double kUpper = 0.75;
    lum.clear();
    for (const cv::Vec3f& p : picks) lum.push_back(luminance(p));
    float fg_top = luminance(fg);
    if (!lum.empty()) {
        auto at = lum.begin() + static_cast<long>(kUpper * (lum.size() - 1));
        std::nth_element(lum.begin(), at, lum.end());
        fg_top = std::max(fg_top, *at);
    }
    return std::max(luminance(bg), fg_top) + kBrighter * std::sqrt(distance2(fg, bg));
}

// Calls `found(k, first, last)` for each run of ring k's bins where `in_run(bin index)` holds
// that is longer than the ring's widest gap plus `slack_deg` (bins first..last, which may
// wrap past the ring's end: index modulo kBins). Rings where it holds all round are skipped.
template <typename InRun, typename Found>
void long_runs(double slack_deg, InRun in_run, Found found) {
    const int n = RingProfiles::kBins;
    const CodeGeometry& g = CodeGeometry::get();
    for (int k = 0; k < kRings; ++k) {
        const int longest = static_cast<int>((2 * g.rings[k].half_gap_deg + slack_deg) / RingProfiles::kBinDeg);
        const int base = k * n;
        // Start where the run does not hold, so that a run is never split at bin 0.
        int start = -1;
        for (int b = 0; b < n && start < 0; ++b)
            if (!in_run(base + b)) start = b;
        if (start < 0) continue;
        int run = 0;
        for (int j = 1; j <= n; ++j) {
            const int b = (start + j) % n;
            if (j < n && in_run(base + b)) {
                ++run;
                continue;
            }
            if (run > longest) found(k, b - run, b - 1);
            run = 0;
        }
    }
}

// A highlight that clips the sensor reads 255 whatever lies under it, and on a code whose
// brightest colour is near white the margin of glare_luminance runs past 255: such glare
// never counted, and its washed strokes read as background-coloured arcs that pulled the
// foreground and third colours into one class (std hard, from the true plane: 29 of the 41
// glare frames with 20 or more colours misread have white backgrounds). Clipped background
// alone (bright, uneven light) leaves the strokes dark; a highlight clips them too. So a ring
// bin is glare where it is clipped within a clipped run longer than any stretch of
// background the ring can hold: its widest gap plus the strokes' rounded ends and some blur.
void flag_clipped_runs(RingProfiles& profiles, float brightest, std::vector<unsigned char>& clipped_glare) {
    constexpr float kClipped = 254.f;      // every channel at the top
    constexpr float kBelowClipping = 6.f;   // the code's brightest colour under the top by this
    constexpr double kEndsAndBlurDeg = 6.0;
    // The highlight's fringe, past the clipped core, still washes the strokes (std hard,
    // true planes: 20 glare frames read unwidened, 21 at 5 degrees; 22 at 10, which lost
    // a held-out code the wider erasures left short of checking).
    constexpr double kFringeDeg = 5.0;
    const int fringe = static_cast<int>(kFringeDeg / RingProfiles::kBinDeg);
    const int n = RingProfiles::kBins;
    clipped_glare.assign(profiles.color.size(), 0);
    if (brightest > kClipped - kBelowClipping) return;
    auto clipped = [&](int i) {
        const cv::Vec3f& c = profiles.color[static_cast<size_t>(i)];
        return profiles.valid[static_cast<size_t>(i)] && std::min({c[0], c[1], c[2]}) >= kClipped;
    };
    // A clipped run longer than any gap (clipped all round: the colours are what is wrong):
    // the run and its fringe, on its ring and the rings either side.
    long_runs(kEndsAndBlurDeg, clipped, [&](int k, int first, int last) {
        for (int kk = std::max(0, k - 1); kk <= std::min(kRings - 1, k + 1); ++kk)
            for (int x = first - fringe; x <= last + fringe; ++x) clipped_glare[static_cast<size_t>(kk * n + (x % n + n) % n)] = 1;
    });
}

}  // namespace

bool erase_background_runs(RingProfiles& profiles, float third_level, std::vector<unsigned char>& marked) {
    constexpr double kEndsAndBlurDeg = 6.0;
    constexpr double kMaxMarked = 0.1;   // of the rings' bins
    const float below = 0.5f * third_level;   // nearer the background than half the third colour
    const size_t n = profiles.ink.size();
    marked.assign(n, 0);
    size_t count = 0;
    long_runs(kEndsAndBlurDeg, [&](int i) { return profiles.reliable[i] && profiles.ink[i] < below; },
              [&](int k, int first, int last) {
                  for (int x = first; x <= last; ++x) {
                      const int bin = (x % RingProfiles::kBins + RingProfiles::kBins) % RingProfiles::kBins;
                      const size_t i = static_cast<size_t>(k * RingProfiles::kBins + bin);
                      count += marked[i] ? 0 : 1;
                      marked[i] = 1;
                  }
              });
    ACC_TRACE("  background runs: %zu bins\n", count);
    if (count == 0 || count > kMaxMarked * n) return false;
    for (size_t i = 0; i < n; ++i)
        if (marked[i]) profiles.reliable[i] = 0, profiles.ink[i] = 0.5f;
    return true;
}

namespace {

// Flags glare once per sample: `profiles.reliable` (ring bins sampled and not glare: brighter
// than `glare`, or in a clipped run, see flag_clipped_runs) and `band_glare` (band degrees
// brighter than `glare`). A highlight covers a part of the code; when much of it reads as
// glare, the colours are what is wrong (a plane off by half a ring puts the "background" on
// strokes), and nothing is flagged.
void flag_glare(RingProfiles& profiles, float glare, float brightest, PaletteScratch& scratch) {
    constexpr double kMaxGlare = 0.15;   // of the ring samples, or of the band samples
    std::vector<unsigned char>& clipped_glare = scratch.clipped_glare;
    std::vector<unsigned char>& band_glare = scratch.band_glare;
    flag_clipped_runs(profiles, brightest, clipped_glare);
    int valid = 0, bright = 0, band_valid = 0, band_bright = 0;
    profiles.reliable.resize(profiles.color.size());
    for (size_t i = 0; i < profiles.color.size(); ++i) {
        const bool is_glare = profiles.valid[i] && (luminance(profiles.color[i]) > glare || clipped_glare[i] != 0);
        profiles.reliable[i] = profiles.valid[i] && !is_glare ? 1 : 0;
        valid += profiles.valid[i] ? 1 : 0;
        bright += is_glare ? 1 : 0;
    }
    band_glare.resize(profiles.band.size());
    for (size_t i = 0; i < profiles.band.size(); ++i) {
        band_glare[i] = profiles.band_valid[i] && luminance(profiles.band[i]) > glare ? 1 : 0;
        band_valid += profiles.band_valid[i] ? 1 : 0;
        band_bright += band_glare[i];
    }
    if (bright > kMaxGlare * valid || band_bright > kMaxGlare * band_valid) {
        profiles.reliable.assign(profiles.valid.begin(), profiles.valid.end());
        std::fill(band_glare.begin(), band_glare.end(), 0);
    }
}

// Ring bins beside marked background band degrees (`marked[band * kBandAngles + degree]`:
// glare, an object over the code) are unreliable too: their positions become erasures
// instead of confident misreads. Ring k lies between band k (inside) and band k+1 (outside;
// ring 5 has only the inside); bands from `first_band` on count. Bin b spans degrees
// [b/2, (b+1)/2): the degrees around it, one either side, decide.
void unreliable_beside(RingProfiles& profiles, const std::vector<unsigned char>& marked, int first_band) {
    const int n = RingProfiles::kBins, na = RingProfiles::kBandAngles;
    auto marked_at = [&](int j, int a) { return j >= first_band && marked[j * na + (a + na) % na] != 0; };
    for (int k = 0; k < kRings; ++k)
        for (int b = 0; b < n; ++b) {
            const int centre = b / 2;
            bool bad = false;
            for (int a = centre - 1; a <= centre + 1 && !bad; ++a)
                bad = marked_at(k, a) || (k + 1 < RingProfiles::kBands && marked_at(k + 1, a));
            if (bad) profiles.reliable[k * n + b] = 0;
        }
}

void spread_band_glare(RingProfiles& profiles, const std::vector<unsigned char>& band_glare) {
    // Most codes have no glare at all: nothing to spread.
    if (!profiles.has_bands() || std::find(band_glare.begin(), band_glare.end(), 1) == band_glare.end()) return;
    unreliable_beside(profiles, band_glare, 0);
}

// Light added over part of the code (the tail of a highlight) brightens strokes and the
// background between them alike, so the bands beside a ring tell how much to take off
// its ink there; a sample that has clipped is instead mapped back as the light lit the
// code's colours (lit_ink.hpp: a white stroke cannot get lighter). Only what departs clearly
// from the band's usual ink counts: blur mixes some stroke into the bands everywhere, and
// that is left alone.
void level_background(RingProfiles& profiles, const CodePalette& palette, const cv::Vec3f& bg_linear,
                      const cv::Vec3f& fg_linear, std::vector<float>& departure, std::vector<unsigned char>& covered) {
    constexpr float kIgnored = 0.15f;   // band ink departures under this are blur, not light
    constexpr float kSpreads = 3.f;     // nor are departures within this many of the band's spreads
    constexpr int kSmooth = 2;          // degrees either side
    constexpr double kMaxDeparted = 0.3;   // of all band degrees
    // Background darker by this much ink (half the background-to-foreground contrast, and
    // past the band's own spread) is an object over the code, not blur or light falling off
    // across it.
    constexpr float kCoveredInk = 0.5f;
    // An object the code can be read past covers a few dozen band degrees (12-32 over the
    // std occluded set); a plane off by half a ring puts 200 and more on strokes.
    constexpr double kMaxCovered = 0.1;   // of all band degrees
    // Any channel this bright (8-bit) has clipped: looser than flag_clipped_runs' every-channel
    // 254, which marks a highlight's core rather than a sample the light has reached the top of.
    constexpr float kChannelClipped = 250.f;
    if (!profiles.has_bands()) return;
    const int n = RingProfiles::kBins, na = RingProfiles::kBandAngles;
    const LinearLight& linear = linear_light();
    const InkScale ink(bg_linear, fg_linear);
    // Each band's ink less its median (0 where not sampled), and the departure it ignores.
    departure.assign(static_cast<size_t>(RingProfiles::kBands * na), 0.f);
    float ignored[RingProfiles::kBands];
    float median_ink[RingProfiles::kBands] = {};
    bool band_sampled[RingProfiles::kBands] = {};
    for (int j = 0; j < RingProfiles::kBands; ++j) {
        float* row = departure.data() + j * na;
        float sorted[RingProfiles::kBandAngles];
        int m = 0;
        for (int a = 0; a < na; ++a)
            if (profiles.band_valid[j * na + a]) row[a] = sorted[m++] = ink(linear(profiles.band[j * na + a]));
        if (m < na / 2) {
            ignored[j] = std::numeric_limits<float>::infinity();
            continue;
        }
        std::nth_element(sorted, sorted + m / 2, sorted + m);
        const float median = sorted[m / 2];
        median_ink[j] = median, band_sampled[j] = true;
        for (int a = 0; a < na; ++a) row[a] = profiles.band_valid[j * na + a] ? row[a] - median : 0.f;
        // How much the band varies where nothing is over it (blur mixing in the strokes
        // beside it varies with them): a robust spread, from the median absolute deviation.
        for (int i = 0; i < m; ++i) sorted[i] = std::abs(sorted[i] - median);
        std::nth_element(sorted, sorted + m / 2, sorted + m);
        ignored[j] = std::max(kIgnored, kSpreads * 1.4826f * sorted[m / 2]);
    }
    // Box-smoothed, soft-thresholded departure per band and degree; and the band degrees
    // under an object darker than the background (see kCoveredInk).
    float smoothed[RingProfiles::kBands][RingProfiles::kBandAngles];
    covered.assign(static_cast<size_t>(RingProfiles::kBands * na), 0);
    int departed = 0, covered_degrees = 0;
    // +1 when ink grows towards white (foreground lighter than background), else −1.
    const float brighter_ink = luminance(palette.foreground) > luminance(palette.background) ? 1.f : -1.f;
    for (int j = 0; j < RingProfiles::kBands; ++j)
        for (int a = 0; a < na; ++a) {
            float sum = 0;
            for (int d = -kSmooth; d <= kSmooth; ++d) {
                const int at = a + d;   // round the circle without a division per term
                sum += departure[j * na + (at < 0 ? at + na : at >= na ? at - na : at)];
            }
            // Only light added (towards white) is taken off; darker stretches are
            // shadows or objects over the code, whose strokes the bands do not describe.
            const float added = brighter_ink * sum / (2 * kSmooth + 1);
            smoothed[j][a] = added > ignored[j] ? brighter_ink * (added - ignored[j]) : 0.f;
            departed += j > 0 && smoothed[j][a] != 0.f ? 1 : 0;
            const bool dark = -added > std::max(kCoveredInk, ignored[j]);
            covered[j * na + a] = dark ? 1 : 0;
            covered_degrees += j > 0 && dark ? 1 : 0;
        }
    // Light centred on the code lifts whole bands, which their own medians hide (see
    // centred_light.hpp): taken off the rings beside them as well.
    float lift[RingProfiles::kBands];
    const bool centred = centred_light_lift(median_ink, band_sampled, brighter_ink > 0, lift);
    // Light over a part of the code departs over a part of the bands. Bands departing all
    // round are not on the background at all (a plane off by half a ring): leave the ink.
    ACC_TRACE("  bands: departed on %d degrees, covered on %d; centred light %d (lifts %.3f %.3f %.3f %.3f)\n",
              departed, covered_degrees, centred ? 1 : 0, lift[1], lift[2], lift[3], lift[4]);
    if (departed <= kMaxDeparted * (RingProfiles::kBands - 1) * na) {
        const LitInk lit(bg_linear, fg_linear, linear(palette.third));
        float last_taken = 0.f, light = 0.f;   // a ring's two bins per band degree share their light
        for (int k = 0; k < kRings; ++k)
            for (int b = 0; b < n; ++b) {
                const int a = b / 2;
                // Band 0 lies next to the logo, which blur on a small code spreads into it: ring 1
                // goes by its outer band alone.
                const float taken = k == 0 ? smoothed[1][a] + lift[1]
                                    : k + 1 < RingProfiles::kBands
                                        ? 0.5f * (smoothed[k][a] + lift[k] + smoothed[k + 1][a] + lift[k + 1])
                                        : smoothed[k][a] + lift[k];
                if (taken == 0.f) continue;
                float& ink = profiles.ink[k * n + b];
                // A sample that nothing clips was lifted by the light as the background was.
                const cv::Vec3f& colour = profiles.color[k * n + b];
                if (std::max({colour[0], colour[1], colour[2]}) < kChannelClipped) {
                    ink -= taken;
                    continue;
                }
                // One that clips is mapped back as the light lit the code's colours (see
                // lit_ink.hpp); where it leaves them too alike, the bin is not read.
                if (taken != last_taken) last_taken = taken, light = lit.light_over_background(taken);
                if (!lit.unlit(light, ink)) profiles.reliable[k * n + b] = 0, ink = 0.5f;
            }
    }
    // Ring bins beside a covered stretch read the object, not the code: erasures (0.5; an
    // arc wholly under it is an unseen colour, which the codec pays for) rather than
    // confident misreads. Band 0 goes by the same rule as above.
    if (covered_degrees == 0 || covered_degrees > kMaxCovered * (RingProfiles::kBands - 1) * na) return;
    unreliable_beside(profiles, covered, 1);
    for (size_t i = 0; i < profiles.ink.size(); ++i)
        if (!profiles.reliable[i]) profiles.ink[i] = 0.5f;
}

}  // namespace

bool cluster_palette(RingProfiles& profiles, CodePalette& palette, PaletteScratch& scratch) {
    if (profiles.background.empty()) return false;
    even_out_light(profiles, scratch.light);
    cv::Vec3f bg = channel_median(profiles.background, scratch.channel);
    cv::Vec3f fg;
    if (!foreground_seed(profiles, bg, scratch, fg)) return false;
    if (distance2(fg, bg) < 100.f) return false;  // under 10 levels of contrast: nothing to read
    cv::Vec3f third = 0.5f * (fg + bg);
    // Glare takes no part below.
    flag_glare(profiles, glare_luminance(bg, fg, scratch.picks, scratch.lum), std::max(luminance(bg), luminance(fg)),
               scratch);

    // A few Lloyd iterations over ring samples; the background centre also keeps its own samples.
    // Once an iteration leaves every centre where it was, the assignment cannot change any
    // more: the remaining iterations would repeat it exactly.
    // The samples channel by channel: the nearest centres are then found several samples at
    // a time (this assignment was most of the palette's cost).
    std::vector<float>& red = scratch.red;
    std::vector<float>& green = scratch.green;
    std::vector<float>& blue = scratch.blue;
    red.resize(profiles.color.size()), green.resize(red.size()), blue.resize(red.size());
    size_t samples = 0;
    for (size_t i = 0; i < profiles.color.size(); ++i) {
        if (!profiles.reliable[i]) continue;
        const cv::Vec3f& x = profiles.color[i];
        red[samples] = x[0], green[samples] = x[1], blue[samples] = x[2];
        ++samples;
    }
    for (int iter = 0; iter < 6; ++iter) {
        const cv::Vec3f before[3] = {bg, fg, third};
        std::swap(scratch.nearest, scratch.nearest_before);
        scratch.nearest.resize(samples);
        nearest_centres(red.data(), green.data(), blue.data(), samples, before, scratch.nearest.data());
        // The same assignment as the last iteration's gives the same centres again.
        if (iter > 0 && std::equal(scratch.nearest.begin(), scratch.nearest.begin() + samples,
                                   scratch.nearest_before.begin()))
            break;
        cv::Vec3f sum[3] = {};
        int count[3] = {0, 0, 0};
        for (size_t i = 0; i < samples; ++i) {
            cv::Vec3f& s = sum[scratch.nearest[i]];
            s[0] += red[i], s[1] += green[i], s[2] += blue[i];
            ++count[scratch.nearest[i]];
        }
        for (const auto& x : profiles.background) sum[0] += x, ++count[0];
        if (count[0] > 0) bg = sum[0] * (1.f / count[0]);
        if (count[1] > 0) fg = sum[1] * (1.f / count[1]);
        if (count[2] > 0) third = sum[2] * (1.f / count[2]);
        if (bg == before[0] && fg == before[1] && third == before[2]) break;
    }
    if (distance2(third, bg) > distance2(fg, bg)) std::swap(third, fg);
    palette.background = bg;
    palette.foreground = fg;
    palette.third = third;
    palette.contrast = std::sqrt(distance2(fg, bg));
    if (palette.contrast < 10.f) return false;
    palette.third_level = std::clamp(ink_level(palette, third), 0.2f, 0.9f);
    ACC_TRACE("  palette: background %.0f %.0f %.0f foreground %.0f %.0f %.0f third %.0f %.0f %.0f\n", bg[0], bg[1], bg[2],
              fg[0], fg[1], fg[2], third[0], third[1], third[2]);
    spread_band_glare(profiles, scratch.band_glare);
    // The rings' ink is measured in linear light (see `linear_light`).
    const LinearLight& linear = linear_light();
    const cv::Vec3f bg_linear = linear(bg), fg_linear = linear(fg);
    const InkScale ink(bg_linear, fg_linear);
    palette.ring_third_level = std::clamp(ink(linear(third)), 0.2f, 0.9f);
    profiles.ink.resize(profiles.color.size());
    for (size_t i = 0; i < profiles.color.size(); ++i)
        profiles.ink[i] = profiles.reliable[i] ? ink(linear(profiles.color[i])) : 0.5f;
    level_background(profiles, palette, bg_linear, fg_linear, scratch.band_departure, scratch.band_covered);
    return true;
}

}  // namespace appclip::vision
