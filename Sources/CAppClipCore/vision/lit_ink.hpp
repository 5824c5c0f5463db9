// White light added over a part of a code (a highlight's tail) clips, in linear light,
// channel by channel at 1. Where nothing clips it shifts the foreground, the third colour and
// the background alike, and taking the same ink off every sample undoes it; where something
// clips it does not: a white foreground stays white while the third colour rises towards it,
// so taking the background's added ink off pulls the foreground below the third colour.
// LitInk knows what light does to the code's own colours, so that a sample's ink can be
// mapped from the lit colours' inks back to the unlit ones'.
#pragma once
#include <opencv2/core.hpp>

#include "palette.hpp"

namespace appclip::vision {

class LitInk {
public:
    // The code's background, foreground and third colour, in linear light.
    LitInk(const cv::Vec3f& background, const cv::Vec3f& foreground, const cv::Vec3f& third);

    // The white light added over the background that moves its ink by `departure` (light
    // moves it one way only, so the sign is not looked at); 1, which clips every channel,
    // when no light up to that moves it so far.
    float light_over_background(float departure) const;

    // `ink`, a sample's under `light`, mapped so that the lit foreground and third colour land
    // on their unlit inks; false (ink unchanged) when the light leaves those two too close to
    // tell apart (under kMinSeparation of their unlit distance).
    bool unlit(float light, float& ink) const;

private:
    static constexpr float kMinSeparation = 0.25f;
    cv::Vec3f background_, foreground_, third_;
    InkScale ink_;
    float third_ink_;
};

}  // namespace appclip::vision
