// Timing of detector stages for acc_frame_stats.
#pragma once
#include <chrono>

namespace appclip::vision {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace appclip::vision
