#include "codec.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "arc_word_rivals.hpp"
#include "format_tables.hpp"
#include "url.hpp"

namespace appclip {

namespace {

constexpr int kMetaBits = 16;
constexpr int kGapBits = 104;
constexpr int kTemplateBits = 8;
constexpr int kArcBits = kArcWordBits;
constexpr int kMinGapZeros = 52;  // fewer zeros (51 or less) means the gaps were inverted
// A decode is accepted only with this much unused checking: about one chance in a
// million that a wrong payload passes (and the vision layer adds its own budget).
constexpr double kMinPayloadCheckBits = 20;
constexpr double kMinTotalCheckBits = 26;
// Each word protects its own bytes, so each must keep some checking of its own;
// a word decoded with all its parity spent on erasures is not checked at all.
constexpr double kMinWordCheckBits = 4;
// A wrong payload needs only one miscorrected word, so checking summed over words does
// not protect the weakest. The arc word (RS(7,5), 16 parity bits) has nothing else
// behind it: the stress harness (tools/dev/codec_stress.cpp) found wrong payloads from
// arc words left with 4–13 bits after erasures, corrections or flips of doubtful bits
// (even one flip of a bit read at under 0.2 confidence gave 1 wrong in 10 million; one
// corrected symbol, even with every repeat in the color stream agreeing, ~150). RS(7,5)
// with two symbol errors lands within one error of another codeword ~3% of the time.
// So it reads only as sampled: no erasure, correction or flip; a damaged word then
// passes only if both parity symbols happen to match. Video fills in what one frame lacks.
// Colours that were not seen at all are no samples, and are tried both ways (read_arc_word).
constexpr double kMinArcWordCheckBits = 8;
// An arc colour read with less confidence than this was not seen (an erasure, 0.5): each
// such bit doubles the words tried and spends one bit of the arc word's checking.
constexpr float kMinArcBitConfidence = 0.001f;
// The arc word's binary image has codewords of four bits, so the tries over unseen colours
// can reach another payload when a colour beside them is misread, as a highlight's rim is
// (tools/dev/codec_stress.cpp, "highlight with misread rims": 7 wrong payloads in 500,000
// trials before). A word read is refused when another one is a single misread colour away
// from it, counting as loose the unseen colours, those read with less confidence than
// this, and those of arcs partly unseen (their seen part lies at the highlight's rim).
constexpr float kLooseArcBitConfidence = 0.5f;
// The metadata and gap words (the latter backed by the repeated gap bits) first try
// flips of their few least confident bits: a flip spends one bit of checking, an
// erasure a whole symbol.
constexpr int kMaxFlippedBits = 3;
constexpr float kFlipBelow = 0.5f;
// Of the 256 metadata values only 6 are valid (versions 0, 1, 8, either inversion).
const double kMetadataValidityBits = std::log2(256.0 / 6.0);

int template_bit(int i) { return (data::template_byte >> i) & 1; }  // stored LSB first

void bytes_to_bits(const std::uint8_t* bytes, int count, int bits_per_symbol, std::uint8_t* bits) {
    for (int i = 0; i < count; ++i)
        for (int b = 0; b < bits_per_symbol; ++b) bits[i * bits_per_symbol + b] = (bytes[i] >> (bits_per_symbol - 1 - b)) & 1;
}

void bits_to_bytes(const std::uint8_t* bits, int count, int bits_per_symbol, std::uint8_t* bytes) {
    for (int i = 0; i < count; ++i) {
        unsigned v = 0;
        for (int b = 0; b < bits_per_symbol; ++b) v = (v << 1) | bits[i * bits_per_symbol + b];
        bytes[i] = static_cast<std::uint8_t>(v);
    }
}

void metadata_symbols(const FormatTables& t, int version, bool inverted, std::uint8_t out[4]) {
    out[0] = static_cast<std::uint8_t>(version >> 3);
    out[1] = static_cast<std::uint8_t>((inverted ? 1 : 0) | ((version & 7) << 1));
    t.metadata_rs.encode(out, 2, out + 2);
}

// Lays out metadata, gap bits (as drawn: already inverted when `inverted`) and
// template byte through the permutation, then the color stream: separator, arc
// bits, and a repeat of the first drawn gap bits.
acc_code_bits assemble(const FormatTables& t, int version, const std::uint8_t drawn_gaps[kGapBits],
                       const std::uint8_t arc_bits[kArcBits], bool inverted) {
    std::uint8_t meta[4];
    metadata_symbols(t, version, inverted, meta);
    std::uint8_t pre[128];
    bytes_to_bits(meta, 4, 4, pre);
    std::memcpy(pre + kMetaBits, drawn_gaps, kGapBits);
    for (int i = 0; i < kTemplateBits; ++i) pre[kMetaBits + kGapBits + i] = static_cast<std::uint8_t>(template_bit(i));

    acc_code_bits out;
    std::memset(&out, 0, sizeof out);
    out.version = version;
    for (int i = 0; i < 128; ++i) out.gaps[t.lut[static_cast<std::size_t>(i)]] = pre[i];
    int visible = static_cast<int>(std::count(out.gaps, out.gaps + 128, 0));
    out.color_count = visible;
    int n = 0;
    out.colors[n++] = 0;  // separator
    for (int i = 0; i < kArcBits && n < visible; ++i) out.colors[n++] = arc_bits[i];
    for (int i = 0; i < kGapBits && n < visible; ++i) out.colors[n++] = drawn_gaps[i];
    return out;
}

// Encodes RS-domain gap bits, inverting them when they hold too few zeros.
acc_code_bits assemble_with_inversion(const FormatTables& t, int version, const std::uint8_t gap_bits[kGapBits],
                                      const std::uint8_t arc_bits[kArcBits]) {
    int zeros = static_cast<int>(std::count(gap_bits, gap_bits + kGapBits, 0));
    bool inverted = zeros < kMinGapZeros;
    std::uint8_t drawn[kGapBits];
    for (int i = 0; i < kGapBits; ++i) drawn[i] = static_cast<std::uint8_t>(gap_bits[i] ^ (inverted ? 1 : 0));
    return assemble(t, version, drawn, arc_bits, inverted);
}

}  // namespace

Result<acc_code_bits> encode_payload(const std::uint8_t* payload16) {
    const FormatTables& t = tables();
    int leading = 0;
    while (leading < 16 && payload16[leading] == 0) ++leading;
    int version = 16 - leading <= data::version_parameters[0].total_data ? 0 : 1;
    const auto& p = data::version_parameters[version];
    const std::uint8_t* padded = payload16 + (16 - p.total_data);
    std::uint8_t scrambled[16];
    for (int i = 0; i < p.total_data; ++i) scrambled[i] = padded[p.total_data - 1 - i] ^ 0xA5;

    std::uint8_t gaps[13], arcs[7];
    std::memcpy(gaps, scrambled, static_cast<std::size_t>(p.gaps_data));
    (version == 0 ? t.gaps_rs_v0 : t.gaps_rs_v1).encode(gaps, p.gaps_data, gaps + p.gaps_data);
    std::memcpy(arcs, scrambled + p.total_data - p.arcs_data, static_cast<std::size_t>(p.arcs_data));
    t.arcs_rs.encode(arcs, p.arcs_data, arcs + p.arcs_data);

    std::uint8_t gap_bits[kGapBits], arc_bits[kArcBits];
    bytes_to_bits(gaps, 13, 8, gap_bits);
    bytes_to_bits(arcs, 7, 8, arc_bits);
    return assemble_with_inversion(t, version, gap_bits, arc_bits);
}

Result<acc_code_bits> encode_token(const std::uint8_t* token20) {
    std::uint8_t gap_bits[kGapBits], arc_bits[kArcBits];
    bytes_to_bits(token20, 13, 8, gap_bits);
    bytes_to_bits(token20 + 13, 7, 8, arc_bits);
    return assemble_with_inversion(tables(), 8, gap_bits, arc_bits);
}

namespace {

float confidence(float p) { return std::fabs(2.0f * p - 1.0f); }  // 0 = no idea, 1 = certain

// One Reed-Solomon word read softly: hard symbols plus how sure each bit is.
struct SoftWord {
    int n = 0;
    int bits_per_symbol = 8;
    std::uint8_t hard[16] = {0};
    float bit_confidence[128] = {0};
};

struct SoftOutcome {
    bool ok = false;
    std::uint8_t word[16] = {0};
    int corrected = 0;
    int erasures = 0;
    float cost = 0;         // confidence of the bits the correction had to overrule
    double check_bits = 0;  // -log2 P(a random word would decode like this): what is left to check
    unsigned touched = 0;   // symbols erased or changed by the correction
};

// log2 of the number of words within `errors` symbol errors of a codeword, over
// `free_symbols` unerased positions of a q-ary code.
double log2_ball(int free_symbols, int errors, int q) {
    double total = 0, binomial = 1, power = 1;
    for (int i = 0; i <= errors; ++i) {
        if (i > 0) {
            binomial = binomial * (free_symbols - i + 1) / i;
            power *= (q - 1);
        }
        total += binomial * power;
    }
    return std::log2(total);
}

// Chase-style search: flips of the least confident bits, each decoded with errors only
// and with erasures of the least reliable symbols; keeps the correction that overrules
// the least confident evidence. A doubtful bit is better flipped than its whole symbol
// erased: a flip spends one bit of checking (the pattern count), an erasure a symbol.
SoftOutcome soft_decode(const ReedSolomon& rs, const SoftWord& w, int max_flips, float flip_below,
                        bool try_erasures = true) {
    SoftOutcome best;
    const int total_bits = w.n * w.bits_per_symbol;
    float reliability[16];
    int order[16];
    for (int i = 0; i < w.n; ++i) {
        float r = 1.0f;
        for (int b = 0; b < w.bits_per_symbol; ++b) r = std::min(r, w.bit_confidence[i * w.bits_per_symbol + b]);
        reliability[i] = r;
        order[i] = i;
    }
    std::sort(order, order + w.n, [&](int a, int b) { return reliability[a] < reliability[b]; });
    // Only doubtful symbols are worth erasing, only doubtful bits worth flipping.
    int candidates = 0;
    while (try_erasures && candidates < w.n && candidates < rs.parity() && reliability[order[candidates]] < 0.75f)
        ++candidates;
    int bit_order[128];
    for (int b = 0; b < total_bits; ++b) bit_order[b] = b;
    std::partial_sort(bit_order, bit_order + std::min(total_bits, max_flips), bit_order + total_bits,
                      [&](int a, int b) { return w.bit_confidence[a] < w.bit_confidence[b]; });
    int flippable = 0;
    while (flippable < max_flips && flippable < total_bits && w.bit_confidence[bit_order[flippable]] < flip_below)
        ++flippable;
    const double patterns_tried = candidates + flippable;  // log2 of the decodes tried

    for (unsigned flips = 0; flips < (1u << flippable); ++flips) {
        std::uint8_t start[16];
        std::memcpy(start, w.hard, static_cast<std::size_t>(w.n));
        for (int f = 0; f < flippable; ++f) {
            if (!(flips & (1u << f))) continue;
            const int bit = bit_order[f];
            start[bit / w.bits_per_symbol] ^= static_cast<std::uint8_t>(1u << (w.bits_per_symbol - 1 - bit % w.bits_per_symbol));
        }
        for (unsigned mask = 0; mask < (1u << candidates); ++mask) {
            int erasures[16];
            int count = 0;
            for (int c = 0; c < candidates; ++c)
                if (mask & (1u << c)) erasures[count++] = order[c];
            std::uint8_t word[16];
            std::memcpy(word, start, static_cast<std::size_t>(w.n));
            RsDecodeOutcome r = rs.decode(word, w.n, erasures, count);
            if (!r.ok) continue;
            float cost = 0;
            int changed = 0;
            for (int i = 0; i < w.n; ++i) {
                if (word[i] == w.hard[i]) continue;
                ++changed;
                for (int b = 0; b < w.bits_per_symbol; ++b) {
                    int shift = w.bits_per_symbol - 1 - b;
                    if (((word[i] ^ w.hard[i]) >> shift) & 1) cost += w.bit_confidence[i * w.bits_per_symbol + b];
                }
            }
            // What the unused parity still checks: a random word decodes this way with
            // probability ball(errors) / q^(parity - erasures); every pattern tried adds a chance.
            int changed_unerased = 0;
            unsigned touched = 0;
            for (int i = 0; i < w.n; ++i) {
                bool erased = false;
                for (int e = 0; e < count; ++e) erased = erased || erasures[e] == i;
                if (!erased && word[i] != start[i]) ++changed_unerased;
                if (erased || word[i] != w.hard[i]) touched |= 1u << i;
            }
            double check_bits = w.bits_per_symbol * (rs.parity() - count) -
                                log2_ball(w.n - count, changed_unerased, 1 << w.bits_per_symbol) - patterns_tried;
            // Least overruled evidence wins; the same word reached another way keeps the
            // better-checked account.
            bool same_word = best.ok && std::memcmp(best.word, word, static_cast<std::size_t>(w.n)) == 0;
            if (best.ok && !same_word && cost >= best.cost) continue;
            if (same_word && check_bits <= best.check_bits) continue;
            best.ok = true;
            std::memcpy(best.word, word, static_cast<std::size_t>(w.n));
            best.cost = cost;
            best.corrected = changed;
            best.erasures = count;
            best.touched = touched;
            best.check_bits = check_bits;
        }
    }
    return best;
}

// The arc word as sampled, except for the colours that were not seen at all (every
// position erased: a highlight's core, an occluder; they read 0.5). Those are not samples
// but unknowns: every value they can take is tried, so each unseen bit doubles the words
// tried and spends one bit of the word's checking. A fixed guess (the hard decision's 0)
// spent the same bit but read only when the guess happened to be right. Two different
// codewords among the tries leave the word unread.
struct ArcWordReading : SoftOutcome {
    bool ambiguous = false;
    bool unchecked = false;     // some try decoded, but with less checking left than the word needs
    bool close_rival = false;   // another codeword is one misread colour away (kLooseArcBitConfidence)
};

// `partly_unseen`: arcs of which some positions were not seen.
ArcWordReading read_arc_word(const ReedSolomon& rs, const ArcBitChecks& checks, const std::uint8_t bits[kArcBits],
                             const float confidence[kArcBits], const bool partly_unseen[kArcBits]) {
    int unseen[kArcBits];
    int unseen_count = 0;
    for (int i = 0; i < kArcBits; ++i)
        if (confidence[i] < kMinArcBitConfidence) unseen[unseen_count++] = i;
    ArcWordReading best;
    SoftWord word;
    word.n = 7;
    // More unknowns than the checking can pay for read nothing whatever they are.
    if (word.bits_per_symbol * rs.parity() - unseen_count < kMinArcWordCheckBits) {
        best.unchecked = true;
        return best;
    }
    std::uint8_t trial_bits[kArcBits];
    std::memcpy(trial_bits, bits, kArcBits);
    std::memcpy(word.bit_confidence, confidence, sizeof(float) * kArcBits);
    for (int u = 0; u < unseen_count; ++u) word.bit_confidence[unseen[u]] = 1.0f;   // fixed within one try
    for (unsigned values = 0; values < (1u << unseen_count); ++values) {
        for (int u = 0; u < unseen_count; ++u) trial_bits[unseen[u]] = static_cast<std::uint8_t>((values >> u) & 1u);
        bits_to_bytes(trial_bits, 7, 8, word.hard);
        // Read as sampled: no erasures tried. An erased symbol spends 8 of the word's 16 bits
        // of checking, so no such decode could pass kMinArcWordCheckBits, yet each pattern
        // tried would still be charged to the decode as sampled.
        SoftOutcome tried = soft_decode(rs, word, 0, 0.0f, false);
        if (!tried.ok) continue;
        tried.check_bits -= unseen_count;
        if (tried.check_bits < kMinArcWordCheckBits) {
            best.unchecked = true;
            continue;
        }
        if (best.ok && std::memcmp(best.word, tried.word, 7) != 0) {
            best.ambiguous = true;
            best.ok = false;
            return best;
        }
        if (!best.ok || tried.check_bits > best.check_bits) static_cast<SoftOutcome&>(best) = tried;
    }
    if (best.ok) {
        bool loose[kArcBits];
        for (int i = 0; i < kArcBits; ++i) loose[i] = confidence[i] < kLooseArcBitConfidence || partly_unseen[i];
        if (arc_word_has_close_rival(checks, loose)) {
            best.ok = false;
            best.close_rival = true;
        }
    }
    return best;
}

template <std::size_t N>
Failure uncorrectable(const char (&what)[N]) {
    return fail(ACC_E_UNCORRECTABLE, what);
}

}  // namespace

Result<acc_decode_result> decode_observation(const acc_ring_observation& o, UrlDecompressor& urls) {
    const FormatTables& t = tables();
    for (int i = 0; i < 128; ++i)
        if (!(o.p_arc_start[i] >= 0.0f && o.p_arc_start[i] <= 1.0f) || !(o.p_third[i] >= 0.0f && o.p_third[i] <= 1.0f))
            return fail(ACC_E_INVALID_ARGUMENT, "observation probabilities must be in [0, 1]", i);

    // Ring bits in pre-permutation order.
    std::uint8_t pre[128];
    float conf[128];
    for (int i = 0; i < 128; ++i) {
        int r = t.lut[static_cast<std::size_t>(i)];
        pre[i] = o.p_arc_start[r] > 0.5f ? 0 : 1;
        conf[i] = confidence(o.p_arc_start[r]);
    }

    // The template byte is constant: confident mismatches mean this is not a code (or
    // not this rotation). One is tolerated as a misread sample (glare, a stain) and paid
    // for in evidence below.
    int template_mismatches = 0;
    for (int i = 0; i < kTemplateBits; ++i) {
        int at = kMetaBits + kGapBits + i;
        if (pre[at] != template_bit(i) && conf[at] >= 0.5f) ++template_mismatches;
    }
    if (template_mismatches > 1) return uncorrectable("the template byte does not match");

    SoftWord meta_word;
    meta_word.n = 4;
    meta_word.bits_per_symbol = 4;
    bits_to_bytes(pre, 4, 4, meta_word.hard);
    std::memcpy(meta_word.bit_confidence, conf, sizeof(float) * kMetaBits);
    SoftOutcome meta = soft_decode(t.metadata_rs, meta_word, kMaxFlippedBits, kFlipBelow);
    if (!meta.ok) return uncorrectable("the metadata word is not correctable");
    int version = (meta.word[0] << 3) | (meta.word[1] >> 1);
    bool inverted = (meta.word[1] & 1) != 0;
    if (version != 0 && version != 1 && version != 8)
        return fail(ACC_E_UNSUPPORTED_VERSION, "the version is not known (value: the version)", -1, version);
    // A word whose correction changed only bits that were not seen at all (glare or an object
    // over the metadata's positions) is recovered exactly from the bits that were; with two
    // symbols unseen nothing is left over to check it, but a wrong version or inversion still
    // has to get past the gap word, the inversion check and the evidence budget below
    // (tools/dev/codec_stress.cpp: unseen stretches with misreads beside them).
    // (The correction's cost sums the confidence of the bits it overruled; an unseen bit, read
    // 0.5, has confidence exactly 0.)
    const bool only_unseen_changed = meta.cost == 0.f;
    if (meta.check_bits + kMetadataValidityBits < 6.0 && !only_unseen_changed)
        return uncorrectable("the metadata word was corrected beyond what can be checked");

    std::uint8_t gap_hard[kGapBits];
    float gap_conf[kGapBits];
    for (int i = 0; i < kGapBits; ++i) {
        gap_hard[i] = static_cast<std::uint8_t>(pre[kMetaBits + i] ^ (inverted ? 1 : 0));
        gap_conf[i] = conf[kMetaBits + i];
    }

    acc_decode_result result;
    std::memset(&result, 0, sizeof result);
    result.version = version;
    std::uint8_t gap_symbols[13];
    unsigned gaps_touched = 0;
    double gaps_check = 1e9;
    int corrected = meta.corrected, erasures = meta.erasures;
    // Evidence that the payload is right (Reed-Solomon checks left unused, repeated
    // bits that agree) and that this is a code at all (template byte, separator).
    double payload_bits = meta.check_bits;
    double code_bits = 0;
    for (int i = 0; i < kTemplateBits; ++i)
        if (conf[kMetaBits + kGapBits + i] >= 0.5f) code_bits += 1;
    code_bits -= 3 * template_mismatches;   // the wrong bit's +1 back, and 2 for the misread
    if (version == 8) {
        // Raw bits with no known error correction: accept only confident samples.
        for (int i = 0; i < kGapBits; ++i)
            if (gap_conf[i] < 0.5f) return uncorrectable("a version-8 token has uncertain gap bits and no error correction");
        bits_to_bytes(gap_hard, 13, 8, gap_symbols);
    } else {
        SoftWord gap_word;
        gap_word.n = 13;
        bits_to_bytes(gap_hard, 13, 8, gap_word.hard);
        std::memcpy(gap_word.bit_confidence, gap_conf, sizeof gap_conf);
        SoftOutcome gaps = soft_decode(version == 0 ? t.gaps_rs_v0 : t.gaps_rs_v1, gap_word, kMaxFlippedBits, kFlipBelow);
        if (!gaps.ok) return uncorrectable("the gap word is not correctable");
        std::memcpy(gap_symbols, gaps.word, 13);
        corrected += gaps.corrected;
        erasures += gaps.erasures;
        payload_bits += gaps.check_bits;
        gaps_touched = gaps.touched;
        gaps_check = gaps.check_bits;
    }

    // With the gaps known, rebuild the exact ring layout to find the visible arcs.
    std::uint8_t gap_bits[kGapBits], drawn[kGapBits];
    bytes_to_bits(gap_symbols, 13, 8, gap_bits);
    for (int i = 0; i < kGapBits; ++i) drawn[i] = static_cast<std::uint8_t>(gap_bits[i] ^ (inverted ? 1 : 0));
    std::uint8_t no_arcs[kArcBits] = {0};
    acc_code_bits layout = assemble(t, version, drawn, no_arcs, inverted);
    int visible = static_cast<int>(std::count(layout.gaps, layout.gaps + 128, 0));
    if (visible < 1 + kArcBits) return uncorrectable("too few arcs for the color stream");

    // Each visible arc's color: the mean of p_third over the positions it covers.
    float arc_p[128];
    bool arc_partly_unseen[128];
    int arc_count = 0;
    for (const auto& ring : t.rings) {
        for (int p = 0; p < ring.positions; ++p) {
            if (layout.gaps[ring.first_bit + p] != 0) continue;
            float sum = 0;
            int n = 0;
            int q = p;
            bool part_unseen = false;
            do {
                sum += o.p_third[ring.first_bit + q];
                part_unseen = part_unseen || confidence(o.p_third[ring.first_bit + q]) < kMinArcBitConfidence;
                ++n;
                q = (q + 1) % ring.positions;
            } while (layout.gaps[ring.first_bit + q] != 0 && q != p);
            arc_partly_unseen[arc_count] = part_unseen;
            arc_p[arc_count++] = sum / static_cast<float>(n);
        }
    }
    std::uint8_t color_hard[128];
    float color_conf[128];
    for (int i = 0; i < arc_count; ++i) {
        color_hard[i] = arc_p[i] > 0.5f ? 1 : 0;
        color_conf[i] = confidence(arc_p[i]);
    }
    // The separator is a constant: like a repeated gap bit it confirms the layout, and a
    // confidently wrong one is a misread colour that costs evidence, not a verdict.
    int layout_mismatches = 0;
    if (color_conf[0] >= 0.5f) {
        if (color_hard[0] == 0) {
            code_bits += 1;
        } else {
            ++layout_mismatches;
            code_bits -= 2;
        }
    }

    std::uint8_t arc_symbols[7];
    if (version == 8) {
        for (int i = 1; i <= kArcBits; ++i)
            if (color_conf[i] < 0.5f) return uncorrectable("a version-8 token has uncertain color bits and no error correction");
        bits_to_bytes(color_hard + 1, 7, 8, arc_symbols);
    } else {
        const ArcWordReading arcs = read_arc_word(t.arcs_rs, t.arc_bit_checks, color_hard + 1, color_conf + 1, arc_partly_unseen + 1);
        if (arcs.ambiguous) return uncorrectable("the arc word's unseen colours fit more than one codeword");
        if (arcs.close_rival) return uncorrectable("another arc word is one misread colour away");
        if (!arcs.ok && arcs.unchecked) return uncorrectable("the arc word was corrected beyond what can be checked");
        if (!arcs.ok) return uncorrectable("the arc word is not correctable");
        std::memcpy(arc_symbols, arcs.word, 7);
        corrected += arcs.corrected;
        erasures += arcs.erasures;
        payload_bits += arcs.check_bits;
    }

    // The rest of the color stream repeats the first (inverted if flagged) gap bits.
    for (int i = 1 + kArcBits; i < arc_count; ++i) {
        if (color_conf[i] < 0.5f) continue;
        int g = i - 1 - kArcBits;
        bool touched = (gaps_touched & (1u << (g / 8))) != 0;
        if (color_hard[i] != drawn[g]) {
            // Against a corrected gap symbol, a disagreeing repeat means a likely
            // miscorrection. Against an untouched one it is a misread color (an
            // occluded arc, say): it costs evidence, and a few of them end it.
            if (touched) return uncorrectable("the repeated gap bits disagree with a corrected gap symbol");
            if (++layout_mismatches > 3) return uncorrectable("the repeated gap bits in the color stream disagree");
            code_bits -= 2;
            continue;
        }
        // A repeat checks the payload only where the correction changed the bit or the
        // sampler had no firm view of it; elsewhere it confirms the layout, i.e. that
        // this is a code (agreeing with a confident read proves nothing about a correction).
        const bool decided_by_correction = gap_bits[g] != gap_hard[g] || gap_conf[g] < 0.5f;
        if (touched && decided_by_correction) {
            payload_bits += 1;
            gaps_check += 1;
        } else {
            code_bits += 1;
        }
    }
    if (version != 8 && gaps_check < kMinWordCheckBits) return uncorrectable("the gap word was corrected beyond what can be checked");
    // Apple inverts the gaps exactly when they hold 51 zeros or fewer: one more check.
    int rs_zeros = static_cast<int>(std::count(gap_bits, gap_bits + kGapBits, 0));
    if (version != 8) {
        if (inverted != (rs_zeros < kMinGapZeros)) return uncorrectable("the inversion flag disagrees with the gap bits");
        payload_bits += 1;
    }
    if (version == 8) payload_bits = 0;  // no error correction: only the confidence gates above
    if (version != 8 && (payload_bits < kMinPayloadCheckBits || payload_bits + code_bits < kMinTotalCheckBits))
        return fail(ACC_E_UNCORRECTABLE, "too little evidence left to trust the correction (value: its check bits)", -1,
                    static_cast<int>(payload_bits));

    if (version == 8) {
        result.payload_length = ACC_TOKEN_BYTES;
        std::memcpy(result.payload, gap_symbols, 13);
        std::memcpy(result.payload + 13, arc_symbols, 7);
    } else {
        const auto& p = data::version_parameters[version];
        std::uint8_t scrambled[16];
        std::memcpy(scrambled, gap_symbols, static_cast<std::size_t>(p.gaps_data));
        std::memcpy(scrambled + p.total_data - p.arcs_data, arc_symbols, static_cast<std::size_t>(p.arcs_data));
        std::uint8_t payload[16] = {0};
        for (int i = 0; i < p.total_data; ++i) payload[16 - p.total_data + (p.total_data - 1 - i)] = scrambled[i] ^ 0xA5;
        // Apple uses version 1 only when version 0 cannot hold the payload.
        if (version == 1 && payload[0] == 0 && payload[1] == 0) return uncorrectable("a version-1 word holding a version-0 payload");
        if (Failure f = urls.decompress(payload); f.status != ACC_OK) return f;
        result.payload_length = ACC_PAYLOAD_BYTES;
        std::memcpy(result.payload, payload, 16);
    }

    // Report the corrected ring bits the way an encoder would draw them.
    std::uint8_t arc_bits[kArcBits];
    bytes_to_bits(arc_symbols, 7, 8, arc_bits);
    result.bits = assemble(t, version, drawn, arc_bits, inverted);
    result.corrected_symbols = corrected;
    result.erasures = erasures;
    result.check_bits = static_cast<float>(payload_bits + code_bits);
    result.margin = version == 8 ? 1.0f
                                 : static_cast<float>(std::min(1.0, std::max(0.0, (payload_bits - kMinPayloadCheckBits) / 40.0)));
    return result;
}

Result<acc_decode_result> decode_observation(const acc_ring_observation& observation) {
    UrlDecompressor urls;
    return decode_observation(observation, urls);
}

}  // namespace appclip
