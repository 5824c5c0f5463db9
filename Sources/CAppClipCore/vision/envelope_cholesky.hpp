// Cholesky solve of a symmetric positive definite system that is mostly zeros away from
// the diagonal once its unknowns are put in a good order. Each row of the factor is
// nonzero only from the row's first nonzero column of the (reordered) matrix on (its
// envelope), so only those entries are computed: for the drawing fit's 261 pieces in
// angular order this is several times less work than a dense factorisation.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/core.hpp>

namespace appclip::vision {

class EnvelopeCholesky {
public:
    // Solves a x = b (`a` symmetric; b: one column per right-hand side). `order[k]` is the
    // unknown placed k-th. False when `a` is not positive definite.
    bool solve(const cv::Mat1d& a, const cv::Mat1d& b, const std::vector<int>& order, cv::Mat1d& x) {
        const int n = a.rows, m = b.cols;
        factor_.resize(static_cast<size_t>(n) * n);
        first_.resize(n);
        // The reordered lower triangle, and where each row's envelope starts.
        for (int i = 0; i < n; ++i) {
            const double* row = a.ptr<double>(order[i]);
            double* out = factor_.data() + static_cast<size_t>(i) * n;
            int first = i;
            for (int j = 0; j <= i; ++j) {
                out[j] = row[order[j]];
                if (first == i && out[j] != 0.0) first = j;
            }
            first_[i] = first;
        }
        // Row by row: L(i, j) = (a(i, j) − Σ_k L(i, k) L(j, k)) / L(j, j) over the shared envelope.
        for (int i = 0; i < n; ++i) {
            double* li = factor_.data() + static_cast<size_t>(i) * n;
            for (int j = first_[i]; j < i; ++j) {
                const double* lj = factor_.data() + static_cast<size_t>(j) * n;
                double s = li[j];
                for (int k = std::max(first_[i], first_[j]); k < j; ++k) s -= li[k] * lj[k];
                li[j] = s / lj[j];
            }
            double d = li[i];
            for (int k = first_[i]; k < i; ++k) d -= li[k] * li[k];
            if (!(d > 0.0)) return false;
            li[i] = std::sqrt(d);
        }
        // L y = b (reordered), then Lᵀ z = y; x(order[k]) = z(k).
        work_.resize(static_cast<size_t>(n) * m);
        for (int i = 0; i < n; ++i) {
            const double* li = factor_.data() + static_cast<size_t>(i) * n;
            for (int c = 0; c < m; ++c) {
                double s = b(order[i], c);
                for (int k = first_[i]; k < i; ++k) s -= li[k] * work_[static_cast<size_t>(k) * m + c];
                work_[static_cast<size_t>(i) * m + c] = s / li[i];
            }
        }
        for (int i = n - 1; i >= 0; --i) {
            const double* li = factor_.data() + static_cast<size_t>(i) * n;
            for (int c = 0; c < m; ++c) {
                double& zi = work_[static_cast<size_t>(i) * m + c];
                zi /= li[i];
                // Column i of Lᵀ z: push z(i) back into the rows its envelope reaches.
                for (int k = first_[i]; k < i; ++k) work_[static_cast<size_t>(k) * m + c] -= li[k] * zi;
            }
        }
        x.create(n, m);
        for (int i = 0; i < n; ++i)
            for (int c = 0; c < m; ++c) x(order[i], c) = work_[static_cast<size_t>(i) * m + c];
        return true;
    }

private:
    std::vector<double> factor_;   // n × n, lower triangle used
    std::vector<int> first_;       // per row: first column of its envelope
    std::vector<double> work_;
};

}  // namespace appclip::vision
