#include "huffman.hpp"

#include <algorithm>

namespace appclip {

namespace {

// A node waiting to merge, as one number that orders as (frequency, key of its leftmost
// leaf) and carries its id (< k: leaf symbol, >= k: internal node id - k) in the low byte.
// No two waiting nodes share a key (an internal node's is its leftmost leaf's, which no
// longer waits), so the id never decides the order.
using Node = std::uint64_t;
Node make_node(std::uint64_t frequency, int key, int id) {
    return frequency << 16 | static_cast<std::uint64_t>(key) << 8 | static_cast<std::uint64_t>(id);
}
std::uint64_t frequency_of(Node n) { return n >> 16; }
int key_of(Node n) { return static_cast<int>((n >> 8) & 0xFFu); }
int id_of(Node n) { return static_cast<int>(n & 0xFFu); }

}  // namespace

bool build_huffman(const std::uint32_t* frequencies, const int* keys, int k, HuffmanSlices out) {
    constexpr int kMaxSymbols = 127;
    if (k < 2 || k > kMaxSymbols) return false;
    // Two queues instead of a heap (building a context coder's thousands of codes was most
    // of a cold process's first read): the leaves sorted once, and the merged nodes in the
    // order they are made, which is already theirs. Nodes are taken in increasing order and
    // frequencies are positive, so a merged node outweighs both its parts; two merged nodes of
    // equal frequency then have parts of one frequency, and the earlier one's left part, whose
    // key it keeps, was taken first.
    Node leaves[kMaxSymbols], merged[kMaxSymbols];
    for (int s = 0; s < k; ++s) {
        if (frequencies[s] == 0 || keys[s] < 0 || keys[s] > 0xFF) return false;
        leaves[s] = make_node(frequencies[s], keys[s], s);
    }
    std::sort(leaves, leaves + k);
    int next_leaf = 0, next_merged = 0;
    auto take = [&](int merged_count) {
        if (next_leaf < k && (next_merged == merged_count || leaves[next_leaf] < merged[next_merged]))
            return leaves[next_leaf++];
        return merged[next_merged++];
    };
    for (int internal = 0; internal < k - 1; ++internal) {
        const Node left = take(internal);
        const Node right = take(internal);
        const int left_id = id_of(left), right_id = id_of(right);
        out.tree[2 * internal] = static_cast<std::int8_t>(left_id >= k ? left_id - k : ~left_id);
        out.tree[2 * internal + 1] = static_cast<std::int8_t>(right_id >= k ? right_id - k : ~right_id);
        merged[internal] = make_node(frequency_of(left) + frequency_of(right), key_of(left), k + internal);
    }
    // Assign codes by walking from the root: left = 0, right = 1.
    struct Walk { int node; std::uint32_t code; int length; };
    Walk stack[256];
    int top = 0;
    stack[top++] = Walk{k - 2, 0, 0};  // the last internal node made is the root
    while (top > 0) {
        Walk w = stack[--top];
        for (int bit = 0; bit < 2; ++bit) {
            std::int8_t c = out.tree[2 * w.node + bit];
            std::uint32_t code = (w.code << 1) | static_cast<std::uint32_t>(bit);
            if (w.length + 1 > 24) return false;
            if (c < 0) {
                out.codes[~c] = (code << 8) | static_cast<std::uint32_t>(w.length + 1);
            } else {
                stack[top++] = Walk{c, code, w.length + 1};
            }
        }
    }
    return true;
}

int huffman_decode(const std::int8_t* tree, int symbols, BitReader& reader) {
    int node = symbols - 2;  // the root
    for (;;) {
        int b = reader.bit();
        if (b < 0) return -1;
        std::int8_t c = tree[2 * node + b];
        if (c < 0) return ~c;
        node = c;
    }
}

ContextCoder::ContextCoder(const char* alphabet, const unsigned char* trie, std::size_t trie_size)
    : alphabet_(alphabet), k_(static_cast<int>(alphabet_.size())) {
    index_.fill(-1);
    for (int i = 0; i < k_; ++i) index_[static_cast<unsigned char>(alphabet_[static_cast<std::size_t>(i)])] = i;
    nodes_ = 1 + k_ + k_ * k_;
    // The trie file's size is a fact checked by tests; refuse silently-wrong layouts.
    if (trie_size != static_cast<std::size_t>(nodes_) * static_cast<std::size_t>(k_) * 2u) {
        nodes_ = 0;
        return;
    }
    codes_.resize(static_cast<std::size_t>(nodes_ * k_));
    trees_.resize(static_cast<std::size_t>(nodes_ * 2 * (k_ - 1)));
    std::vector<std::uint32_t> freq(static_cast<std::size_t>(k_));
    std::vector<int> keys(static_cast<std::size_t>(k_));
    // Alphabets are in ASCII order, so the symbol index is the lexicographic key.
    for (int s = 0; s < k_; ++s) keys[static_cast<std::size_t>(s)] = static_cast<unsigned char>(alphabet_[static_cast<std::size_t>(s)]);
    for (int n = 0; n < nodes_; ++n) {
        const unsigned char* p = trie + static_cast<std::size_t>(n) * static_cast<std::size_t>(k_) * 2u;
        for (int s = 0; s < k_; ++s) freq[static_cast<std::size_t>(s)] = (static_cast<std::uint32_t>(p[2 * s]) << 8) | p[2 * s + 1];
        std::size_t at = static_cast<std::size_t>(n) * static_cast<std::size_t>(k_);
        if (!build_huffman(freq.data(), keys.data(), k_,
                           HuffmanSlices{&codes_[at], &trees_[static_cast<std::size_t>(n) * 2u * static_cast<std::size_t>(k_ - 1)]})) {
            nodes_ = 0;  // a table this code cannot hold: every use then fails cleanly
            return;
        }
    }
}

bool ContextCoder::can_encode(const std::string& text) const {
    for (char c : text)
        if (index_of(c) < 0) return false;
    return true;
}

int ContextCoder::next_context(int node, int symbol) const {
    if (depth_of(node) < 2) return child(node, symbol);
    // Depth 2 slides: keep only the previous symbol, then descend by the new one.
    int previous = (node - 1) % k_;
    return child(child(kRoot, previous), symbol);
}

bool ContextCoder::encode(const std::string& text, int node, BitWriter& out) const {
    if (nodes_ == 0) return false;
    for (char c : text) {
        int s = index_of(c);
        if (s < 0) return false;
        std::size_t at = static_cast<std::size_t>(node) * static_cast<std::size_t>(k_) + static_cast<std::size_t>(s);
        out.put(code_bits(codes_[at]), code_length(codes_[at]));
        node = next_context(node, s);
    }
    return true;
}

int ContextCoder::encoded_length(const std::string& text, int node) const {
    if (nodes_ == 0) return -1;
    int total = 0;
    for (char c : text) {
        int s = index_of(c);
        if (s < 0) return -1;
        total += code_length(codes_[static_cast<std::size_t>(node) * static_cast<std::size_t>(k_) + static_cast<std::size_t>(s)]);
        node = next_context(node, s);
    }
    return total;
}

bool ContextCoder::decode(BitReader& in, int node, char terminator, std::string& text, bool& terminated) const {
    terminated = false;
    if (nodes_ == 0) return false;
    while (!in.at_end()) {
        int s = huffman_decode(&trees_[static_cast<std::size_t>(node) * 2u * static_cast<std::size_t>(k_ - 1)], k_, in);
        if (s < 0) return false;  // the bits ended inside a code
        char c = symbol(s);
        if (c == terminator) {
            terminated = true;
            return true;
        }
        text.push_back(c);
        node = next_context(node, s);
    }
    return true;
}

std::size_t ContextCoder::memory_bytes() const {
    return codes_.size() * sizeof(std::uint32_t) + trees_.size() * sizeof(std::int8_t);
}

}  // namespace appclip
