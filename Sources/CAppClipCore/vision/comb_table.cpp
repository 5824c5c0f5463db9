#include "comb_table.hpp"

namespace appclip::vision {

ACC_VECTOR_CLONES
void CombTable::float_sums8(const float* interleaved, int count, float* out) const {
    constexpr int kRays = 8;
    for (int m = 0; m < count; ++m) {
        double sums[kRays];
        this->sums<kRays>(interleaved, m, sums);
        for (int i = 0; i < kRays; ++i) out[static_cast<size_t>(m) * kRays + i] = static_cast<float>(sums[i]);
    }
}

}  // namespace appclip::vision
