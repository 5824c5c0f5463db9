// Light centred on a code (a highlight over its logo) lifts each band between its rings all the
// way round, by less the further out the band lies. Measured against its own median, as
// level_background measures light over a part of the code, such a band shows no departure; the
// bands' medians against one another show it.
#pragma once

#include "ring_sampling.hpp"

namespace appclip::vision {

// `median[j]`: band j's median ink (bands not sampled have `sampled[j]` false). Fills `lift[j]`
// with the ink the light added to band j over the least lifted of bands 1-4 (which lie between
// two rings alike; band 0 beside the logo is not measured), and returns true, when the lifts fall
// off outward as centred light's do; otherwise leaves every lift 0 and returns false. Ink grows
// towards the foreground; light lifts it only where the foreground is the lighter colour
// (`foreground_lighter`); over a light background it clips first, and the light field's ramp
// and shadows (light_field.hpp) see to that background's light.
bool centred_light_lift(const float median[RingProfiles::kBands], const bool sampled[RingProfiles::kBands],
                        bool foreground_lighter, float lift[RingProfiles::kBands]);

}  // namespace appclip::vision
