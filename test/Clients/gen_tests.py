#!/usr/bin/env python3
# Part of the offload project, under the Apache License v2.0 with LLVM
# Exceptions.
"""Writes the lit tests of test/Clients: for each captured kernel
(Inputs/<compiler>/<kernel>.mlir) a host program that fills the inputs,
launches the kernel as its compiler's host code would (numba and eudsl: a
gpu.launch_func with the kernel's memref types; FlyDSL: a call of the host
function FlyDSL emitted, with pointers and an async token) and prints what a
user checks, with the expected values computed here with NumPy as CHECK lines.

    /tmp/clients-venv/bin/python gen_tests.py   (needs numpy)

The tests combine the captured file and the host code with combine.py
(%client-program).
"""
import os, re, numpy as np
ROOT = os.path.dirname(os.path.abspath(__file__))
INP = ROOT + "/Inputs"

def kname(compiler, kernel):
    txt = open(f"{INP}/{compiler}/{kernel}.mlir").read()
    mod = re.search(r"gpu\.module @(\w+)", txt).group(1)
    fn = re.search(r"gpu\.func @(\w+)", txt).group(1)
    return mod, fn

def fmt(vals, isfloat):
    out = []
    for v in vals:
        if isfloat:
            v = float(v)
            s = "%g" % v
            if s == "-0": s = "-0"
            out.append(s)
        else:
            out.append(str(int(v)))
    return "[" + ",  ".join(out) + "]"

HDR = {
 "numba": "numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`)",
 "flydsl": "FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl)",
 "eudsl": "eudsl-python-extras 0.1.0",
}

def runlines(compiler, kernel, xfail, extra_env=""):
    inp = f"%S/../Inputs/{compiler}/{kernel}.mlir"
    r = []
    r.append(f"// RUN: %client-program {inp} %s | {extra_env}offload-run - | FileCheck %s")
    r.append(f"// RUN: %client-program {inp} %s | {extra_env}offload-run --jit - | FileCheck %s")
    return r

def write(compiler, kernel, what, xfail, body, checks, note=None, decls=("F32",)):
    lines = [f"// {what}: the kernel {HDR[compiler]} emits,"]
    lines.append(f"// Inputs/{compiler}/{kernel}.mlir, launched by the host code below.")
    if note:
        for l in note: lines.append("// " + l)
    lines.append("")
    lines += runlines(compiler, kernel, xfail)
    if xfail:
        lines.append("")
        for l in xfail: lines.append("// " + l)
        lines.append("// XFAIL: *")
    lines.append("")
    lines += ["// " + c for c in checks]
    lines.append("")
    for d in decls:
        lines.append(f"func.func private @printMemref{d}(memref<*x{d.lower()}>)")
    lines.append(body.rstrip("\n"))
    os.makedirs(f"{ROOT}/{compiler}", exist_ok=True)
    open(f"{ROOT}/{compiler}/{kernel}.mlir", "w").write("\n".join(lines) + "\n")


def print_prefix(var, ty, n, k, stride=1):
    # print k elements of a static memref<n x ty>, every stride-th
    T = ty
    return f"""  %{var}_head = memref.subview %{var}[0] [{k}] [{stride}] : memref<{n}x{T}> to memref<{k}x{T}, strided<[{stride}]>>
  %{var}_u = memref.cast %{var}_head : memref<{k}x{T}, strided<[{stride}]>> to memref<*x{T}>
  call @printMemref{T.upper()}(%{var}_u) : (memref<*x{T}>) -> ()
"""

def strided(var, n, ty):
    return f"  %{var}_s = memref.cast %{var} : memref<{n}x{ty}> to memref<?x{ty}, strided<[?], offset: ?>>\n"

def ptr(var, n, ty):
    return f"""  %{var}_i = memref.extract_aligned_pointer_as_index %{var} : memref<{n}x{ty}> -> index
  %{var}_l = arith.index_cast %{var}_i : index to i64
  %{var}_p = llvm.inttoptr %{var}_l : i64 to !llvm.ptr<1>
"""

def fill(var, n, ty, expr_lines):
    # expr_lines: MLIR computing %v from %i (index) and %ii (i32)
    body = "\n".join("    " + l for l in expr_lines)
    return f"""  scf.for %i = %c0 to %c{n} step %c1 {{
    %ii = arith.index_cast %i : index to i32
{body}
    memref.store %v, %{var}[%i] : memref<{n}x{ty}>
  }}
"""

def consts(*ns):
    s = "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
    for n in sorted(set(ns)):
        if n in (0, 1): continue
        s += f"  %c{n} = arith.constant {n} : index\n"
    return s

def alloc(var, n, ty):
    return f"  %{var} = gpu.alloc host_shared () : memref<{n}x{ty}>\n"

def launch(mod, fn, grid, block, args):
    g = ", ".join(f"%c{x}" for x in grid)
    b = ", ".join(f"%c{x}" for x in block)
    a = ", ".join(args)
    return f"  gpu.launch_func @{mod}::@{fn}\n      blocks in ({g}) threads in ({b})\n      args({a})\n"

SV = lambda t: f"memref<?x{t}, strided<[?], offset: ?>>"

# ---------------------------------------------------------------- numba
def numba_simple(kernel, what, ins, outs, grid, block, fills, expected, isfloat, extra_args_before=(), note=None, xfail=None, k=8, outinit=None, stride=1):
    mod, fn = kname("numba", kernel)
    ns = [n for _, n, _ in ins + outs] + list(grid) + list(block)
    b = "func.func @main() {\n" + consts(*ns)
    for v, n, t in ins + outs:
        b += alloc(v, n, t)
    for v, n, t in ins:
        b += fill(v, n, t, fills[v])
    for v, n, t in outs:
        if outinit and v in outinit:
            b += fill(v, n, t, outinit[v])
        else:
            zero = "0.0" if t.startswith("f") else "0"
            b += fill(v, n, t, [f"%v = arith.constant {zero} : {t}"])
    args = list(extra_args_before)
    pre = ""
    for v, n, t in ins + outs:
        pre += strided(v, n, t)
        args.append(f"%{v}_s : {SV(t)}")
    if extra_args_before:
        pre = "".join(a[1] for a in extra_args_before) + pre
        args = [a[0] for a in extra_args_before] + args[len(extra_args_before):]
    b += pre
    b += launch(mod, fn, grid, block, args)
    checks = []
    for v, n, t in outs:
        kk = min(k, n)
        b += print_prefix(v, t, n, kk, stride)
        checks.append("CHECK: " + fmt(expected[v][:kk*stride:stride], isfloat))
    b += "  return\n}\n"
    decls = sorted(set(t.upper() for _, _, t in outs))
    write("numba", kernel, what, xfail, b, checks, note=note, decls=decls)

i = np.arange(256)
numba_simple("vadd", "Vector addition", [("a",256,"f32"),("b",256,"f32")], [("c",256,"f32")], (4,1,1),(64,1,1),
  {"a":["%v = arith.uitofp %ii : i32 to f32"], "b":["%t = arith.uitofp %ii : i32 to f32","%v = arith.addf %t, %t : f32"]},
  {"c": 3*i[:8]}, True)
# saxpy (scalar first)
numba_simple("saxpy", "SAXPY", [("x",256,"f32"),("y",256,"f32")], [("out",256,"f32")], (4,1,1),(64,1,1),
  {"x":["%v = arith.uitofp %ii : i32 to f32"], "y":["%v = arith.constant 1.0 : f32"]},
  {"out": 2*i[:8]+1}, True,
  extra_args_before=[("%alpha : f32", "  %alpha = arith.constant 2.0 : f32\n")])

# stencil: x[i] = i*i
x = (i*i).astype(np.float64); y = np.zeros(256); y[1:-1] = 0.25*x[:-2] + 0.5*x[1:-1] + 0.25*x[2:]
numba_simple("stencil", "A 1-D three-point stencil", [("x",256,"f32")], [("y",256,"f32")], (4,1,1),(64,1,1),
  {"x":["%t = arith.muli %ii, %ii : i32","%v = arith.uitofp %t : i32 to f32"]},
  {"y": y[:8]}, True)
# histogram
numba_simple("histogram", "A histogram with atomic adds", [("x",256,"i32")], [("bins",16,"i32")], (4,1,1),(64,1,1),
  {"x":["%c16_i32 = arith.constant 16 : i32", "%m = arith.muli %ii, %ii : i32", "%v = arith.remui %m, %c16_i32 : i32"]},
  {"bins": np.bincount((i*i) % 16, minlength=16)}, False, k=16, outinit={"bins":["%v = arith.constant 0 : i32"]})
# atomics: x[i] = (i*37) % 101 - 50
xa = (i*37) % 101 - 50
numba_simple("atomics", "Atomic max, min and add on one array", [("x",256,"i32")], [("out",3,"i32")], (4,1,1),(64,1,1),
  {"x":["%c37 = arith.constant 37 : i32", "%c101 = arith.constant 101 : i32", "%c50 = arith.constant 50 : i32",
        "%m = arith.muli %ii, %c37 : i32", "%r = arith.remui %m, %c101 : i32", "%v = arith.subi %r, %c50 : i32"]},
  {"out": [xa.max(), xa.min(), xa.sum()]}, False, k=3, outinit={"out":["%v = arith.constant 0 : i32"]})
# window_sum: x[i] = i, out[i] = 16 i + 6
numba_simple("window_sum", "Sums of 4-element slices (memref.subview with a dynamic offset)", [("x",256,"f32")], [("out",64,"f32")], (1,1,1),(64,1,1),
  {"x":["%v = arith.uitofp %ii : i32 to f32"]},
  {"out": 16*np.arange(64)+6}, True)
# warp_sum: x[i] = i % 5, 4 warps
xw = i[:128] % 5
numba_simple("warp_sum", "A warp reduction with shfl.sync down", [("x",128,"f32")], [("out",4,"f32")], (2,1,1),(64,1,1),
  {"x":["%c5 = arith.constant 5 : i32","%r = arith.remui %ii, %c5 : i32","%v = arith.uitofp %r : i32 to f32"]},
  {"out": xw.reshape(4,32).sum(1)}, True, k=4, outinit={"out":["%v = arith.constant 0.0 : f32"]})
# warp_max: x[i] = (i*7) % 32 + 100 * (i / 32)
xm = (i[:128]*7) % 32 + 100*(i[:128]//32)
numba_simple("warp_max", "A butterfly warp maximum with shfl.sync bfly", [("x",128,"f32")], [("out",128,"f32")], (2,1,1),(64,1,1),
  {"x":["%c7 = arith.constant 7 : i32","%c32 = arith.constant 32 : i32","%c100 = arith.constant 100 : i32",
        "%m = arith.muli %ii, %c7 : i32","%r = arith.remui %m, %c32 : i32","%w = arith.divui %ii, %c32 : i32",
        "%h = arith.muli %w, %c100 : i32","%s = arith.addi %r, %h : i32","%v = arith.uitofp %s : i32 to f32"]},
  {"out": np.repeat(xm.reshape(4,32).max(1), 32)}, True, k=8, stride=16)
# warp_scan (i32): x[i] = i % 3, inclusive scan per warp
xs = i[:128] % 3
numba_simple("warp_scan", "An inclusive warp scan with shfl.sync up and the lane id", [("x",128,"i32")], [("out",128,"i32")], (2,1,1),(64,1,1),
  {"x":["%c3 = arith.constant 3 : i32","%v = arith.remui %ii, %c3 : i32"]},
  {"out": np.cumsum(xs.reshape(4,32),1).reshape(-1)}, False, k=16, stride=8)
# warp_broadcast: out[i] = x[warp*32 + 3], x[i] = i
numba_simple("warp_broadcast", "A broadcast of lane 3 with shfl.sync idx", [("x",128,"f32")], [("out",128,"f32")], (2,1,1),(64,1,1),
  {"x":["%v = arith.uitofp %ii : i32 to f32"]},
  {"out": np.repeat(np.arange(4)*32+3, 32)}, True, k=8, stride=16)
# vote: warp 0: all > 0; warp 1: none; warp 2: lanes i%3==0; warp 3: lane 31 only
def votein(j):
    w, l = j // 32, j % 32
    return [1, -1, 1 if l % 3 == 0 else -1, 1 if l == 31 else 0][w]
xv = np.array([votein(j) for j in range(128)])
outv = []
for w in range(4):
    p = xv[w*32:(w+1)*32] > 0
    ballot = sum(1 << l for l in range(32) if p[l])
    val = (ballot + (1 if p.any() else 0) + (2 if p.all() else 0)) & 0xffffffff
    if val >= 1 << 31: val -= 1 << 32
    outv += [val]*32
numba_simple("vote", "Warp votes: ballot_sync, any_sync, all_sync", [("x",128,"i32")], [("out",128,"i32")], (2,1,1),(64,1,1),
  {"x":["%c32 = arith.constant 32 : i32","%c3 = arith.constant 3 : i32","%c31 = arith.constant 31 : i32",
        "%one = arith.constant 1 : i32","%mone = arith.constant -1 : i32","%zero = arith.constant 0 : i32",
        "%w = arith.divui %ii, %c32 : i32","%l = arith.remui %ii, %c32 : i32",
        "%m3 = arith.remui %l, %c3 : i32","%d3 = arith.cmpi eq, %m3, %zero : i32","%v2 = arith.select %d3, %one, %mone : i32",
        "%is31 = arith.cmpi eq, %l, %c31 : i32","%v3 = arith.select %is31, %one, %zero : i32",
        "%w0 = arith.cmpi eq, %w, %zero : i32","%w1 = arith.cmpi eq, %w, %one : i32","%two = arith.constant 2 : i32","%w2 = arith.cmpi eq, %w, %two : i32",
        "%s23 = arith.select %w2, %v2, %v3 : i32","%s1 = arith.select %w1, %mone, %s23 : i32","%v = arith.select %w0, %one, %s1 : i32"]},
  {"out": outv}, False, k=4, stride=32)
# dims: out[i] = blockDim.x*1000 + gridDim.x*100 + tid + warpsize
numba_simple("dims", "Block and grid dimensions, thread id and warp size", [], [("out",128,"i32")], (2,1,1),(64,1,1),
  {}, {"out": [64*1000 + 2*100 + (j % 64) + 32 for j in range(128)]}, False, k=8, stride=9)

# gelu (tanh form, computed in f64 as numba does): compared with the same
# formula on the host; prints the number of mismatches.
mod, fn = kname("numba", "gelu")
body = """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xf32>
  %y = gpu.alloc host_shared () : memref<256xf32>
  // x in [-4, 4)
  %c128_i32 = arith.constant 128 : i32
  %scale = arith.constant 3.125e-02 : f32
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %d = arith.subi %ii, %c128_i32 : i32
    %f = arith.sitofp %d : i32 to f32
    %v = arith.mulf %f, %scale : f32
    memref.store %v, %x[%i] : memref<256xf32>
  }
  %x_s = memref.cast %x : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  %y_s = memref.cast %y : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  gpu.launch_func @%MOD%::@%FN%
      blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%x_s : memref<?xf32, strided<[?], offset: ?>>, %y_s : memref<?xf32, strided<[?], offset: ?>>)
  // 0.5 v (1 + tanh(sqrt(2 / pi) (v + 0.044715 v^3))) in f64, as the kernel.
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %k0 = arith.constant 0.7978845608 : f64
  %k1 = arith.constant 0.044715 : f64
  %tol = arith.constant 1.0e-6 : f32
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %errors = scf.for %i = %c0 to %c256 step %c1 iter_args(%e = %zero) -> (i32) {
    %v32 = memref.load %x[%i] : memref<256xf32>
    %v = arith.extf %v32 : f32 to f64
    %v2 = arith.mulf %v, %v : f64
    %v3 = arith.mulf %v2, %v : f64
    %t0 = arith.mulf %k1, %v3 : f64
    %t1 = arith.addf %v, %t0 : f64
    %t2 = arith.mulf %k0, %t1 : f64
    %t3 = math.tanh %t2 : f64
    %t4 = arith.addf %one, %t3 : f64
    %t5 = arith.mulf %half, %v : f64
    %r64 = arith.mulf %t5, %t4 : f64
    %r = arith.truncf %r64 : f64 to f32
    %got = memref.load %y[%i] : memref<256xf32>
    %diff = arith.subf %got, %r : f32
    %abs = math.absf %diff : f32
    %bad = arith.cmpf ugt, %abs, %tol : f32
    %add = arith.select %bad, %inc, %zero : i32
    %e1 = arith.addi %e, %add : i32
    scf.yield %e1 : i32
  }
  vector.print str "mismatches: "
  vector.print %errors : i32
  // gelu(-4 + 8 k / 8), k = 0..7
  %y_head = memref.subview %y[0] [8] [32] : memref<256xf32> to memref<8xf32, strided<[32]>>
  %y_u = memref.cast %y_head : memref<8xf32, strided<[32]>> to memref<*xf32>
  call @printMemrefF32(%y_u) : (memref<*xf32>) -> ()
  return
}
""".replace("%MOD%", mod).replace("%FN%", fn)
xv = (np.arange(256) - 128) * 0.03125
gv = 0.5*xv*(1+np.tanh(0.7978845608*(xv+0.044715*xv**3)))
write("numba", "gelu", "GELU (tanh form)", None, body, ["CHECK: mismatches: 0", "CHECK: " + fmt(gv[::32].astype(np.float32), True)], decls=("F32",))

# block_sum: x[i] = i % 7, two blocks of 128
xb = np.arange(256) % 7
numba_simple("block_sum", "A block reduction in shared memory (cuda.shared.array, syncthreads)", [("x",256,"f32")], [("out",2,"f32")], (2,1,1),(128,1,1),
  {"x":["%c7 = arith.constant 7 : i32","%r = arith.remui %ii, %c7 : i32","%v = arith.uitofp %r : i32 to f32"]},
  {"out": xb.reshape(2,128).sum(1)}, True, k=2, xfail=None)

def matmul_body(compiler, launch_code, pre=""):
    return """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %a = gpu.alloc host_shared () : memref<32x32xf32>
  %b = gpu.alloc host_shared () : memref<32x32xf32>
  %c = gpu.alloc host_shared () : memref<32x32xf32>
  // A[i][j] = (i + j) % 5, B[i][j] = (i * j) % 3
  %c5_i = arith.constant 5 : index
  %c3_i = arith.constant 3 : index
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %s = arith.addi %i, %j : index
      %sa = arith.remui %s, %c5_i : index
      %p = arith.muli %i, %j : index
      %sb = arith.remui %p, %c3_i : index
      %ia = arith.index_cast %sa : index to i32
      %ib = arith.index_cast %sb : index to i32
      %fa = arith.uitofp %ia : i32 to f32
      %fb = arith.uitofp %ib : i32 to f32
      memref.store %fa, %a[%i, %j] : memref<32x32xf32>
      memref.store %fb, %b[%i, %j] : memref<32x32xf32>
    }
  }
""" + pre + launch_code + """  // The product on the host; exact in f32 (small integers).
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %fzero = arith.constant 0.0 : f32
  %errors = scf.for %i = %c0 to %c32 step %c1 iter_args(%e = %zero) -> (i32) {
    %row = scf.for %j = %c0 to %c32 step %c1 iter_args(%er = %e) -> (i32) {
      %sum = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %fzero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<32x32xf32>
        %y = memref.load %b[%k, %j] : memref<32x32xf32>
        %m = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %m : f32
        scf.yield %n : f32
      }
      %got = memref.load %c[%i, %j] : memref<32x32xf32>
      %bad = arith.cmpf une, %got, %sum : f32
      %add = arith.select %bad, %inc, %zero : i32
      %er1 = arith.addi %er, %add : i32
      scf.yield %er1 : i32
    }
    scf.yield %row : i32
  }
  vector.print str "mismatches: "
  vector.print %errors : i32
  %diag = memref.reinterpret_cast %c to offset: [0], sizes: [8], strides: [33] : memref<32x32xf32> to memref<8xf32, strided<[33]>>
  %d_u = memref.cast %diag : memref<8xf32, strided<[33]>> to memref<*xf32>
  call @printMemrefF32(%d_u) : (memref<*xf32>) -> ()
  return
}
"""
A = np.fromfunction(lambda i, j: (i + j) % 5, (32, 32)); B = np.fromfunction(lambda i, j: (i * j) % 3, (32, 32))
Cm = A @ B
mm_checks = ["CHECK: mismatches: 0", "CHECK: " + fmt(np.diag(Cm)[:8], True)]
mod, fn = kname("numba", "matmul")
M2 = "memref<?x?xf32, strided<[?, ?], offset: ?>>"
code = f"""  %a_s = memref.cast %a : memref<32x32xf32> to {M2}
  %b_s = memref.cast %b : memref<32x32xf32> to {M2}
  %c_s = memref.cast %c : memref<32x32xf32> to {M2}
  gpu.launch_func @{mod}::@{fn}
      blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
      args(%a_s : {M2}, %b_s : {M2}, %c_s : {M2})
"""
write("numba", "matmul", "A 16x16-tiled matrix product in shared memory", None, matmul_body("numba", code), mm_checks, decls=("F32",))

# ---------------------------------------------------------------- FlyDSL
def fly_simple(kernel, what, ins, outs, fills, expected, isfloat, scalars=(), note=None, xfail=None, k=8, stride=1, outinit=None, post=""):
    # The captured host function @<kernel>(scalars/pointers in order, token).
    ns = [n for _, n, _ in ins + outs]
    b = "func.func @main() {\n" + consts(*ns)
    for v, n, t in ins + outs:
        b += alloc(v, n, t)
    for v, n, t in ins:
        b += fill(v, n, t, fills[v])
    for v, n, t in outs:
        init = (outinit or {}).get(v, [f"%v = arith.constant {'0.0' if t.startswith('f') else '0'} : {t}"])
        b += fill(v, n, t, init)
    args, types = [], []
    order = scalars_order = None
    for v, n, t in ins + outs:
        b += ptr(v, n, t)
    seq = []
    for item in FLY_ORDER[kernel]:
        if item.startswith("%"):
            name, ty = item.split(":")
            seq.append((name, ty))
        else:
            seq.append((f"%{item}_p", "!llvm.ptr<1>"))
    for s in scalars:
        b += s
    b += "  %token = gpu.wait async\n"
    b += f"  call @{kernel}({', '.join(n for n, _ in seq)}, %token) : ({', '.join(t for _, t in seq)}, !gpu.async.token) -> ()\n"
    b += "  gpu.wait [%token]\n"
    checks = []
    b += post
    for v, n, t in outs:
        if v not in expected: continue
        kk = min(k, n)
        b += print_prefix(v, t, n, kk, stride)
        checks.append("CHECK: " + fmt(np.asarray(expected[v])[:kk*stride:stride], isfloat))
    b += "  return\n}\n"
    decls = sorted(set(t.upper() for v, _, t in outs if v in expected))
    write("flydsl", kernel, what, xfail, b, checks, note=note, decls=decls)

FLY_ORDER = {
 "vadd": ["a", "b", "c"], "saxpy": ["%alpha:f32", "x", "y", "out"], "stencil": ["x", "y", "%n:i32"],
 "histogram": ["x", "bins"], "gelu": ["x", "y"], "block_sum": ["x", "out"], "warp_sum": ["x", "out"],
 "warp_reduce": ["x", "out"], "lanes": ["x", "out"],
}
i = np.arange(256)
fly_simple("vadd", "Vector addition", [("a",256,"f32"),("b",256,"f32")], [("c",256,"f32")],
  {"a":["%v = arith.uitofp %ii : i32 to f32"], "b":["%t = arith.uitofp %ii : i32 to f32","%v = arith.addf %t, %t : f32"]},
  {"c": 3*i}, True, k=8, stride=32)
fly_simple("saxpy", "SAXPY", [("x",256,"f32"),("y",256,"f32")], [("out",256,"f32")],
  {"x":["%v = arith.uitofp %ii : i32 to f32"], "y":["%v = arith.constant 1.0 : f32"]},
  {"out": 2*i+1}, True, scalars=["  %alpha = arith.constant 2.0 : f32\n"], k=8, stride=32)
x = (i*i).astype(np.float64); y = np.zeros(256); y[1:-1] = 0.25*x[:-2] + 0.5*x[1:-1] + 0.25*x[2:]
fly_simple("stencil", "A 1-D three-point stencil", [("x",256,"f32")], [("y",256,"f32")],
  {"x":["%t = arith.muli %ii, %ii : i32","%v = arith.uitofp %t : i32 to f32"]},
  {"y": y}, True, scalars=["  %n = arith.constant 256 : i32\n"], k=8)
fly_simple("histogram", "A histogram with atomic adds (llvm.atomicrmw)", [("x",256,"i32")], [("bins",16,"i32")],
  {"x":["%c16_i32 = arith.constant 16 : i32", "%m = arith.muli %ii, %ii : i32", "%v = arith.remui %m, %c16_i32 : i32"]},
  {"bins": np.bincount((i*i) % 16, minlength=16)}, False, k=16)
xw = i[:128] % 5
ws = np.repeat(xw.reshape(4,32).sum(1), 32)
fly_simple("warp_sum", "A butterfly warp sum with gpu.shuffle xor", [("x",128,"f32")], [("out",128,"f32")],
  {"x":["%c5 = arith.constant 5 : i32","%r = arith.remui %ii, %c5 : i32","%v = arith.uitofp %r : i32 to f32"]},
  {"out": ws}, True, k=8, stride=16)
fly_simple("warp_reduce", "FlyDSL's warp reduction (fx.coop.warp_reduce, width 32): DPP moves\n// (rocdl.update.dpp) and a swizzle (rocdl.ds_swizzle)", [("x",128,"f32")], [("out",128,"f32")],
  {"x":["%c5 = arith.constant 5 : i32","%r = arith.remui %ii, %c5 : i32","%v = arith.uitofp %r : i32 to f32"]},
  {"out": ws}, True, k=8, stride=16)
xl = (i[:128] * 7) % 50
first = np.repeat(xl.reshape(4,32)[:,0], 32); third = np.repeat(xl.reshape(4,32)[:,3], 32)
swapped = xl[np.arange(128) ^ 1]
fly_simple("lanes", "Lane intrinsics: rocdl.readfirstlane, rocdl.readlane, rocdl.ds_bpermute", [("x",128,"i32")], [("out",128,"i32")],
  {"x":["%c7 = arith.constant 7 : i32","%c50 = arith.constant 50 : i32","%m = arith.muli %ii, %c7 : i32","%v = arith.remui %m, %c50 : i32"]},
  {"out": first*10000 + third*100 + swapped}, False, k=8, stride=1)
xb = np.arange(256) % 7
fly_simple("block_sum", "A block reduction in shared memory (addr_space 3 llvm.mlir.global, gpu.barrier)", [("x",256,"f32")], [("out",2,"f32")],
  {"x":["%c7 = arith.constant 7 : i32","%r = arith.remui %ii, %c7 : i32","%v = arith.uitofp %r : i32 to f32"]},
  {"out": xb.reshape(2,128).sum(1)}, True, k=2, xfail=None)

body = """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xf32>
  %y = gpu.alloc host_shared () : memref<256xf32>
  // x in [-4, 4)
  %c128_i32 = arith.constant 128 : i32
  %scale = arith.constant 3.125e-02 : f32
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %d = arith.subi %ii, %c128_i32 : i32
    %f = arith.sitofp %d : i32 to f32
    %v = arith.mulf %f, %scale : f32
    memref.store %v, %x[%i] : memref<256xf32>
  }
""" + ptr("x", 256, "f32") + ptr("y", 256, "f32") + """  %token = gpu.wait async
  call @gelu(%x_p, %y_p, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, !gpu.async.token) -> ()
  gpu.wait [%token]
  // 0.5 v (1 + erf(v / sqrt(2))) in f32, as the kernel.
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 0.70710678 : f32
  %tol = arith.constant 1.0e-6 : f32
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %errors = scf.for %i = %c0 to %c256 step %c1 iter_args(%e = %zero) -> (i32) {
    %v = memref.load %x[%i] : memref<256xf32>
    %t0 = arith.mulf %v, %k : f32
    %t1 = math.erf %t0 : f32
    %t2 = arith.addf %t1, %one : f32
    %t3 = arith.mulf %v, %half : f32
    %r = arith.mulf %t3, %t2 : f32
    %got = memref.load %y[%i] : memref<256xf32>
    %diff = arith.subf %got, %r : f32
    %abs = math.absf %diff : f32
    %bad = arith.cmpf ugt, %abs, %tol : f32
    %add = arith.select %bad, %inc, %zero : i32
    %e1 = arith.addi %e, %add : i32
    scf.yield %e1 : i32
  }
  vector.print str "mismatches: "
  vector.print %errors : i32
  // gelu(-3), gelu(-2), ..., gelu(3)
  %y_head = memref.subview %y[32] [7] [32] : memref<256xf32> to memref<7xf32, strided<[32], offset: 32>>
  %y_u = memref.cast %y_head : memref<7xf32, strided<[32], offset: 32>> to memref<*xf32>
  call @printMemrefF32(%y_u) : (memref<*xf32>) -> ()
  return
}
"""
from math import erf
gv = np.array([0.5*v*(1+erf(v*0.70710678)) for v in xv], dtype=np.float32)
write("flydsl", "gelu", "GELU (erf form, math.erf)", None, body, ["CHECK: mismatches: 0", "CHECK: " + fmt(gv[32::32], True)], decls=("F32",))

code = ptr("a", "32x32", "f32") + ptr("b", "32x32", "f32") + ptr("c", "32x32", "f32") + """  %size = arith.constant 32 : i32
  %token = gpu.wait async
  call @matmul(%a_p, %b_p, %c_p, %size, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, i32, !gpu.async.token) -> ()
  gpu.wait [%token]
"""
write("flydsl", "matmul", "A 16x16-tiled matrix product in shared memory (addr_space 3 globals)",
  None, matmul_body("flydsl", code), mm_checks, decls=("F32",))

# ---------------------------------------------------------------- eudsl
def eudsl_simple(kernel, what, ins, outs, grid, block, fills, expected, isfloat, scalars=(), k=8, stride=1, xfail=None):
    mod, fn = kname("eudsl", kernel)
    ns = [n for _, n, _ in ins + outs] + list(grid) + list(block)
    b = "func.func @main() {\n" + consts(*ns)
    for v, n, t in ins + outs:
        if v not in [o for o, _, _ in ins]:
            b += alloc(v, n, t)
        else:
            b += alloc(v, n, t)
    for v, n, t in ins:
        b += fill(v, n, t, fills[v])
    for v, n, t in outs:
        if v in fills:
            b += fill(v, n, t, fills[v])
            continue
        b += fill(v, n, t, [f"%v = arith.constant {'0.0' if t.startswith('f') else '0'} : {t}"])
    args = [f"{name} : {ty}" for name, ty, _ in scalars]
    b += "".join(c for _, _, c in scalars)
    args += [f"%{v} : memref<{n}x{t}>" for v, n, t in ins + outs if v not in [o for o, _, _ in ins] or True][:len(ins + outs)]
    # unique
    seen = []; a2 = []
    for a in args:
        if a not in seen: seen.append(a); a2.append(a)
    b += launch(mod, fn, grid, block, a2)
    checks = []
    for v, n, t in outs:
        kk = min(k, n)
        b += print_prefix(v, t, n, kk, stride)
        checks.append("CHECK: " + fmt(np.asarray(expected[v])[:kk*stride:stride], isfloat))
    b += "  return\n}\n"
    write("eudsl", kernel, what, xfail, b, checks, decls=sorted(set(t.upper() for _, _, t in outs)))

i = np.arange(256)
eudsl_simple("vadd", "Vector addition", [("a",256,"f32"),("b",256,"f32")], [("c",256,"f32")], (4,1,1),(64,1,1),
  {"a":["%v = arith.uitofp %ii : i32 to f32"], "b":["%t = arith.uitofp %ii : i32 to f32","%v = arith.addf %t, %t : f32"]},
  {"c": 3*i}, True, stride=32)
eudsl_simple("saxpy", "SAXPY in place (y = a x + y)", [("x",256,"f32")], [("y",256,"f32")], (4,1,1),(64,1,1),
  {"x":["%v = arith.uitofp %ii : i32 to f32"], "y":["%v = arith.constant 1.0 : f32"]},
  {"y": 2*i+1}, True, scalars=[("%alpha", "f32", "  %alpha = arith.constant 2.0 : f32\n")], stride=32)

mod, fn = kname("eudsl", "tile_scale")
body = """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = gpu.alloc host_shared () : memref<64x64xf32>
  %b = gpu.alloc host_shared () : memref<64x64xf32>
  // A[i][j] = 64 i + j
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %r = arith.muli %i, %c64 : index
      %s = arith.addi %r, %j : index
      %si = arith.index_cast %s : index to i32
      %f = arith.uitofp %si : i32 to f32
      memref.store %f, %a[%i, %j] : memref<64x64xf32>
    }
  }
  // 16 blocks of 16 threads, a 4x4 tile each.
  gpu.launch_func @%MOD%::@%FN%
      blocks in (%c16, %c1, %c1) threads in (%c16, %c1, %c1)
      args(%a : memref<64x64xf32>, %b : memref<64x64xf32>)
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %errors = scf.for %i = %c0 to %c64 step %c1 iter_args(%e = %zero) -> (i32) {
    %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%er = %e) -> (i32) {
      %x = memref.load %a[%i, %j] : memref<64x64xf32>
      %want = arith.addf %x, %x : f32
      %got = memref.load %b[%i, %j] : memref<64x64xf32>
      %bad = arith.cmpf une, %got, %want : f32
      %add = arith.select %bad, %inc, %zero : i32
      %er1 = arith.addi %er, %add : i32
      scf.yield %er1 : i32
    }
    scf.yield %row : i32
  }
  vector.print str "mismatches: "
  vector.print %errors : i32
  %diag = memref.reinterpret_cast %b to offset: [0], sizes: [8], strides: [585] : memref<64x64xf32> to memref<8xf32, strided<[585]>>
  %d_u = memref.cast %diag : memref<8xf32, strided<[585]>> to memref<*xf32>
  call @printMemrefF32(%d_u) : (memref<*xf32>) -> ()
  return
}
""".replace("%MOD%", mod).replace("%FN%", fn)
write("eudsl", "tile_scale", "4x4 tiles doubled with 2-D vector.transfer_read/write (their lowering makes affine.apply)", None, body,
      ["CHECK: mismatches: 0", "CHECK: " + fmt([2*585*k for k in range(8)], True)], decls=("F32",))
