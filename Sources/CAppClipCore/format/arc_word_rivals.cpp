#include "arc_word_rivals.hpp"

namespace appclip {

ArcBitChecks arc_bit_checks(const ReedSolomon& arcs_rs) {
    ArcBitChecks checks{};
    for (int bit = 0; bit < kArcWordBits; ++bit) {
        const int symbol = bit / 8;
        const auto value = static_cast<std::uint8_t>(1u << (7 - bit % 8));
        if (symbol >= 5) {   // a parity bit checks itself
            checks[static_cast<std::size_t>(bit)] = static_cast<std::uint16_t>(symbol == 5 ? value << 8 : value);
            continue;
        }
        std::uint8_t data[5] = {0, 0, 0, 0, 0}, parity[2] = {0, 0};
        data[symbol] = value;
        arcs_rs.encode(data, 5, parity);
        checks[static_cast<std::size_t>(bit)] = static_cast<std::uint16_t>(parity[0] << 8 | parity[1]);
    }
    return checks;
}

bool arc_word_has_close_rival(const ArcBitChecks& checks, const bool loose[kArcWordBits]) {
    // The loose bits' vectors in echelon form: basis[k] has k as its highest set bit.
    std::uint16_t basis[16] = {0};
    auto reduce = [&basis](std::uint16_t v) {
        for (int k = 15; k >= 0 && v != 0; --k)
            if (((v >> k) & 1u) != 0 && basis[k] != 0) v = static_cast<std::uint16_t>(v ^ basis[k]);
        return v;
    };
    for (int i = 0; i < kArcWordBits; ++i) {
        if (!loose[i]) continue;
        const std::uint16_t v = reduce(checks[static_cast<std::size_t>(i)]);
        if (v == 0) return true;   // a codeword within the loose bits alone
        int top = 15;
        while (((v >> top) & 1u) == 0) --top;
        basis[top] = v;
    }
    // One firm bit whose vector the loose ones span: changing it and some loose bits
    // gives another codeword.
    for (int i = 0; i < kArcWordBits; ++i)
        if (!loose[i] && reduce(checks[static_cast<std::size_t>(i)]) == 0) return true;
    return false;
}

}  // namespace appclip
