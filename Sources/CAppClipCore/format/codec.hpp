// Payload ⇄ ring bits: scrambling, Reed-Solomon words, gap inversion, metadata,
// template byte, permutation and the color stream. Knows nothing about pixels.
#pragma once
#include <array>
#include <cstdint>

#include "appclip_core.h"
#include "status.hpp"

namespace appclip {

// Encodes a 16-byte URL payload (version 0 or 1, chosen as Apple does).
Result<acc_code_bits> encode_payload(const std::uint8_t* payload16);

// Encodes a 20-byte version-8 token (no error correction is known for it).
Result<acc_code_bits> encode_token(const std::uint8_t* token20);

class UrlDecompressor;

// Decodes soft observations; accepts only words that pass every check, the payload's URL
// among them (decompressed with `urls`, whose url() then holds it).
Result<acc_decode_result> decode_observation(const acc_ring_observation& observation, UrlDecompressor& urls);
// The same with a decompressor of its own.
Result<acc_decode_result> decode_observation(const acc_ring_observation& observation);

}  // namespace appclip
