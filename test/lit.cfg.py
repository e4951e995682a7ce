# -*- Python -*-
# lit configuration of the offload project's tests (check-offload).

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "OFFLOAD"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.offload_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%offload_src_root", config.offload_src_root))
config.substitutions.append(("%offload_lib_dir", config.offload_lib_dir))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# LLVM's test utilities (FileCheck, not, count, split-file) come from
# llvm-22-tools; put them on PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.offload_tools_dir, config.llvm_tools_dir]
tools = ["offload-opt", "offload-run", "mlir-opt", "mlir-runner", "split-file", "not"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The shared conformance corpus sits next to the project in a checkout
# (../shared); tests that need it are gated on this feature.
shared_dir = os.path.join(os.path.dirname(config.offload_src_root), "shared")
if os.path.isdir(os.path.join(shared_dir, "corpus", "mlir-gpu")):
    config.available_features.add("shared-corpus")
    config.substitutions.append(("%shared_dir", shared_dir))

config.substitutions.append(("%offload_bin_dir", config.offload_tools_dir))
