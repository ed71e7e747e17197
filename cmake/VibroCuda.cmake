# The CUDA back end (run.backend = cuda): the models' host-and-device kernels (the same headers the
# CPU build compiles) built by nvcc, with the GPU batch (engine/batch/cuda_batch.cuh). Optional and
# off by default: CI and most machines have no CUDA compiler, and nvcc would slow every build that
# does not need it. VIBRO_CUDA = OFF | AUTO (when check_language finds a CUDA compiler) | ON (required).
set(VIBRO_CUDA OFF CACHE STRING "Build the CUDA back end: OFF, AUTO or ON")
set_property(CACHE VIBRO_CUDA PROPERTY STRINGS OFF AUTO ON)
set(VIBRO_HAVE_CUDA FALSE)
set(VIBRO_CUDA_FMAD "--fmad=false" CACHE STRING "nvcc's contraction flag for the shared kernels (--fmad=false keeps the CPU's arithmetic)")
# Registers a thread may use in the kernels (nvcc -maxrregcount; empty: nvcc's choice). With the
# reproducible sin and cos inlined, nvcc gives the conveyor's kernel 255 registers (2 blocks of 128 an
# H100 SM, 12.5 % occupancy). Measured on an H100, the 10^6-case fixed map's launches: 6.75 s uncapped,
# 5.54 s at 96, 5.04 s at 64 (bench/README.md): 64 is the default.
set(VIBRO_CUDA_MAXRREG "64" CACHE STRING "nvcc -maxrregcount for the CUDA kernels (empty: nvcc's choice)")
# A warp's lanes brought back into step after every period (__syncwarp): a lane that chatters and one
# that flies run different code, and without a barrier they may stay out of step for the rest of a
# launch. Same results either way; not yet timed on a GPU, so off by default.
option(VIBRO_CUDA_WARP_SYNC "the CUDA kernels re-converge each warp after every period" OFF)
# A fixed-mode run's samples held on the GPU batch until the last launch (CaseBatch::hold_samples), as
# the CPU batch holds them: the detectors are fed once instead of after every launch (2.7x less host
# time on CPU threads), for rows of page-locked memory (0.9 GB a batch on the conveyor's 10^6 map). Not
# yet timed on a GPU, so off by default.
option(VIBRO_CUDA_HOLD_SAMPLES "the GPU batch holds a fixed-mode run's samples until its last launch" OFF)
# The reproducible sin and cos, and the conveyor's flight and coupled phases, called instead of inlined
# in the device code (engine/core/host_device.hpp, VIBRO_OUTLINE). ptxas (nvcc 13.0, sm_90) for the
# conveyor's kernel: uncapped 236 -> 128 registers, no spills either way; at the cap of 64, spill
# stores/loads 1848/1468 -> 344/736 B over the kernel and its callees. Since the trig's fmod for huge
# arguments is called in every build (VIBRO_RARE_PATH), the default build is at 126 registers uncapped
# and 424/952 B at 64, this one at 128 and 76/76 B in the kernel (bench/README.md). Same results;
# calls cost something too, and no GPU has timed it yet, so off by default.
option(VIBRO_CUDA_OUTLINE "the CUDA kernels call the trig and the conveyor's phases instead of inlining them" OFF)
# The conveyor's launches stepped by its phase kernels (models/conveyor/conveyor_phase_kernels.hpp):
# free flight in one kernel, with the state in registers and columns (ptxas: no local memory), the
# rare phases in another, the cases sorted between them each round. The same results bit for bit
# (tests/conveyor/test_phase_steps.cpp runs the same steps on the host); not yet run on a GPU, so off.
option(VIBRO_CUDA_PHASE_KERNELS "the conveyor's GPU batch steps free flight and the rare phases in separate kernels" OFF)
# With it, the rare phases' kernel takes all the steps of the cases it gets (they finish their launch
# there: two rounds a launch instead of about 17, its warps divergent); same results, not yet timed.
option(VIBRO_CUDA_RARE_ALL_STEPS "the conveyor's rare-phase kernel finishes each launch of the cases it gets" OFF)
# Blocks of 128 threads an SM that the flight kernel is built for: 8 holds it to 64 registers a thread,
# 4 to 128, 1 leaves the count to ptxas (ptxas's figures for each in bench/README.md).
set(VIBRO_CUDA_FLIGHT_BLOCKS "8" CACHE STRING "blocks of 128 an SM the conveyor's flight kernel is built for (8: 64 registers)")
if(NOT VIBRO_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)  # H100 (sm_90); override with -DCMAKE_CUDA_ARCHITECTURES=...
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(VIBRO_HAVE_CUDA TRUE)
  elseif(VIBRO_CUDA STREQUAL "ON")
    message(FATAL_ERROR "VIBRO_CUDA=ON but no CUDA compiler was found (put nvcc on PATH or set CMAKE_CUDA_COMPILER)")
  else()
    message(STATUS "vibro: no CUDA compiler found; building without the CUDA back end")
  endif()
endif()

# Called after the engine, models and jobs targets exist.
function(vibro_add_cuda_backend)
  if(NOT VIBRO_HAVE_CUDA)
    return()
  endif()
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/engine/*/*.cu ${PROJECT_SOURCE_DIR}/models/*/*.cu)
  add_library(vibro_cuda STATIC ${sources})
  set_target_properties(vibro_cuda PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON POSITION_INDEPENDENT_CODE ON)
  # relaxed constexpr: std::min, std::max and numeric_limits in the shared kernels are constexpr host functions.
  # 20012: Eigen 3.4 marks its defaulted copy and move members __host__ __device__, which nvcc notes and
  # ignores (they are host-and-device anyway); the DOPRI5 kernels use Eigen's fixed-size vectors.
  # -fopenmp for the host pass: the GPU batch makes its cases on all host threads (made_cases.hpp).
  # --fmad=false: one arithmetic on both sides. nvcc would contract a * b + c into fused multiply-adds,
  # which the host build does not, and impact sequences amplify such last-bit differences (with them,
  # an H100 run's impact counts differed from the CPU back end's in 10 % of the Fig. 6 cases).
  target_compile_options(vibro_cuda PRIVATE
                         $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -diag-suppress=20012 -Xcompiler=-Wall,-Wextra,-fopenmp ${VIBRO_CUDA_FMAD}>)
  # Each variant option above is the kernels' preprocessor switch of the same name.
  foreach(variant VIBRO_CUDA_WARP_SYNC VIBRO_CUDA_HOLD_SAMPLES VIBRO_CUDA_OUTLINE VIBRO_CUDA_PHASE_KERNELS
                  VIBRO_CUDA_RARE_ALL_STEPS)
    if(${variant})
      target_compile_definitions(vibro_cuda PRIVATE ${variant})
    endif()
  endforeach()
  target_compile_definitions(vibro_cuda PRIVATE VIBRO_FLIGHT_BLOCKS_PER_SM=${VIBRO_CUDA_FLIGHT_BLOCKS})
  # The register cap for nvcc's front end and ptxas alike, but for the conveyor's phase kernels ptxas's
  # alone: given -maxrregcount, nvcc's front end no longer shapes the flight kernel's PTX for its launch
  # bounds (which set its registers), and ptxas then spills 128 / 272 B of it at 64 registers against
  # none (bench/README.md). Their rare kernel, without launch bounds, keeps the cap.
  if(VIBRO_CUDA_MAXRREG)
    foreach(source IN LISTS sources)
      if(source MATCHES "/conveyor_phase_kernels\\.cu$")
        set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "-Xptxas=--maxrregcount=${VIBRO_CUDA_MAXRREG}")
      else()
        set_source_files_properties(${source} PROPERTIES COMPILE_OPTIONS "-maxrregcount=${VIBRO_CUDA_MAXRREG}")
      endif()
    endforeach()
  endif()
  target_link_libraries(vibro_cuda PUBLIC vibro_engine CUDA::cudart)
  # The stubs of a build without the back end (cuda_availability.cpp, conveyor_cuda_absent.cpp) step aside.
  target_compile_definitions(vibro_engine PUBLIC VIBRO_HAVE_CUDA)
  # nvcc's host pass without contraction too, like the C++ build (CMakeLists.txt).
  target_compile_options(vibro_cuda PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffp-contract=off>)
  target_link_libraries(vibro_models PUBLIC vibro_cuda)
  target_link_libraries(vibro_jobs PUBLIC vibro_cuda)
  # The engine's batch registry makes the GPU batch of a hybrid-model API model (a plugin's too) with
  # the kernels here: engine and cuda archives depend on each other (CMake repeats them on the link line).
  target_link_libraries(vibro_engine PUBLIC $<BUILD_INTERFACE:vibro_cuda>)
endfunction()
