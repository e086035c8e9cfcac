# find_package(ASC): aicore-sim's stand-in for the Ascend C CMake package, so that a sample's
#   find_package(ASC REQUIRED)
#   project(NAME LANGUAGES ASC CXX)
# builds its `.asc` sources for the simulator (docs/ascendc.md, "Huawei's samples as they are").
# It puts the ASC language's files (CMakeDetermineASCCompiler.cmake and the rest, beside this
# file) on CMAKE_MODULE_PATH; its compiler is `aicore-sim asc-cc` of this installed tree.
# Call it before project() or enable_language(ASC), as the samples do.
# CMAKE_ASC_RUN_MODE: sim, cpu (both run the launches on the simulator) or npu (the samples'
# default: there is no NPU here, so the launches are simulated too, with a note).
cmake_minimum_required(VERSION 3.16)
if(NOT AICORE_SIM_ASC_DIR)
  get_filename_component(_aicore_asc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." REALPATH)
  set(AICORE_SIM_ASC_DIR "${CMAKE_CURRENT_LIST_DIR}")
  set(AICORE_SIM_EXECUTABLE "${_aicore_asc_prefix}/bin/aicore-sim" CACHE FILEPATH "aicore-sim, the ASC compiler driver")
  unset(_aicore_asc_prefix)
endif()
if(NOT EXISTS "${AICORE_SIM_EXECUTABLE}")
  set(ASC_FOUND FALSE)
  set(ASC_NOT_FOUND_MESSAGE "aicore-sim's ASC package: ${AICORE_SIM_EXECUTABLE} does not exist (install aicore-sim with `cmake --install BUILD --prefix P` and put P on CMAKE_PREFIX_PATH)")
  return()
endif()
list(FIND CMAKE_MODULE_PATH "${AICORE_SIM_ASC_DIR}" _aicore_asc_at)
if(_aicore_asc_at EQUAL -1)
  list(APPEND CMAKE_MODULE_PATH "${AICORE_SIM_ASC_DIR}")
endif()
unset(_aicore_asc_at)
include("${AICORE_SIM_ASC_DIR}/AicoreSimRunMode.cmake")
set(ASC_FOUND TRUE)
# The CANN host libraries the samples link beside their `.asc` (target_link_libraries(demo PRIVATE
# tiling_api register platform m dl), some graph_base and unified_dlog): empty targets here. What
# aicore-sim has of them, the Matmul host tiling and the platform (tiling/tiling_api.h,
# tiling/platform/platform_ascendc.h), is in the front end's runtime that asc-cc links anyway.
foreach(_aicore_asc_lib tiling_api register platform graph_base unified_dlog)
  if(NOT TARGET ${_aicore_asc_lib})
    add_library(${_aicore_asc_lib} INTERFACE IMPORTED GLOBAL)
  endif()
endforeach()
unset(_aicore_asc_lib)
