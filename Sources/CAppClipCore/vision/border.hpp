// Border rules shared by the vision layer's own filters.
#pragma once

namespace appclip::vision {

// Reflect-101 (cv::BORDER_DEFAULT): -1 -> 1, n -> n - 2. For i within n - 1 of [0, n).
inline int reflect101(int i, int n) {
    if (i < 0) return -i;
    if (i >= n) return 2 * n - 2 - i;
    return i;
}

}  // namespace appclip::vision
