// Listing the indices that pass a test without a branch per index. Where which ones pass is
// noise to the branch predictor (a textured frame's edge pixels, pairs of edge pixels,
// rising edges along a ray), a mispredicted branch per index cost more than the loop's own
// work (perf on 720p frames without a code, thirty-seventh session): every index is written,
// and the count advances by the test.
#pragma once

namespace appclip::vision {

// Writes the i in [begin, end) for which `keep(i)` holds to out[0], out[1], ... in order and
// returns how many. `out` must hold end - begin + 1 entries (the last write may fall one past
// the kept ones).
template <class Keep>
inline int list_where(int begin, int end, Keep&& keep, int* out) {
    int count = 0;
    for (int i = begin; i < end; ++i) {
        out[count] = i;
        count += keep(i) ? 1 : 0;
    }
    return count;
}

}  // namespace appclip::vision
