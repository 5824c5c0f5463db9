// Coordinate ascent with halving steps, as the ring-contrast climbs use it: each parameter in
// turn is nudged down and up by the step; a nudge that scores higher is kept at once. Sweeps
// repeat while one moved (at most `sweeps` per step size); the step then halves, down to
// `smallest_step`.
#pragma once

namespace appclip::vision {

// `nudge(state, parameter, step)` returns the state moved; `score(state)` rates it. `best`
// holds the start's score on entry and the result's on return.
template <class State, class Nudge, class Score>
State coordinate_ascent(State state, double& best, int parameters, int sweeps, double smallest_step, Nudge nudge,
                        Score score) {
    for (double step = 1.0; step >= smallest_step; step *= 0.5) {
        bool moved = true;
        for (int sweep = 0; sweep < sweeps && moved; ++sweep) {
            moved = false;
            for (int k = 0; k < parameters; ++k)
                for (const double d : {-step, step}) {
                    const State trial = nudge(state, k, d);
                    const double s = score(trial);
                    if (s > best) best = s, state = trial, moved = true;
                }
        }
    }
    return state;
}

}  // namespace appclip::vision
