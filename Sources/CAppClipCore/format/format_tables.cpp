#include "format_tables.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace appclip {

namespace {

void build_tld_code(FormatTables& t) {
    const std::size_t k = data::huffman_tld_count;
    std::vector<std::uint32_t> freq(k);
    std::vector<int> order(k), keys(k);
    for (std::size_t i = 0; i < k; ++i) {
        t.huffman_tld_names.emplace_back(data::huffman_tlds[i].tld);
        freq[i] = data::huffman_tlds[i].frequency;
    }
    // Ties between equal frequencies go to the lexicographically smaller TLD.
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return t.huffman_tld_names[static_cast<std::size_t>(a)] < t.huffman_tld_names[static_cast<std::size_t>(b)]; });
    for (std::size_t r = 0; r < k; ++r) keys[static_cast<std::size_t>(order[r])] = static_cast<int>(r);
    t.huffman_tld_codes.resize(k);
    t.huffman_tld_tree.resize(2 * (k - 1));
    build_huffman(freq.data(), keys.data(), static_cast<int>(k), HuffmanSlices{t.huffman_tld_codes.data(), t.huffman_tld_tree.data()});
}

}  // namespace

namespace {
double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

FormatTables::FormatTables()
    : build_started_ms(now_ms()),
      host(data::alphabet_host, data::trie_h, data::trie_h_size),
      spq(data::alphabet_spq, data::trie_spq, data::trie_spq_size),
      cpq(data::alphabet_cpq, data::trie_cpq, data::trie_cpq_size),
      gf16(data::gf16.primitive, 4),
      gf256(data::gf256.primitive, 8),
      metadata_rs(gf16, 2, data::gf16.first_consecutive_root),
      gaps_rs_v0(gf256, data::version_parameters[0].gaps_parity, data::gf256.first_consecutive_root),
      gaps_rs_v1(gf256, data::version_parameters[1].gaps_parity, data::gf256.first_consecutive_root),
      arcs_rs(gf256, data::version_parameters[0].arcs_parity, data::gf256.first_consecutive_root),
      arc_bit_checks(appclip::arc_bit_checks(arcs_rs)) {
    build_tld_code(*this);
    for (std::size_t i = 0; i < data::fixed_tld_count; ++i)
        fixed_tld_by_index[data::fixed_tlds[i].index & 0xFFu] = data::fixed_tlds[i].tld;
    for (std::size_t i = 0; i < data::path_wordbook_count; ++i) wordbook.emplace_back(data::path_wordbook[i]);
    fixed6_index.fill(-1);
    for (int i = 0; i < 64; ++i) {
        fixed6[static_cast<std::size_t>(i)] = data::alphabet_fixed6[i];
        fixed6_index[static_cast<unsigned char>(data::alphabet_fixed6[i])] = i;
    }
    int first = 0;
    for (std::size_t r = 0; r < 5; ++r) {
        const auto& g = data::geometry.rings[r];
        rings[r] = RingLayout{first, g.positions, g.radius, g.rotation_deg, g.half_gap_deg};
        first += g.positions;
    }
    std::copy(data::gaps_bits_order_lut, data::gaps_bits_order_lut + 128, lut.begin());
    build_milliseconds = now_ms() - build_started_ms;
}

int FormatTables::huffman_tld_index(const std::string& tld) const {
    for (std::size_t i = 0; i < huffman_tld_names.size(); ++i)
        if (huffman_tld_names[i] == tld) return static_cast<int>(i);
    return -1;
}

int FormatTables::fixed_tld_index(const std::string& tld) const {
    for (int i = 1; i < 256; ++i)
        if (!fixed_tld_by_index[static_cast<std::size_t>(i)].empty() && fixed_tld_by_index[static_cast<std::size_t>(i)] == tld) return i;
    return 0;
}

int FormatTables::wordbook_index(const std::string& word) const {
    for (std::size_t i = 0; i < wordbook.size(); ++i)
        if (wordbook[i] == word) return static_cast<int>(i);
    return -1;
}

std::size_t FormatTables::memory_bytes() const {
    return sizeof(FormatTables) + host.memory_bytes() + spq.memory_bytes() + cpq.memory_bytes();
}

const FormatTables& tables() {
    static const FormatTables instance;
    return instance;
}

}  // namespace appclip
