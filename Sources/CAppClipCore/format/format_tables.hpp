// The format's tables, built once from the compiled-in facts and then only read.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "arc_word_rivals.hpp"
#include "generated/format_tables_data.hpp"
#include "huffman.hpp"
#include "reed_solomon.hpp"

namespace appclip {

struct RingLayout {
    int first_bit;   // index of the ring's position 0 among the 128 ring bits
    int positions;
    double radius;
    double rotation_deg;
    double half_gap_deg;
};

struct FormatTables {
    double build_started_ms;  // first member: initialised before the coders are built
    ContextCoder host;
    ContextCoder spq;
    ContextCoder cpq;

    // Format 0: Huffman code over the 20 common TLDs.
    std::vector<std::string> huffman_tld_names;
    std::vector<std::uint32_t> huffman_tld_codes;  // packed as in HuffmanSlices
    std::vector<std::int8_t> huffman_tld_tree;

    // Format 1: 8-bit index → TLD ("" where unused).
    std::array<std::string, 256> fixed_tld_by_index;

    std::vector<std::string> wordbook;
    std::array<char, 64> fixed6{};
    std::array<int, 256> fixed6_index{};

    std::array<RingLayout, 5> rings{};
    std::array<std::uint8_t, 128> lut{};  // pre-permutation bit i → ring bit lut[i]

    GaloisField gf16;
    GaloisField gf256;
    ReedSolomon metadata_rs;      // RS(4,2) over GF(16)
    ReedSolomon gaps_rs_v0;       // RS(13,9)
    ReedSolomon gaps_rs_v1;       // RS(13,11)
    ReedSolomon arcs_rs;          // RS(7,5)
    ArcBitChecks arc_bit_checks;  // each arc-word bit's parity-check vector (arc_word_rivals.hpp)

    double build_milliseconds = 0;  // how long building took (reported by benchmarks)

    FormatTables();
    int huffman_tld_index(const std::string& tld) const;
    int fixed_tld_index(const std::string& tld) const;  // 0 if absent
    int wordbook_index(const std::string& word) const;   // -1 if absent
    std::size_t memory_bytes() const;
};

// Built on first use (thread-safe static initialisation), shared read-only after.
const FormatTables& tables();

}  // namespace appclip
