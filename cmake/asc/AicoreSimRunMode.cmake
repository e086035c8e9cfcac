# CMAKE_ASC_RUN_MODE, as the samples set it (a cache string, npu by default) or -D gives it: every
# mode runs the launches on aicore-sim. Included by ASCConfig.cmake and again when the language is
# enabled (the sample may set the variable after find_package).
if(DEFINED CMAKE_ASC_RUN_MODE AND NOT CMAKE_ASC_RUN_MODE STREQUAL "")
  if(NOT CMAKE_ASC_RUN_MODE MATCHES "^(sim|cpu|npu)$")
    message(FATAL_ERROR "CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE}: aicore-sim's ASC package takes sim, cpu or npu (all three run the launches on the simulator)")
  endif()
  if(CMAKE_ASC_RUN_MODE STREQUAL "npu" AND NOT _AICORE_ASC_NPU_NOTED)
    set(_AICORE_ASC_NPU_NOTED TRUE)
    message(STATUS "aicore-sim: CMAKE_ASC_RUN_MODE=npu: there is no NPU here; the launches run on the simulator (as with -DCMAKE_ASC_RUN_MODE=sim)")
  endif()
endif()
