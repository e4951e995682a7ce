# -*- Python -*-
# lit configuration of the offload project's tests (check-offload).

import os
import re
import shutil
import subprocess
import sys

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

# Sanitized builds (OFFLOAD_SANITIZE): the sanitizers' run-time options, as
# CMakeLists.txt explains them ("VAR=VALUE;...").
sanitized = bool(config.offload_sanitizer_env)
for assignment in filter(None, config.offload_sanitizer_env.split(";")):
    name, value = assignment.split("=", 1)
    config.environment[name] = value
if sanitized:
    config.available_features.add("sanitized")
llvm_config.use_default_substitutions()

# LLVM's test utilities (FileCheck, not, count, split-file) come from
# llvm-22-tools; put them on PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.offload_tools_dir, config.llvm_tools_dir]
tools = ["offload-opt", "offload-run", "offload-cache", "offload-device-info", "offload-tblgen", "mlir-opt", "mlir-runner", "split-file", "not"]
if sanitized and config.offload_sanitizer_preload:
    # Debian's mlir-runner is not instrumented: the sanitized libraries it
    # loads (--shared-libs) need the sanitizer runtime preloaded, and leaks
    # of the uninstrumented MLIR are not ours (CMakeLists.txt).
    tools.remove("mlir-runner")
    runner = shutil.which("mlir-runner", path=config.llvm_tools_dir)
    asan = config.environment.get("ASAN_OPTIONS", "")
    tools.append(ToolSubst(
        "mlir-runner",
        command="env LD_PRELOAD=%s ASAN_OPTIONS=%s:detect_leaks=0 %s"
        % (config.offload_sanitizer_preload, asan, runner)))
if sanitized:
    # offload-run executes the test programs, whose memref.alloc buffers are
    # often never freed (and JIT-compiled, so a suppression cannot name
    # them): no leak checks for it; the runtime's leaks are checked by the
    # GoogleTest suites, the compiler's by offload-opt.
    tools.remove("offload-run")
    tools.append(ToolSubst(
        "offload-run",
        command="env ASAN_OPTIONS=%s:detect_leaks=0 %s"
        % (config.environment.get("ASAN_OPTIONS", ""),
           os.path.join(config.offload_tools_dir, "offload-run"))))
llvm_config.add_tool_substitutions(tools, tool_dirs)

# %python: the project's virtual environment (scripts/setup.sh makes it),
# else the interpreter running lit; for tests that parse JSON output.
_venv_python = os.path.join(config.offload_src_root, ".venv", "bin", "python")
config.substitutions.append(
    ("%python", _venv_python if os.path.isfile(_venv_python) else sys.executable))

# The shared conformance corpus sits next to the project in a checkout
# (../shared), or where $OFFLOAD_SHARED_DIR says (a git worktree elsewhere);
# tests that need it are gated on this feature, and scripts/test.sh reports
# how many of them ran.
shared_dir = os.environ.get("OFFLOAD_SHARED_DIR") or os.path.join(
    os.path.dirname(config.offload_src_root), "shared")
if os.path.isdir(os.path.join(shared_dir, "corpus", "mlir-gpu")):
    config.available_features.add("shared-corpus")
    config.substitutions.append(("%shared_dir", shared_dir))

config.substitutions.append(("%offload_bin_dir", config.offload_tools_dir))

# GPU targets (offload-lower-to-nvvm / -rocdl). Tests see the toolkit
# variables the compiler searches, so features and compiler agree.
llvm_config.with_system_environment(
    ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "ROCM_PATH", "ROCM_ROOT", "ROCM_HOME"]
)
config.substitutions.append(
    (
        "%extract-gpu-images",
        '"%s" %s'
        % (
            sys.executable,
            os.path.join(config.offload_src_root, "test", "Pipelines", "Inputs",
                         "extract-gpu-images.py"),
        ),
    )
)

# `%client-program CAPTURED WRAPPER`: one program of a kernel captured from
# another compiler (test/Clients/Inputs) and the test's host code.
config.substitutions.append(
    (
        "%client-program",
        '"%s" %s'
        % (sys.executable,
           os.path.join(config.offload_src_root, "test", "Clients", "combine.py")),
    )
)


def _find_ptxas():
    """ptxas where offload-lower-to-nvvm looks for it (GPUTargets.cpp)."""
    dirs = [config.environment.get(v) for v in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")]
    for d in [d for d in dirs if d] + ["/usr/local/cuda"]:
        path = os.path.join(d, "bin", "ptxas")
        if os.access(path, os.X_OK):
            return path
    return shutil.which("ptxas", path=config.environment.get("PATH"))


def _ptxas_cuda_major(ptxas):
    try:
        out = subprocess.run([ptxas, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    match = re.search(r"release (\d+)\.", out)
    return int(match.group(1)) if match else 0


# `ptxas`: a ptxas of CUDA 12 or newer (PTX ISA 8.0, sm_90) for cubin tests.
_ptxas = _find_ptxas()
if _ptxas and _ptxas_cuda_major(_ptxas) >= 12:
    config.available_features.add("ptxas")

# `rocm-toolkit`: the ROCm layout the build made (scripts/rocm-toolkit.sh) has
# ld.lld and the AMD device libraries, so HSACO links.
_rocm = os.path.join(config.offload_obj_root, "share", "offload", "rocm-toolkit")
if os.access(os.path.join(_rocm, "llvm", "bin", "ld.lld"), os.X_OK) and os.path.isfile(
    os.path.join(_rocm, "amdgcn", "bitcode", "ockl.bc")
):
    config.available_features.add("rocm-toolkit")
    config.substitutions.append(("%rocm_toolkit", _rocm))


# `liboffload22`: the drop-in liboffload 22 library and its C program were
# built (lib/Liboffload22, Debian's liboffload-22-dev header present).
if os.path.isfile(os.path.join(config.offload_tools_dir,
                               "offload-liboffload22-saxpy")):
    config.available_features.add("liboffload22")

# `fake-cuda`: the runtime tests' fake CUDA drivers were built
# (unittests/Runtime/Plugins).
if all(os.path.isfile(os.path.join(config.offload_lib_dir, lib))
       for lib in ("libfakecuda.so", "libfakecuda122.so")):
    config.available_features.add("fake-cuda")


def _has_gpu(probe):
    """Runs a device count probe in a child process (never in lit's own)."""
    try:
        return subprocess.run([sys.executable, "-c", probe], capture_output=True,
                              timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


# `cuda-device` / `hip-device`: a GPU and its driver are present; tests that
# expect "no device" are UNSUPPORTED there.
if _has_gpu(
    "import ctypes, sys\n"
    "cuda = ctypes.CDLL('libcuda.so.1')\n"
    "n = ctypes.c_int(0)\n"
    "sys.exit(0 if cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(n)) == 0"
    " and n.value > 0 else 1)\n"
):
    config.available_features.add("cuda-device")
if _has_gpu(
    "import ctypes, sys\n"
    "for name in ('libamdhip64.so', 'libamdhip64.so.6', 'libamdhip64.so.5'):\n"
    "    try:\n"
    "        hip = ctypes.CDLL(name)\n"
    "        break\n"
    "    except OSError:\n"
    "        hip = None\n"
    "if hip is None: sys.exit(1)\n"
    "n = ctypes.c_int(0)\n"
    "sys.exit(0 if hip.hipGetDeviceCount(ctypes.byref(n)) == 0 and n.value > 0 else 1)\n"
):
    config.available_features.add("hip-device")

# `fake-cuda` / `fake-hip`: the test doubles of the CUDA driver and the HIP
# runtime (unittests/Runtime/Plugins) were built; tests load them through
# OFFLOAD_CUDA_LIBRARY / OFFLOAD_HIP_LIBRARY=%fake_cuda_library / ..hip...
for _name, _feature in (("libfakecuda.so", "fake-cuda"), ("libfakehip.so", "fake-hip")):
    _path = os.path.join(config.offload_lib_dir, _name)
    if os.path.isfile(_path):
        config.available_features.add(_feature)
        config.substitutions.append(("%%%s_library" % _feature.replace("-", "_"), _path))
