# Helpers to declare the project's MLIR libraries.
#
# Debian ships MLIR both as static archives and as libMLIR.so. Linking a
# static archive into a binary that also loads libMLIR.so (the ExecutionEngine
# does) gives two copies of MLIR's registries, so every project library links
# MLIR through mlir_target_link_libraries(), which picks libMLIR.so when
# MLIR_LINK_MLIR_DYLIB=ON.
#
# add_offload_mlir_library(name src...
#   [DEPENDS tablegen targets...]
#   [LINK_COMPONENTS llvm components...]
#   [LINK_LIBS project libraries...]
#   [MLIR_LIBS upstream MLIR libraries...])
function(add_offload_mlir_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_COMPONENTS;LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DEPENDS ${ARG_DEPENDS}
    LINK_COMPONENTS ${ARG_LINK_COMPONENTS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS}
  )
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
endfunction()
