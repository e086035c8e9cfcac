# aicore_link_line(TARGET OUT_VAR): the libraries an executable linking TARGET needs, read from the
# target graph (LINK_LIBRARIES of the project's own targets, INTERFACE_LINK_LIBRARIES of imported
# and interface ones), as linker arguments: TARGET first and every library before those it uses,
# so no archive group is needed. `aicore-sim kernel` links kernel programs with it
# (src/cli/CMakeLists.txt), so adding a layer below the front end needs no list kept by hand.
# Call it once every target it reaches is defined.
function(_aicore_link_visit item)
  get_property(seen GLOBAL PROPERTY _aicore_link_seen)
  if(item IN_LIST seen)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY _aicore_link_seen "${item}")
  if(TARGET ${item})
    get_target_property(type ${item} TYPE)
    get_target_property(imported ${item} IMPORTED)
    if(imported OR type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(deps ${item} INTERFACE_LINK_LIBRARIES)
      get_target_property(options ${item} INTERFACE_LINK_OPTIONS)
      if(options)
        set_property(GLOBAL APPEND PROPERTY _aicore_link_options ${options})
      endif()
    else()
      get_target_property(deps ${item} LINK_LIBRARIES)
    endif()
    if(deps)
      foreach(dep ${deps})
        # $<LINK_ONLY:x> is how CMake records a static library's private dependencies.
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
        _aicore_link_visit("${dep}")
      endforeach()
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY _aicore_link_order "${item}")  # after everything it uses
endfunction()

#
# Also sets OUT_VAR_installed, the same line for an installed tree: the project's own archives as
# INSTALLED_DIR/<file name> (INSTALLED_DIR, the 3rd argument, is text the caller substitutes at run
# time), and OUT_VAR_targets, those archives' targets (what `cmake --install` must ship).
function(aicore_link_line target out installed_dir)
  set_property(GLOBAL PROPERTY _aicore_link_seen "")
  set_property(GLOBAL PROPERTY _aicore_link_order "")
  set_property(GLOBAL PROPERTY _aicore_link_options "")
  _aicore_link_visit(${target})
  get_property(order GLOBAL PROPERTY _aicore_link_order)
  get_property(options GLOBAL PROPERTY _aicore_link_options)
  list(REVERSE order)
  set(line "")
  set(installed "")
  set(own "")
  foreach(item ${order})
    if(TARGET ${item})
      get_target_property(type ${item} TYPE)
      get_target_property(imported ${item} IMPORTED)
      if(type STREQUAL "INTERFACE_LIBRARY")
        continue()  # its libraries are in the walk
      elseif(imported)
        list(APPEND line "$<TARGET_LINKER_FILE:${item}>")
        list(APPEND installed "$<TARGET_LINKER_FILE:${item}>")
      else()
        list(APPEND line "$<TARGET_FILE:${item}>")
        list(APPEND installed "${installed_dir}/$<TARGET_FILE_NAME:${item}>")
        list(APPEND own ${item})
      endif()
    elseif(item MATCHES "^-" OR IS_ABSOLUTE "${item}")
      list(APPEND line "${item}")  # a flag (-pthread) or a library file
      list(APPEND installed "${item}")
    else()
      list(APPEND line "-l${item}")  # a plain library name (dl, m)
      list(APPEND installed "-l${item}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES options)
  list(APPEND line ${options})
  list(APPEND installed ${options})
  set(${out} "${line}" PARENT_SCOPE)
  set(${out}_installed "${installed}" PARENT_SCOPE)
  set(${out}_targets "${own}" PARENT_SCOPE)
endfunction()
