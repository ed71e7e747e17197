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
