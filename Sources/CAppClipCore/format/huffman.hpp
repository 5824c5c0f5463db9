// Huffman codes built the way Apple's URL compression builds them, and the
// context coders (host, SPQ, CPQ) that pick a code from the last two symbols.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "bits.hpp"

namespace appclip {

// One Huffman code over k symbols, stored in caller-provided slices so that
// thousands of them can live in three flat arrays.
// Codes are packed as (bits << 8) | length: Apple's tables give codes of at most
// 20 bits, and a symbol count of at most 75 keeps tree entries in an int8.
struct HuffmanSlices {
    std::uint32_t* codes;     // k packed codes, MSB-first bits
    std::int8_t* tree;        // 2*(k-1) children of internal nodes; >=0 internal, <0 ~symbol
};
inline std::uint32_t code_bits(std::uint32_t packed) { return packed >> 8; }
inline int code_length(std::uint32_t packed) { return static_cast<int>(packed & 0xFFu); }

// Builds the code: the two nodes least by (frequency, key of the leftmost leaf) merge,
// again and again; the first taken becomes the left (0) child. `keys` order symbols for ties.
// Zero frequencies are refused (every trie entry is non-zero), as are keys outside 0..255
// and k outside 2..127.
// Returns false if a code would be longer than 24 bits (never with Apple's tables).
bool build_huffman(const std::uint32_t* frequencies, const int* keys, int k, HuffmanSlices out);

// Walks the tree of a code over `symbols` symbols from its root (internal node
// symbols-2, the last one built); returns the symbol, or -1 if the bits run out.
int huffman_decode(const std::int8_t* tree, int symbols, BitReader& reader);

// A coder whose code depends on up to two previous symbols (the trie in *.data).
class ContextCoder {
public:
    // `trie` holds (1 + k + k*k) nodes of k big-endian uint16 frequencies.
    ContextCoder(const char* alphabet, const unsigned char* trie, std::size_t trie_size);

    int symbol_count() const { return k_; }
    // -1 if the character is not in the alphabet.
    int index_of(char c) const { return index_[static_cast<unsigned char>(c)]; }
    char symbol(int index) const { return alphabet_[static_cast<std::size_t>(index)]; }
    bool can_encode(const std::string& text) const;

    // Context state: the trie node for the symbols seen so far.
    static constexpr int kRoot = 0;
    int start_after(char c) const { return child(kRoot, index_of(c)); }
    int next_context(int node, int symbol) const;

    // Appends the code of `text` starting in context `node`; false if a character
    // is outside the alphabet.
    bool encode(const std::string& text, int node, BitWriter& out) const;
    // Bits `encode` would write, or -1.
    int encoded_length(const std::string& text, int node) const;
    // Decodes symbols until `terminator` (consumed, not stored) or the end of the
    // bits. Returns false if the bits end inside a code. `terminated` tells which.
    bool decode(BitReader& in, int node, char terminator, std::string& text, bool& terminated) const;

    std::size_t memory_bytes() const;

private:
    int child(int node, int symbol) const { return k_ * node + 1 + symbol; }
    int depth_of(int node) const { return node == 0 ? 0 : (node <= k_ ? 1 : 2); }

    std::string alphabet_;
    int k_ = 0;
    int nodes_ = 0;
    std::array<int, 256> index_{};
    std::vector<std::uint32_t> codes_;
    std::vector<std::int8_t> trees_;
};

}  // namespace appclip
