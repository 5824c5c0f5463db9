#include "arc_word_rivals.hpp"

namespace appclip {

namespace {

// What one bit of the arc word adds to its check: the parity the word carries minus the
// parity its data would get (16 bits, zero exactly for codewords). The map is linear over
// GF(2), so bits can be changed together into another codeword exactly when their vectors
// sum to zero.
std::uint16_t bit_check(const ReedSolomon& rs, int bit) {
    const int symbol = bit / 8;
    const auto value = static_cast<std::uint8_t>(1u << (7 - bit % 8));
    if (symbol >= 5) return static_cast<std::uint16_t>(symbol == 5 ? value << 8 : value);
    std::uint8_t data[5] = {0, 0, 0, 0, 0}, parity[2] = {0, 0};
    data[symbol] = value;
    rs.encode(data, 5, parity);
    return static_cast<std::uint16_t>(parity[0] << 8 | parity[1]);
}

}  // namespace

bool arc_word_has_close_rival(const ReedSolomon& arcs_rs, const bool loose[kArcWordBits]) {
    // The loose bits' vectors in echelon form: basis[k] has k as its highest set bit.
    std::uint16_t basis[16] = {0};
    auto reduce = [&basis](std::uint16_t v) {
        for (int k = 15; k >= 0 && v != 0; --k)
            if (((v >> k) & 1u) != 0 && basis[k] != 0) v = static_cast<std::uint16_t>(v ^ basis[k]);
        return v;
    };
    for (int i = 0; i < kArcWordBits; ++i) {
        if (!loose[i]) continue;
        const std::uint16_t v = reduce(bit_check(arcs_rs, i));
        if (v == 0) return true;   // a codeword within the loose bits alone
        int top = 15;
        while (((v >> top) & 1u) == 0) --top;
        basis[top] = v;
    }
    // One firm bit whose vector the loose ones span: changing it and some loose bits
    // gives another codeword.
    for (int i = 0; i < kArcWordBits; ++i)
        if (!loose[i] && reduce(bit_check(arcs_rs, i)) == 0) return true;
    return false;
}

}  // namespace appclip
