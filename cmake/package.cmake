# The Debian package: `cpack --config BUILD/CPackConfig.cmake -G DEB` (or `cd BUILD && cpack -G DEB`)
# makes aicore-sim_<version>_<arch>.deb of what `cmake --install` installs, with prefix /usr.
# Depends: the shared libraries the binary and the Python module link (dpkg-shlibdeps finds them:
# SystemC, yaml-cpp, spdlog, fmt, Boost.Program_options, libstdc++), what `aicore-sim kernel` needs
# to build a kernel program (g++, and libsystemc-dev for the libsystemc.so the link line names),
# and the Python module's interpreter and numpy. tests/package checks the file list and these.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME aicore-sim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "cycle-approximate simulator of the Ascend AI Core (Cube side, Atlas A2/A3)")
set(CPACK_PACKAGE_DESCRIPTION "aicore-sim runs instruction traces, kernel manifests and Ascend C kernels
of the Ascend AI Core (NPU arch 2201) on a SystemC model: exact results, cycles per pipe,
a race and sync checker, what-if sweeps, and a Python API (import aicore_sim).")
set(CPACK_PACKAGE_CONTACT "aicore-sim developers <aicore-sim@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # aicore-sim_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(deps "g++, libsystemc-dev")
if(AICORE_PYTHON_BUILT)
  # The module is built for this interpreter's minor version (its file name says cpython-3XX).
  execute_process(COMMAND ${AICORE_PYTHON_EXECUTABLE} -c "import sys; print('%d.%d' % sys.version_info[:2])"
                  OUTPUT_VARIABLE py OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REPLACE "." ";" py_parts ${py})
  list(GET py_parts 1 py_minor)
  math(EXPR py_next "${py_minor} + 1")
  string(APPEND deps ", python3 (>= ${py}), python3 (<< 3.${py_next}), python3-numpy")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${deps}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib")  # sweep --plot, tools/plot_*.py, docs/python.md
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-pandas")        # Result.instructions() and sweep() as DataFrames
include(CPack)
