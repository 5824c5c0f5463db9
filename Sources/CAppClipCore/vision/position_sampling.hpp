// Soft ring bits for one rotation hypothesis: for every ring position, how much the
// start of the position looks like a gap (relative to the strokes on either side), and
// whether the stroke over the position has the foreground or the third colour. Both
// are turned into probabilities by a two-class split learned from this code alone.
#pragma once
#include "appclip_core.h"
#include "palette.hpp"
#include "ring_sampling.hpp"
#include "rotation_search.hpp"

namespace appclip::vision {

struct SamplingStats {
    double gap_separation = 0;    // distance between gap / no-gap classes in units of their spread
    double color_separation = 0;  // same for foreground / third
    int visible = 0;              // positions judged to start an arc
    int uncertain = 0;            // positions with p_arc_start in (0.2, 0.8)
};

// What a position's soft bits are made from: the ink at its start relative to the strokes
// on either side (about 1 where the stroke runs on, about 0 at a gap) and the ink of the
// stroke over it (0 background, 1 foreground).
struct PositionMeasures {
    float gap_ratio[ACC_RING_POSITIONS];
    float stroke_ink[ACC_RING_POSITIONS];
    // False where the samples a measure is made from are disturbed (glare): that bit is
    // an erasure, and the measure takes no part in learning the classes.
    bool gap_known[ACC_RING_POSITIONS];
    bool ink_known[ACC_RING_POSITIONS];
    // Where each position's middle lies in the image, and the code's radius there: set
    // (`placed`) by place_positions, which only readings allowing for light over the code need.
    float x[ACC_RING_POSITIONS];
    float y[ACC_RING_POSITIONS];
    double radius_px = 0;
    bool placed = false;
};

// Light over a part of the code that a reading may allow for (see added_light.hpp): light
// added to what the code reflects (a highlight's tail, in linear light), or a veil over it
// that blends it towards white (a highlight that clips, or a reflection off a sleeve); or,
// whatever its shape, light that shifts the colours near each position alike, read with a
// threshold learned around it (local_colours.hpp).
enum class LightOver { none, added, veiled, local };

// Turns measures into probabilities by two-class splits learned from this code alone.
// With `light` other than none, the arcs' colours allow for that light when the measures
// are placed; false when none was found (the reading would be the plain one). `local_width`:
// the neighbourhood of LightOver::local, in code radii.
bool classify_positions(const PositionMeasures& measures, float third_level, acc_ring_observation& observation,
                        SamplingStats& stats, LightOver light = LightOver::none, double local_width = 0);

// The measures of every ring position under one rotation hypothesis (not placed).
void measure_positions(const RingProfiles& profiles, const CodePalette& palette, const RotationHypothesis& hyp,
                       PositionMeasures& measures);

// Sets where each position's middle lies in the image (and the code's radius there) from
// `plane`, with a hypothesis's rotation and mirroring applied (see `oriented`).
void place_positions(const cv::Matx33d& plane, PositionMeasures& measures);

// measure_positions, then classify_positions.
void sample_positions(const RingProfiles& profiles, const CodePalette& palette, const RotationHypothesis& hyp,
                      acc_ring_observation& observation, SamplingStats& stats);


}  // namespace appclip::vision
