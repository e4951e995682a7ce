# Helpers to declare the project's MLIR libraries.
#
# Debian ships MLIR both as static archives and as libMLIR.so. Linking a
# static archive into a binary that also loads libMLIR.so (the ExecutionEngine
# does) gives two copies of MLIR's registries, so every project library links
# MLIR through mlir_target_link_libraries(), which picks libMLIR.so when
# MLIR_LINK_MLIR_DYLIB=ON.
#
# add_offload_mlir_library(name src...
#   EXPORT_NAME name in the CMake package (Offload::<name>)
#   [DEPENDS tablegen targets...]
#   [LINK_COMPONENTS llvm components...]
#   [LINK_LIBS project libraries...]
#   [MLIR_LIBS upstream MLIR libraries...])
#
# The library is installed into lib/ and exported as Offload::<name>
# (offload_install_targets); its users find the project's headers, built and
# installed, through its include directories.
function(add_offload_mlir_library name)
  cmake_parse_arguments(ARG "" "EXPORT_NAME" "DEPENDS;LINK_COMPONENTS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  if(NOT ARG_EXPORT_NAME)
    message(FATAL_ERROR "add_offload_mlir_library(${name}): EXPORT_NAME is required")
  endif()
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_COMPONENTS ${ARG_LINK_COMPONENTS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS}
  )
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  offload_add_interface_include_directories(${name} MLIR)
  offload_install_targets(${name} EXPORT_NAMES ${ARG_EXPORT_NAME})
endfunction()

# offload_add_interface_include_directories(target [MLIR]): the project's
# headers (source and generated) for the target's users in the build tree
# (an add_subdirectory() build), and with MLIR, MLIR's and LLVM's too. The
# installed targets get the install tree's include/ (offload_install_targets)
# and MLIR's and LLVM's from OffloadConfig.cmake.
function(offload_add_interface_include_directories target)
  set(dirs ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include)
  if(ARGN STREQUAL "MLIR")
    list(APPEND dirs ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
  endif()
  list(REMOVE_DUPLICATES dirs)
  foreach(dir ${dirs})
    target_include_directories(${target} INTERFACE $<BUILD_INTERFACE:${dir}>)
  endforeach()
endfunction()

# offload_set_install_rpath(target...): the run path of an installed binary:
# the project's libraries through $ORIGIN (bin/../lib for executables, the
# library's own directory for libraries) and LLVM's and MLIR's shared
# libraries (libLLVM.so, libMLIR.so) in LLVM_LIBRARY_DIR. The build tree's
# run paths are unchanged.
function(offload_set_install_rpath)
  foreach(target ${ARGN})
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      set(origin "\$ORIGIN/../${OFFLOAD_INSTALL_LIBDIR}")
    else()
      set(origin "\$ORIGIN")
    endif()
    set_target_properties(${target} PROPERTIES
      INSTALL_RPATH "${origin};${LLVM_LIBRARY_DIR}")
  endforeach()
endfunction()

# offload_install_targets(target... EXPORT_NAMES name...): installs the
# targets (executables into bin/, libraries into lib/) into the export set of
# the CMake package (cmake/CMakeLists.txt), where each is Offload::<name>,
# and adds the same name as an alias, so that a project building offload
# with add_subdirectory() links the same Offload::<name> targets.
function(offload_install_targets)
  cmake_parse_arguments(ARG "" "" "EXPORT_NAMES" ${ARGN})
  set(targets ${ARG_UNPARSED_ARGUMENTS})
  list(LENGTH targets count)
  list(LENGTH ARG_EXPORT_NAMES names)
  if(NOT count EQUAL names)
    message(FATAL_ERROR "offload_install_targets: ${count} targets, ${names} EXPORT_NAMES")
  endif()
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    list(GET targets ${i} target)
    list(GET ARG_EXPORT_NAMES ${i} name)
    get_target_property(type ${target} TYPE)
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
    if(type STREQUAL "EXECUTABLE")
      add_executable(Offload::${name} ALIAS ${target})
    else()
      add_library(Offload::${name} ALIAS ${target})
    endif()
    if(type STREQUAL "EXECUTABLE" OR type STREQUAL "SHARED_LIBRARY"
       OR type STREQUAL "MODULE_LIBRARY")
      offload_set_install_rpath(${target})
    endif()
    install(TARGETS ${target}
      EXPORT OffloadTargets
      RUNTIME DESTINATION ${OFFLOAD_INSTALL_BINDIR} COMPONENT offload
      LIBRARY DESTINATION ${OFFLOAD_INSTALL_LIBDIR} COMPONENT offload
      ARCHIVE DESTINATION ${OFFLOAD_INSTALL_LIBDIR} COMPONENT offload
      INCLUDES DESTINATION ${OFFLOAD_INSTALL_INCLUDEDIR})
  endforeach()
endfunction()

# offload_exported_library(<target> <map>): a shared library of the project
# built like LLVM's (no RTTI, no exceptions) that exports only what the
# linker version script <map> lists (hidden visibility besides, which also
# hides template instantiations of the C++ standard library), into
# build/lib, and refuses undefined symbols (but in a sanitized build, where
# the sanitizer runtime is linked into the executable).
function(offload_exported_library target map)
  target_compile_options(${target} PRIVATE -fno-rtti -fno-exceptions)
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
    LINK_DEPENDS ${map}
    )
  target_link_options(${target} PRIVATE -Wl,--version-script=${map})
  if(OFFLOAD_SANITIZE)
    target_link_options(${target} PRIVATE -Wl,-z,undefs)
  else()
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
endfunction()

# offload_api_update_target(<target> <root .td> <generated> <source>
#                           [<generated> <source>]...): the target <target>
# copies each generated file kept in the source tree (<generated>, relative
# to the current binary directory) over its copy there (<source>, relative to
# the source tree): the public headers and API references (the tests
# *.api-header-is-generated and *.api-reference-is-generated compare them).
function(offload_api_update_target target td)
  set(commands)
  set(depends)
  set(sources)
  set(pairs ${ARGN})
  while(pairs)
    list(POP_FRONT pairs generated source)
    list(APPEND commands COMMAND ${CMAKE_COMMAND} -E copy_if_different
         ${CMAKE_CURRENT_BINARY_DIR}/${generated} ${PROJECT_SOURCE_DIR}/${source})
    list(APPEND depends ${CMAKE_CURRENT_BINARY_DIR}/${generated})
    list(APPEND sources ${source})
  endwhile()
  list(JOIN sources " and " what)
  add_custom_target(${target} ${commands}
    DEPENDS ${depends}
    COMMENT "Rewriting ${what} from ${td}")
endfunction()

# offload_api_tablegen(<output> <action> [<root .td>]): generates <output>
# (relative to the current binary directory) from the description of the
# runtime C API (include/OffloadRuntime/API/*.td; the root file is
# OffloadAPI.td unless given, e.g. Liboffload22.td) with tools/offload-tblgen
# and <action> (-gen-entry-points, ...). A root given as a path (with a
# `/`) is relative to include/, e.g. OffloadJIT/API/OffloadJITAPI.td (the
# JIT's C API, which includes OffloadAPI.td); its directory is searched for
# includes too. Appends the output's path to OFFLOAD_API_GENERATED in the
# caller's scope.
function(offload_api_tablegen output action)
  set(td_dir ${PROJECT_SOURCE_DIR}/include/OffloadRuntime/API)
  set(root ${td_dir}/OffloadAPI.td)
  set(includes -I ${td_dir})
  file(GLOB td_files CONFIGURE_DEPENDS ${td_dir}/*.td)
  if(ARGC GREATER 2)
    if(ARGV2 MATCHES "/")
      set(root ${PROJECT_SOURCE_DIR}/include/${ARGV2})
      get_filename_component(root_dir ${root} DIRECTORY)
      list(APPEND includes -I ${root_dir})
      file(GLOB root_td_files CONFIGURE_DEPENDS ${root_dir}/*.td)
      list(APPEND td_files ${root_td_files})
    else()
      set(root ${td_dir}/${ARGV2})
    endif()
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${output})
  add_custom_command(OUTPUT ${out}
    COMMAND offload-tblgen ${action} ${includes} ${root}
            -o ${out}
    DEPENDS offload-tblgen ${td_files}
    COMMENT "offload-tblgen ${action}: ${output}"
    VERBATIM)
  set(OFFLOAD_API_GENERATED ${OFFLOAD_API_GENERATED} ${out} PARENT_SCOPE)
endfunction()
