// Checks format/arc_word_rivals.cpp against brute force. The arc word's code is linear, so a
// rival of any decoded word is that word plus a nonzero codeword; the check asks, for random
// sets of loose bits, whether some nonzero codeword has every set bit among the loose ones
// and at most one more, by trying every such bit pattern and asking the Reed-Solomon decoder
// (not the parity vectors the rule uses) whether it is a codeword: it is exactly when the
// decoder accepts it without changing a symbol. Exits 1 on any disagreement.
//   tools/codec_stress_check.sh (with the codec stress)
#include <cstdio>
#include <random>

#include "format/arc_word_rivals.hpp"
#include "format/format_tables.hpp"

namespace {

bool is_nonzero_codeword(const appclip::ReedSolomon& rs, const bool bits[appclip::kArcWordBits]) {
    std::uint8_t word[7] = {0, 0, 0, 0, 0, 0, 0};
    bool any = false;
    for (int i = 0; i < appclip::kArcWordBits; ++i) {
        if (!bits[i]) continue;
        word[i / 8] = static_cast<std::uint8_t>(word[i / 8] | (1u << (7 - i % 8)));
        any = true;
    }
    if (!any) return false;
    const appclip::RsDecodeOutcome r = rs.decode(word, 7, nullptr, 0);
    return r.ok && r.corrected == 0;
}

// Brute force: a nonzero codeword within the loose bits and at most one other bit.
bool has_rival_by_search(const appclip::ReedSolomon& rs, const bool loose[appclip::kArcWordBits]) {
    int index[appclip::kArcWordBits];
    int k = 0;
    for (int i = 0; i < appclip::kArcWordBits; ++i)
        if (loose[i]) index[k++] = i;
    bool bits[appclip::kArcWordBits];
    for (unsigned subset = 0; subset < (1u << k); ++subset) {
        for (int extra = -1; extra < appclip::kArcWordBits; ++extra) {
            if (extra >= 0 && loose[extra]) continue;
            for (bool& b : bits) b = false;
            for (int j = 0; j < k; ++j) bits[index[j]] = ((subset >> j) & 1u) != 0;
            if (extra >= 0) bits[extra] = true;
            if (is_nonzero_codeword(rs, bits)) return true;
        }
    }
    return false;
}

}  // namespace

int main() {
    const appclip::ReedSolomon& rs = appclip::tables().arcs_rs;
    const appclip::ArcBitChecks& checks = appclip::tables().arc_bit_checks;
    std::mt19937 rng(46);
    long cases = 0, rivals = 0, failures = 0;
    for (int loose_count = 0; loose_count <= 9; ++loose_count) {
        for (int trial = 0; trial < 150; ++trial) {
            bool loose[appclip::kArcWordBits] = {};
            // Loose bits anywhere, or (every other set) within three symbols, where a
            // highlight's unseen arcs gather.
            const bool packed = trial % 2 == 1;   // three distinct symbols hold 24 bits, enough for 9
            int symbols[3] = {static_cast<int>(rng() % 7), 0, 0};
            symbols[1] = (symbols[0] + 1 + static_cast<int>(rng() % 6)) % 7;
            do symbols[2] = static_cast<int>(rng() % 7);
            while (symbols[2] == symbols[0] || symbols[2] == symbols[1]);
            for (int placed = 0; placed < loose_count;) {
                const int bit = packed ? symbols[rng() % 3] * 8 + static_cast<int>(rng() % 8)
                                       : static_cast<int>(rng() % appclip::kArcWordBits);
                if (loose[bit]) continue;
                loose[bit] = true;
                ++placed;
            }
            const bool rule = appclip::arc_word_has_close_rival(checks, loose);
            const bool truth = has_rival_by_search(rs, loose);
            ++cases;
            rivals += truth ? 1 : 0;
            if (rule != truth) {
                ++failures;
                std::printf("FAIL: %d loose bits, rule %d, search %d\n", loose_count, rule ? 1 : 0, truth ? 1 : 0);
            }
        }
    }
    std::printf("%ld loose sets of 0-9 bits, %ld with a rival one bit away, %ld disagree\n", cases, rivals, failures);
    return failures == 0 ? 0 : 1;
}
