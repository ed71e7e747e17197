#pragma once
// Functions that run on the CPU and, compiled by nvcc, on a GPU: one source for the per-case physics
// of a model (the CPU build, where CI tests it, and the CUDA back end compile the same code).
// Inside such functions: plain structs of doubles, no virtual calls, exceptions, allocation or
// std::vector (none of them exist on the device).
#if defined(__CUDACC__)
#define VIBRO_HD __host__ __device__
#else
#define VIBRO_HD
#endif

// True while compiling device code (the second pass of nvcc): host-only services are left out.
#if defined(__CUDA_ARCH__)
#define VIBRO_DEVICE_PASS 1
#else
#define VIBRO_DEVICE_PASS 0
#endif

// A host-and-device function that a GPU build may keep out of line (cmake -DVIBRO_CUDA_OUTLINE=ON):
// inlined at each of its calls, functions such as the reproducible sin and cos make one kernel body
// whose register demand is the sum of theirs; called, each brings its own (ptxas figures in
// bench/README.md). The arithmetic is the same either way, and the host build always leaves the
// choice to the compiler.
#if defined(__CUDA_ARCH__) && defined(VIBRO_CUDA_OUTLINE)
#define VIBRO_OUTLINE __noinline__
#else
#define VIBRO_OUTLINE
#endif

// A host-and-device function on a rarely taken path that the device code always calls instead of
// inlining: inlined, its registers count in the peak of every kernel that reaches it, however seldom
// (the reproducible sine's fmod for huge arguments made the conveyor's flight kernel spill at 64
// registers; bench/README.md). The arithmetic is the same; the host build leaves the choice to the
// compiler.
#if defined(__CUDA_ARCH__)
#define VIBRO_RARE_PATH __noinline__
#else
#define VIBRO_RARE_PATH
#endif
