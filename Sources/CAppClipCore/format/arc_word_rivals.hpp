// Another arc word close to the one read. The arc word (RS(7,5) over GF(256), 56 bits) is
// read exactly as sampled, with unseen colours tried both ways; its binary image has
// codewords of only four bits, so unseen colours next to a misread one (a highlight's rim)
// can spell another codeword, and with it another payload that checks.
#pragma once
#include <array>
#include <cstdint>

#include "reed_solomon.hpp"

namespace appclip {

constexpr int kArcWordBits = 56;

// What each bit of the arc word adds to its check: the parity the word carries minus the
// parity its data would get (16 bits, zero exactly for codewords). The map is linear over
// GF(2), so bits can be changed together into another codeword exactly when their vectors
// sum to zero. Built once with the format tables (FormatTables::arc_bit_checks).
using ArcBitChecks = std::array<std::uint16_t, kArcWordBits>;
ArcBitChecks arc_bit_checks(const ReedSolomon& arcs_rs);

// Whether a codeword other than the one read agrees with it on every bit outside `loose`
// (unseen or doubtful colours) but at most one: such a word is one misread colour away.
bool arc_word_has_close_rival(const ArcBitChecks& checks, const bool loose[kArcWordBits]);

}  // namespace appclip
