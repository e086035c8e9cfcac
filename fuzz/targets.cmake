# The fuzz targets and the libraries each links. Included by fuzz/CMakeLists.txt (libFuzzer
# builds) and tests/fuzz_regress/CMakeLists.txt (the same targets with a replay main, run by CTest).
set(AICORE_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
set(AICORE_FUZZ_TARGETS trace_reader config npy sim manifest study calib_data launch_args)
set(AICORE_FUZZ_LIBS_trace_reader aicore_trace)
set(AICORE_FUZZ_LIBS_config aicore_config)
set(AICORE_FUZZ_LIBS_npy aicore_trace)
set(AICORE_FUZZ_LIBS_sim aicore_report aicore_check aicore_config)
set(AICORE_FUZZ_LIBS_manifest aicore_trace)
set(AICORE_FUZZ_LIBS_study aicore_sweep)
set(AICORE_FUZZ_LIBS_calib_data aicore_calib)
set(AICORE_FUZZ_LIBS_launch_args aicore_frontend)

# aicore_fuzz_target(NAME TARGET [MAIN file]): an executable of fuzz target TARGET.
function(aicore_fuzz_target name target)
  cmake_parse_arguments(ARG "" "MAIN" "" ${ARGN})
  add_executable(${name} ${AICORE_FUZZ_DIR}/${target}_target.cpp ${ARG_MAIN})
  target_include_directories(${name} PRIVATE ${AICORE_FUZZ_DIR})
  target_link_libraries(${name} PRIVATE ${AICORE_FUZZ_LIBS_${target}})
endfunction()
