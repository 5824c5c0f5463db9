// Loops the compiler runs on vectors, built twice on x86-64 Linux with glibc: for the baseline
// (SSE2) and for AVX2, the one to run picked once by the loader from the CPU (function
// multiversioning; a package may not pass -mavx2 to its users' builds). Without FMA, so both
// round alike: the same values, twice the lanes. Elsewhere (Apple platforms, ARM, musl) the
// baseline only. A function declared apart from its definition carries it on both. Members of
// class templates take it; function templates do not (clang): give those a plain function to
// run in.
#pragma once
// glibc announces itself in <features.h> (which not every C++ library's headers include).
#if defined(__linux__) && defined(__has_include)
#if __has_include(<features.h>)
#include <features.h>
#endif
#endif

// The loader's choice is an IFUNC, which glibc resolves (musl, Apple and Windows do not).
#if defined(__x86_64__) && defined(__GLIBC__) && (defined(__clang__) || defined(__GNUC__))
#define ACC_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define ACC_VECTOR_CLONES
#endif
