// Stage-by-stage trace for development builds (-DACC_VISION_DEBUG); compiles to nothing otherwise.
#pragma once
#ifdef ACC_VISION_DEBUG
#include <cstdio>
#define ACC_TRACE(...) std::fprintf(stderr, __VA_ARGS__)
#else
#include <cstdio>
// Unevaluated, so release builds neither print nor warn about trace-only variables.
#define ACC_TRACE(...) ((void)sizeof(std::printf(__VA_ARGS__)))
#endif
