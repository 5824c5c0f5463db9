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
struct HuffmanSlices {
    std::uint64_t* codes;     // k codes, MSB-first
    std::uint8_t* lengths;    // k lengths
    std::int16_t* tree;       // 2*(k-1) children of internal nodes; >=0 internal, <0 ~symbol
};

// Builds the code: a min-heap on (frequency, key of the leftmost leaf); the first
// node popped becomes the left (0) child. `keys` order symbols for ties.
// Zero frequencies are not allowed (every trie entry is non-zero). Returns the root
// internal node (0 when k == 1 is impossible here: k >= 2).
void build_huffman(const std::uint32_t* frequencies, const int* keys, int k, HuffmanSlices out);

// Walks the tree from `root`; returns the symbol, or -1 if the bits run out.
int huffman_decode(const std::int16_t* tree, BitReader& reader);

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
    std::vector<std::uint64_t> codes_;
    std::vector<std::uint8_t> lengths_;
    std::vector<std::int16_t> trees_;
};

}  // namespace appclip
