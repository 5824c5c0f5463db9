// Another arc word close to the one read. The arc word (RS(7,5) over GF(256), 56 bits) is
// read exactly as sampled, with unseen colours tried both ways; its binary image has
// codewords of only four bits, so unseen colours next to a misread one (a highlight's rim)
// can spell another codeword, and with it another payload that checks.
#pragma once
#include <cstdint>

#include "reed_solomon.hpp"

namespace appclip {

constexpr int kArcWordBits = 56;

// Whether a codeword other than the one read agrees with it on every bit outside `loose`
// (unseen or doubtful colours) but at most one: such a word is one misread colour away.
bool arc_word_has_close_rival(const ReedSolomon& arcs_rs, const bool loose[kArcWordBits]);

}  // namespace appclip
