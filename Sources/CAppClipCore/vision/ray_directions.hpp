// Cosines and sines of N directions at the centres of N equal sectors, (i + 0.5) 2π / N:
// computed once per process for the scans that walk them on every candidate.
#pragma once
#include <cmath>

#include "code_geometry.hpp"

namespace appclip::vision {

template <int N>
struct RayDirections {
    double c[N], s[N];
};

template <int N>
const RayDirections<N>& ray_directions() {
    static const RayDirections<N> table = [] {
        RayDirections<N> d{};
        for (int i = 0; i < N; ++i) {
            d.c[i] = std::cos((i + 0.5) * 2 * kPi / N);
            d.s[i] = std::sin((i + 0.5) * 2 * kPi / N);
        }
        return d;
    }();
    return table;
}

}  // namespace appclip::vision
