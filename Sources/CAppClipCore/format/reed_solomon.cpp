#include "reed_solomon.hpp"

#include <algorithm>
#include <cstring>

namespace appclip {

GaloisField::GaloisField(unsigned primitive, int bits) : size_(1 << bits) {
    unsigned x = 1;
    std::memset(log_, 0, sizeof(log_));
    for (int i = 0; i < size_ - 1; ++i) {
        exp_[i] = static_cast<std::uint8_t>(x);
        log_[x] = i;
        x <<= 1;
        if (x & static_cast<unsigned>(size_)) x ^= primitive;
    }
    // A doubled table lets mul/div skip a modulo.
    for (int i = size_ - 1; i < 512; ++i) exp_[i] = exp_[i - (size_ - 1)];
}

ReedSolomon::ReedSolomon(const GaloisField& field, int parity, int first_root)
    : field_(field), parity_(parity), first_root_(first_root) {
    // g(x) = prod (x - alpha^(fcr+i)); in characteristic 2, minus is plus.
    generator_.assign(1, 1);
    for (int i = 0; i < parity; ++i) {
        std::uint8_t root = field_.alpha_pow(first_root + i);
        std::vector<std::uint8_t> next(generator_.size() + 1, 0);
        for (std::size_t j = 0; j < generator_.size(); ++j) {
            next[j] ^= generator_[j];
            next[j + 1] ^= field_.mul(generator_[j], root);
        }
        generator_.swap(next);
    }
}

void ReedSolomon::encode(const std::uint8_t* data, int data_count, std::uint8_t* parity_out) const {
    // Remainder of data(x) * x^parity divided by g(x), by long division.
    std::uint8_t remainder[32] = {0};
    for (int i = 0; i < data_count; ++i) {
        std::uint8_t factor = data[i] ^ remainder[0];
        std::memmove(remainder, remainder + 1, static_cast<std::size_t>(parity_ - 1));
        remainder[parity_ - 1] = 0;
        if (factor != 0)
            for (int j = 0; j < parity_; ++j) remainder[j] ^= field_.mul(generator_[static_cast<std::size_t>(j + 1)], factor);
    }
    std::memcpy(parity_out, remainder, static_cast<std::size_t>(parity_));
}

namespace {

// Polynomials in the decoder are stored lowest degree first.
struct Poly {
    std::uint8_t c[40] = {0};
    int degree = 0;
};

}  // namespace

RsDecodeOutcome ReedSolomon::decode(std::uint8_t* word, int n, const int* erasures, int erasure_count) const {
    RsDecodeOutcome outcome;
    const int max_symbol = field_.size() - 1;
    if (n <= parity_ || n > max_symbol || erasure_count > parity_ || erasure_count < 0) return outcome;

    // Symbol i of the word is the coefficient of x^(n-1-i).
    auto evaluate = [&](int power) {
        std::uint8_t x = field_.alpha_pow(power);
        std::uint8_t acc = 0;
        for (int i = 0; i < n; ++i) acc = static_cast<std::uint8_t>(field_.mul(acc, x) ^ word[i]);
        return acc;
    };
    std::uint8_t syndromes[32];
    bool clean = true;
    for (int j = 0; j < parity_; ++j) {
        syndromes[j] = evaluate(first_root_ + j);
        clean = clean && syndromes[j] == 0;
    }
    if (clean) {
        outcome.ok = true;
        return outcome;
    }

    // Erasure locator Gamma(x) = prod (1 - X_i x), X_i = alpha^(n-1-pos).
    Poly gamma;
    gamma.c[0] = 1;
    for (int e = 0; e < erasure_count; ++e) {
        int pos = erasures[e];
        if (pos < 0 || pos >= n) return outcome;
        std::uint8_t x = field_.alpha_pow(n - 1 - pos);
        for (int d = gamma.degree + 1; d >= 1; --d) gamma.c[d] ^= field_.mul(gamma.c[d - 1], x);
        ++gamma.degree;
    }

    // Berlekamp-Massey seeded with the erasure locator (errors-and-erasures form).
    Poly lambda = gamma, previous = gamma;
    int l = erasure_count;
    int shift = 1;
    std::uint8_t previous_discrepancy = 1;
    for (int r = erasure_count; r < parity_; ++r) {
        std::uint8_t delta = 0;
        for (int i = 0; i <= lambda.degree; ++i)
            if (r - i >= 0) delta ^= field_.mul(lambda.c[i], syndromes[r - i]);
        if (delta == 0) {
            ++shift;
            continue;
        }
        Poly t = lambda;
        std::uint8_t scale = field_.div(delta, previous_discrepancy);
        for (int i = 0; i <= previous.degree; ++i) t.c[i + shift] ^= field_.mul(scale, previous.c[i]);
        t.degree = std::max(lambda.degree, previous.degree + shift);
        if (2 * l <= r + erasure_count) {
            l = r + 1 + erasure_count - l;
            previous = lambda;
            previous_discrepancy = delta;
            shift = 1;
        } else {
            ++shift;
        }
        lambda = t;
    }
    while (lambda.degree > 0 && lambda.c[lambda.degree] == 0) --lambda.degree;
    if (lambda.degree != l || 2 * (l - erasure_count) + erasure_count > parity_) return outcome;

    // Chien search over the n positions of this (shortened) code.
    int positions[32];
    int found = 0;
    for (int i = 0; i < n; ++i) {
        std::uint8_t xinv = field_.alpha_pow(-(n - 1 - i));
        std::uint8_t acc = 0, power = 1;
        for (int d = 0; d <= lambda.degree; ++d) {
            acc ^= field_.mul(lambda.c[d], power);
            power = field_.mul(power, xinv);
        }
        if (acc == 0) {
            if (found >= 32) return outcome;
            positions[found++] = i;
        }
    }
    if (found != lambda.degree) return outcome;  // roots outside the word: uncorrectable

    // Error evaluator Omega(x) = S(x) Lambda(x) mod x^parity.
    Poly omega;
    for (int i = 0; i < parity_; ++i) {
        std::uint8_t acc = 0;
        for (int j = 0; j <= i && j <= lambda.degree; ++j) acc ^= field_.mul(lambda.c[j], syndromes[i - j]);
        omega.c[i] = acc;
    }
    omega.degree = parity_ - 1;

    // Forney: e = X^(1-fcr) * Omega(X^-1) / Lambda'(X^-1).
    std::uint8_t corrected[32];
    std::memcpy(corrected, word, static_cast<std::size_t>(n));
    int changed = 0;
    for (int f = 0; f < found; ++f) {
        int power = n - 1 - positions[f];
        std::uint8_t xinv = field_.alpha_pow(-power);
        std::uint8_t num = 0, p = 1;
        for (int d = 0; d <= omega.degree; ++d) {
            num ^= field_.mul(omega.c[d], p);
            p = field_.mul(p, xinv);
        }
        std::uint8_t den = 0;  // Lambda'(x): the odd-degree terms, c[d] x^(d-1)
        for (int d = 1; d <= lambda.degree; d += 2) {
            std::uint8_t term = lambda.c[d];
            std::uint8_t xp = 1;
            for (int q = 0; q < d - 1; ++q) xp = field_.mul(xp, xinv);
            den ^= field_.mul(term, xp);
        }
        if (den == 0) return outcome;
        std::uint8_t magnitude = field_.mul(field_.div(num, den), field_.alpha_pow((1 - first_root_) * power));
        if (magnitude > max_symbol) return outcome;
        if (magnitude != 0) ++changed;
        corrected[positions[f]] ^= magnitude;
    }

    // Never return a word that does not check: recompute every syndrome.
    std::uint8_t saved[32];
    std::memcpy(saved, word, static_cast<std::size_t>(n));
    std::memcpy(word, corrected, static_cast<std::size_t>(n));
    for (int j = 0; j < parity_; ++j) {
        if (evaluate(first_root_ + j) != 0) {
            std::memcpy(word, saved, static_cast<std::size_t>(n));
            return outcome;
        }
    }
    outcome.ok = true;
    outcome.corrected = changed;
    return outcome;
}

}  // namespace appclip
