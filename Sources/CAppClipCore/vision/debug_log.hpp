// Stage-by-stage trace for development builds (-DACC_VISION_DEBUG); compiles to nothing otherwise.
#pragma once
#ifdef ACC_VISION_DEBUG
#include <cstdio>
#define ACC_TRACE(...) std::fprintf(stderr, __VA_ARGS__)
#else
#define ACC_TRACE(...) ((void)0)
#endif
