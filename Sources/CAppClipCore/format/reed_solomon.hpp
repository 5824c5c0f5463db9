// Reed-Solomon over GF(2^m) (m = 4 for metadata, 8 for gaps and arcs): a
// systematic encoder and an errors-and-erasures decoder that fails rather than
// return a word that does not check.
#pragma once
#include <cstdint>
#include <vector>

namespace appclip {

class GaloisField {
public:
    GaloisField(unsigned primitive, int bits);
    int size() const { return size_; }
    std::uint8_t add(std::uint8_t a, std::uint8_t b) const { return a ^ b; }
    std::uint8_t mul(std::uint8_t a, std::uint8_t b) const {
        if (a == 0 || b == 0) return 0;
        return exp_[log_[a] + log_[b]];
    }
    std::uint8_t div(std::uint8_t a, std::uint8_t b) const {  // b != 0
        if (a == 0) return 0;
        return exp_[log_[a] + (size_ - 1) - log_[b]];
    }
    std::uint8_t inverse(std::uint8_t a) const { return exp_[(size_ - 1) - log_[a]]; }
    std::uint8_t alpha_pow(int e) const {
        int n = size_ - 1;
        e %= n;
        if (e < 0) e += n;
        return exp_[e];
    }

private:
    int size_;
    std::uint8_t exp_[512];
    int log_[256];
};

struct RsDecodeOutcome {
    bool ok = false;
    int corrected = 0;  // symbols changed (errors + erasures that were wrong)
};

class ReedSolomon {
public:
    ReedSolomon(const GaloisField& field, int parity, int first_root);
    int parity() const { return parity_; }

    // codeword = data followed by parity; n = data.size() + parity.
    void encode(const std::uint8_t* data, int data_count, std::uint8_t* parity_out) const;
    // Corrects `word` (n symbols) in place. `erasures` are symbol positions (0 = first).
    // Succeeds only if 2*errors + erasures <= parity and the result has zero syndromes.
    RsDecodeOutcome decode(std::uint8_t* word, int n, const int* erasures, int erasure_count) const;

private:
    const GaloisField& field_;
    int parity_;
    int first_root_;
    std::vector<std::uint8_t> generator_;  // monic, highest degree first
};

}  // namespace appclip
