# opbase_add_plugin(<name> SOURCES <files...> [C_ONLY])
# Builds <name>.so, an opbase op plugin: hidden symbols but the entry point, no "lib" prefix,
# linked with the C++ SDK (or, with C_ONLY, only the C ABI header). In the opbase tree the file
# lands in OPBASE_PLUGIN_BUILD_DIR, where the daemon of the build tree looks.
function(opbase_add_plugin name)
  cmake_parse_arguments(ARG "C_ONLY" "" "SOURCES" ${ARGN})
  add_library(${name} MODULE ${ARG_SOURCES})
  if(ARG_C_ONLY)
    target_link_libraries(${name} PRIVATE opbase::abi)
  else()
    target_link_libraries(${name} PRIVATE opbase::sdk)
  endif()
  set_target_properties(${name} PROPERTIES
    PREFIX "" OUTPUT_NAME ${name}
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  if(DEFINED OPBASE_PLUGIN_BUILD_DIR)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${OPBASE_PLUGIN_BUILD_DIR}")
  endif()
  # Unresolved symbols are a build error, not a load-time surprise. Not in sanitizer builds of
  # this tree: there the sanitizer runtime lives in the executable that loads the plugin.
  if(NOT OPBASE_SANITIZE AND NOT OPBASE_BUILD_FUZZERS)
    target_link_options(${name} PRIVATE -Wl,--no-undefined)
  endif()
endfunction()
