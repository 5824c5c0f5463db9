// Light falling off across a code — a lamp to one side, vignetting, a shadow's edge —
// multiplies its every colour by a field. The palette clusters colours as if under one light:
// with a third less light on one side, the background there reads like the third colour on
// the other, and the gaps fade into the strokes. On a code whose background is its lightest
// colour the bands between the rings show the field. Two parts are divided out of every ring
// and band sample, in linear light, before the palette is clustered: a plane over the code
// (gradual fall-off), then the bands' stretches darker or lighter than their usual light
// whose rings still show ink as elsewhere (a shadow's edge; not an object over the code or a
// highlight, where strokes and background read alike).
#pragma once
#include <vector>

#include "ring_sampling.hpp"

namespace appclip::vision {

// Buffers even_out_light reuses from call to call.
struct LightFieldScratch {
    std::vector<float> x, y, luma, weight, residual;   // the plane's samples and fit
    std::vector<float> band_luma, level, field;   // per band degree
    std::vector<float> ratios, work;              // values to take medians of
};

// Fits the bands' linear luminance with a plane over the code (an affine function of the
// position in code units, robust to blur, objects and highlights over a part of the bands)
// and, when it varies across the disc by more than a few percent, divides it out of
// `profiles` (colours, bands and background samples); then the shadowed or lit stretches left
// (see light_field.cpp). False when nothing was changed: a dark background, too few bands,
// fused profiles (no bands) or an even light.
bool even_out_light(RingProfiles& profiles, LightFieldScratch& scratch);

}  // namespace appclip::vision
