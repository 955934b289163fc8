# The AMD (HIP) build of the GPU backend; src/CMakeLists.txt includes it when XPOSE_GPU=hip.
#
# hipcc compiles the .cu files and the project's C++ compiler everything else, the same split as
# nvcc and the host compiler in the CUDA build: host code, tests and the CLI only link libamdhip64.
# Why not CMake's HIP language: CMake 3.25 (Debian 12) accepts only a bare clang as the HIP
# compiler and looks for ROCm's hip-lang package under <rocm>/lib/cmake, while Debian installs it
# under /usr/lib/<multiarch>/cmake, so enable_language(HIP) fails there. Each .cu file therefore
# becomes an object through a custom command, with a depfile so that header edits rebuild it.
#
# Cache variables: XPOSE_HIP_ARCHITECTURES (offload targets, default gfx90a), XPOSE_HIPCC.

find_program(XPOSE_HIPCC hipcc HINTS "$ENV{ROCM_PATH}/bin" /opt/rocm/bin
             DOC "hipcc, which compiles the .cu files for AMD GPUs")
if(NOT XPOSE_HIPCC)
  message(FATAL_ERROR "XPOSE_GPU=hip: hipcc not found (Debian: apt-get install hipcc libamdhip64-dev; "
                      "or set XPOSE_HIPCC / ROCM_PATH)")
endif()
# hipcc sits in <rocm>/bin: the runtime and rocBLAS are looked for under <rocm> first. (The folder,
# not hipcc, is resolved: /bin -> /usr/bin on merged-/usr systems; hipcc may link elsewhere.)
get_filename_component(XPOSE_ROCM_ROOT "${XPOSE_HIPCC}" DIRECTORY)
get_filename_component(XPOSE_ROCM_ROOT "${XPOSE_ROCM_ROOT}" REALPATH)
get_filename_component(XPOSE_ROCM_ROOT "${XPOSE_ROCM_ROOT}" DIRECTORY)

if(DEFINED CMAKE_HIP_ARCHITECTURES)
  set(xpose_hip_arch_default "${CMAKE_HIP_ARCHITECTURES}")
else()
  set(xpose_hip_arch_default gfx90a)
endif()
set(XPOSE_HIP_ARCHITECTURES "${xpose_hip_arch_default}" CACHE STRING
    "AMD GPU targets for the HIP build, a ;-list of gfx9 (CDNA/GCN) names, e.g. gfx90a;gfx942")
set(xpose_hip_arch_flags)
foreach(arch IN LISTS XPOSE_HIP_ARCHITECTURES)
  # rt::kWarpSize is 64 in the HIP build, in host and device code alike; RDNA (gfx10+) runs HIP
  # with 32-lane wavefronts, so those targets would break it.
  if(NOT arch MATCHES "^gfx9")
    message(FATAL_ERROR "XPOSE_HIP_ARCHITECTURES: '${arch}' is not a gfx9 (64-lane wavefront) target; "
                        "xpose's HIP build supports gfx9 targets such as gfx908, gfx90a, gfx942")
  endif()
  list(APPEND xpose_hip_arch_flags "--offload-arch=${arch}")
endforeach()
if(NOT xpose_hip_arch_flags)
  message(FATAL_ERROR "XPOSE_HIP_ARCHITECTURES is empty")
endif()

find_library(XPOSE_AMDHIP64 amdhip64 HINTS "${XPOSE_ROCM_ROOT}/lib" "${XPOSE_ROCM_ROOT}/lib64")
if(NOT XPOSE_AMDHIP64)
  message(FATAL_ERROR "XPOSE_GPU=hip: the HIP runtime library (libamdhip64) was not found")
endif()

# The vendor path: rocBLAS geam where rocBLAS is installed, else a stub that says it is missing.
find_path(XPOSE_ROCBLAS_INCLUDE_DIR NAMES rocblas/rocblas.h rocblas.h
          HINTS "${XPOSE_ROCM_ROOT}/include" "${XPOSE_ROCM_ROOT}/rocblas/include")
find_library(XPOSE_ROCBLAS_LIBRARY rocblas HINTS "${XPOSE_ROCM_ROOT}/lib" "${XPOSE_ROCM_ROOT}/lib64")
set(xpose_hip_includes -I${CMAKE_CURRENT_SOURCE_DIR} -I${PROJECT_SOURCE_DIR}/include)
if(XPOSE_ROCBLAS_INCLUDE_DIR AND XPOSE_ROCBLAS_LIBRARY)
  message(STATUS "xpose HIP: rocBLAS found (${XPOSE_ROCBLAS_LIBRARY}); vendor_geam uses rocBLAS geam")
  set(xpose_vendor_source gpu/vendor/rocblas_geam.cu)
  list(APPEND xpose_hip_includes -I${XPOSE_ROCBLAS_INCLUDE_DIR})
  target_link_libraries(xpose PRIVATE ${XPOSE_ROCBLAS_LIBRARY})
else()
  message(STATUS "xpose HIP: rocBLAS not found; vendor_geam is left out (its plans return unsupported)")
  set(xpose_vendor_source gpu/vendor/geam_unavailable.cu)
endif()
message(STATUS "xpose HIP: ${XPOSE_HIPCC} for ${XPOSE_HIP_ARCHITECTURES}")

# Flags by configuration, as CMake gives the C++ compiler (and -fPIC below: xpose may be shared).
set(xpose_hip_config_flags
    $<$<CONFIG:Debug>:-O0> $<$<CONFIG:Debug,RelWithDebInfo>:-g>
    $<$<NOT:$<CONFIG:Debug>>:-O3> $<$<NOT:$<CONFIG:Debug>>:-DNDEBUG>)

# nvcc includes cuda_runtime.h in every .cu file unasked; hipcc does not, so each file gets
# hip_runtime.h the same way and a kernel header that builds with nvcc builds here unchanged.
set(xpose_hip_objects)
foreach(src IN LISTS XPOSE_GPU_SOURCES xpose_vendor_source)
  set(obj "${CMAKE_CURRENT_BINARY_DIR}/hip/${src}.o")
  get_filename_component(obj_dir "${obj}" DIRECTORY)
  file(MAKE_DIRECTORY "${obj_dir}")
  add_custom_command(
    OUTPUT "${obj}"
    COMMAND "${XPOSE_HIPCC}" -x hip ${xpose_hip_arch_flags} -std=c++17 ${xpose_hip_config_flags} -fPIC
            -DXPOSE_HIP ${xpose_hip_includes} -include hip/hip_runtime.h -MD -MF "${obj}.d"
            -c "${CMAKE_CURRENT_SOURCE_DIR}/${src}" -o "${obj}"
    DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/${src}"
    DEPFILE "${obj}.d"
    COMMENT "hipcc ${src}"
    COMMAND_EXPAND_LISTS
    VERBATIM)
  list(APPEND xpose_hip_objects "${obj}")
endforeach()
set_source_files_properties(${xpose_hip_objects} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
target_sources(xpose PRIVATE ${xpose_hip_objects})
target_link_libraries(xpose PRIVATE ${XPOSE_AMDHIP64})
