// The Huffman codes of the URL coders (format/huffman.cpp, two queues) against the rule they
// follow, applied plainly: again and again the two waiting nodes least by (frequency, key of
// the leftmost leaf) merge, the first into the left (0) child; then the codes are read off the
// tree. Checked on every context of Apple's three tries (host, SPQ, CPQ) and on random
// symbol sets with many equal frequencies, where the tie rule decides. Prints a summary;
// exits 1 when a code or tree differs or when an input the builder must refuse is taken.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "format/generated/format_tables_data.hpp"
#include "format/huffman.hpp"

using appclip::build_huffman;
using appclip::HuffmanSlices;

namespace {

struct Waiting {
    std::uint64_t frequency;
    int key;    // the leftmost leaf's
    int entry;  // tree entry: ~symbol for a leaf, internal index for a merged node
};

// The rule, with no cleverness: scan for the least twice per merge.
void reference(const std::vector<std::uint32_t>& frequencies, const std::vector<int>& keys,
               std::vector<std::uint32_t>& codes, std::vector<std::int8_t>& tree) {
    const int k = static_cast<int>(frequencies.size());
    std::vector<Waiting> waiting;
    for (int s = 0; s < k; ++s) waiting.push_back({frequencies[s], keys[s], ~s});
    tree.assign(2 * static_cast<size_t>(k - 1), 0);
    auto take_least = [&]() {
        size_t least = 0;
        for (size_t i = 1; i < waiting.size(); ++i) {
            const Waiting& a = waiting[i];
            const Waiting& b = waiting[least];
            if (a.frequency < b.frequency || (a.frequency == b.frequency && a.key < b.key)) least = i;
        }
        const Waiting w = waiting[least];
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(least));
        return w;
    };
    for (int internal = 0; internal < k - 1; ++internal) {
        const Waiting left = take_least();
        const Waiting right = take_least();
        tree[2 * static_cast<size_t>(internal)] = static_cast<std::int8_t>(left.entry);
        tree[2 * static_cast<size_t>(internal) + 1] = static_cast<std::int8_t>(right.entry);
        waiting.push_back({left.frequency + right.frequency, left.key, internal});
    }
    // Codes from the root (the last node made): left 0, right 1; packed as (bits << 8) | length.
    codes.assign(static_cast<size_t>(k), 0);
    struct Visit {
        int node;
        std::uint32_t bits;
        int length;
    };
    std::vector<Visit> stack = {{k - 2, 0, 0}};
    while (!stack.empty()) {
        const Visit v = stack.back();
        stack.pop_back();
        for (int bit = 0; bit < 2; ++bit) {
            const int child = tree[2 * static_cast<size_t>(v.node) + static_cast<size_t>(bit)];
            const std::uint32_t bits = (v.bits << 1) | static_cast<std::uint32_t>(bit);
            if (child < 0)
                codes[static_cast<size_t>(~child)] = (bits << 8) | static_cast<std::uint32_t>(v.length + 1);
            else
                stack.push_back({child, bits, v.length + 1});
        }
    }
}

// 0 when the builder gives the reference's codes and tree, 1 otherwise.
int differs(const std::vector<std::uint32_t>& frequencies, const std::vector<int>& keys) {
    const int k = static_cast<int>(frequencies.size());
    std::vector<std::uint32_t> codes(static_cast<size_t>(k)), expected_codes;
    std::vector<std::int8_t> tree(2 * static_cast<size_t>(k - 1)), expected_tree;
    if (!build_huffman(frequencies.data(), keys.data(), k, HuffmanSlices{codes.data(), tree.data()})) return 1;
    reference(frequencies, keys, expected_codes, expected_tree);
    return codes != expected_codes || tree != expected_tree ? 1 : 0;
}

}  // namespace

int main() {
    namespace data = appclip::data;
    int contexts = 0, wrong = 0;
    const struct {
        const char* alphabet;
        const unsigned char* trie;
        std::size_t size;
    } tries[] = {{data::alphabet_host, data::trie_h, data::trie_h_size},
                 {data::alphabet_spq, data::trie_spq, data::trie_spq_size},
                 {data::alphabet_cpq, data::trie_cpq, data::trie_cpq_size}};
    for (const auto& t : tries) {
        const int k = static_cast<int>(std::strlen(t.alphabet));
        const size_t nodes = 1 + static_cast<size_t>(k) + static_cast<size_t>(k) * k;
        if (t.size != nodes * static_cast<size_t>(k) * 2) {
            std::printf("FAIL: a trie of %zu bytes for %d symbols\n", t.size, k);
            return 1;
        }
        std::vector<std::uint32_t> frequencies(static_cast<size_t>(k));
        std::vector<int> keys(static_cast<size_t>(k));
        for (int s = 0; s < k; ++s) keys[static_cast<size_t>(s)] = static_cast<unsigned char>(t.alphabet[s]);
        for (size_t n = 0; n < nodes; ++n) {
            const unsigned char* entry = t.trie + n * static_cast<size_t>(k) * 2;
            for (int s = 0; s < k; ++s)
                frequencies[static_cast<size_t>(s)] = static_cast<std::uint32_t>(entry[2 * s] << 8 | entry[2 * s + 1]);
            ++contexts;
            wrong += differs(frequencies, keys);
        }
    }
    // Random symbol sets: a third with frequencies 1..4 (ties everywhere), keys shuffled.
    std::mt19937 random(41);
    const int trials = 200000;
    for (int trial = 0; trial < trials; ++trial) {
        const int k = 2 + static_cast<int>(random() % 74);
        const std::uint32_t range = trial % 3 == 0 ? 4 : 60000;
        std::vector<std::uint32_t> frequencies(static_cast<size_t>(k));
        std::vector<int> keys(static_cast<size_t>(k));
        for (int s = 0; s < k; ++s) {
            frequencies[static_cast<size_t>(s)] = 1 + static_cast<std::uint32_t>(random() % range);
            keys[static_cast<size_t>(s)] = s + 40;
        }
        std::shuffle(keys.begin(), keys.end(), random);
        wrong += differs(frequencies, keys);
    }
    // Inputs outside the builder's contract are refused, not built.
    int taken = 0;
    std::uint32_t codes[128];
    std::int8_t tree[256];
    const std::uint32_t with_zero[3] = {5, 0, 7};
    const int three_keys[3] = {1, 2, 3}, wide_keys[3] = {1, 256, 3};
    const std::uint32_t positive[3] = {5, 6, 7};
    taken += build_huffman(with_zero, three_keys, 3, HuffmanSlices{codes, tree});
    taken += build_huffman(positive, wide_keys, 3, HuffmanSlices{codes, tree});
    taken += build_huffman(positive, three_keys, 1, HuffmanSlices{codes, tree});
    std::printf("%d contexts of Apple's tries and %d random symbol sets, %d differ from the plain rule; %d of 3 "
                "invalid inputs taken\n",
                contexts, trials, wrong, taken);
    return wrong == 0 && taken == 0 ? 0 : 1;
}
