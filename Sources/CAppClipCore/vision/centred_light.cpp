#include "centred_light.hpp"

#include <algorithm>
#include <limits>

namespace appclip::vision {

bool centred_light_lift(const float median[RingProfiles::kBands], const bool sampled[RingProfiles::kBands],
                        bool foreground_lighter, float lift[RingProfiles::kBands]) {
    // A band may be lifted this much more than the one inside it (noise, a slight gradient)
    // and the light still count as centred.
    constexpr float kOutwardTolerance = 0.02f;
    constexpr int kBands = RingProfiles::kBands;
    std::fill(lift, lift + kBands, 0.f);
    if (!foreground_lighter) return false;
    float least = std::numeric_limits<float>::infinity();
    for (int j = 1; j < kBands; ++j)
        if (sampled[j]) least = std::min(least, median[j]);
    if (!(least < std::numeric_limits<float>::infinity())) return false;
    bool lifted = false;
    float inside = std::numeric_limits<float>::infinity();
    for (int j = 1; j < kBands; ++j) {
        if (!sampled[j]) continue;
        const float l = median[j] - least;
        if (l > inside + kOutwardTolerance) {   // lifted more than the band inside it: not centred
            std::fill(lift, lift + kBands, 0.f);
            return false;
        }
        lift[j] = l;
        inside = l;
        lifted = lifted || l > 0.f;
    }
    return lifted;
}

}  // namespace appclip::vision
