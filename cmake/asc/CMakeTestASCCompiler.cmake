# The ASC compiler works when `aicore-sim asc-cc --version` answers (a full try_compile would
# build and link a kernel program: seconds per configure for nothing more).
if(NOT CMAKE_ASC_COMPILER_WORKS)
  execute_process(COMMAND "${CMAKE_ASC_COMPILER}" asc-cc --version RESULT_VARIABLE _asc_rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT _asc_rc EQUAL 0)
    message(FATAL_ERROR "the ASC compiler ${CMAKE_ASC_COMPILER} asc-cc does not run (exit ${_asc_rc})")
  endif()
  set(CMAKE_ASC_COMPILER_WORKS TRUE CACHE INTERNAL "")
  message(STATUS "Check for working ASC compiler: ${CMAKE_ASC_COMPILER} asc-cc - works")
  unset(_asc_rc)
endif()
