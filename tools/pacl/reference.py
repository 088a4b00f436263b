#!/usr/bin/python3
"""The PyTorch reference of `pacl op --verify`.

    reference.py call.json

call.json (written by `pacl op`) lists the op's arguments in parameter order: tensors with their
dtype, shape, strides, storage offset and a file holding the whole storage as the op saw it before
running; other values as the descriptor wrote them. For every output tensor this script writes the
expected values, contiguous in the output's dtype, to the file named by its "expected" key.

The functions in REFERENCES state each op's semantics in PyTorch terms (aclnn ops follow PyTorch).
float16/bfloat16 inputs are computed in float32 and the result rounded once to the output dtype.
Exit status: 0 written, 2 no reference for the op or PyTorch is missing.
"""
import json
import math
import re
import sys

try:
    import torch
except ImportError:
    sys.stderr.write("pacl op --verify needs PyTorch: install python3-torch (Debian) for /usr/bin/python3\n")
    sys.exit(2)

DTYPES = {
    "float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16, "float64": torch.float64,
    "int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64, "uint8": torch.uint8,
    "bool": torch.bool,
}
ACL_NAMES = {"ACL_FLOAT": "float32", "ACL_FLOAT16": "float16", "ACL_BF16": "bfloat16", "ACL_DOUBLE": "float64",
             "ACL_INT8": "int8", "ACL_INT16": "int16", "ACL_INT32": "int32", "ACL_INT64": "int64",
             "ACL_UINT8": "uint8", "ACL_BOOL": "bool", "float": "float32", "half": "float16", "double": "float64"}


def load_tensor(t):
    dtype = DTYPES.get(t["dtype"])
    if dtype is None:
        raise SystemExit(f"pacl reference: dtype {t['dtype']} is not supported by the reference")
    raw = open(t["file"], "rb").read()
    storage = torch.frombuffer(bytearray(raw), dtype=torch.uint8) if raw else torch.empty(0, dtype=torch.uint8)
    storage = storage.view(dtype) if raw else torch.empty(0, dtype=dtype)
    x = torch.as_strided(storage, t["shape"], t["strides"], t["offset"]).clone()
    if dtype in (torch.float16, torch.bfloat16):
        x = x.float()  # computed in float32, rounded once at the end
    return x


def parse_scalar(text):
    m = re.fullmatch(r"(\w+)\((.*)\)", text)
    if m:
        kind, v = m.group(1), m.group(2)
        if kind == "bool":
            return v == "true"
        if kind.startswith(("int", "uint")):
            return int(v, 0)
        return float(v)
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text, 0)
    except ValueError:
        return float(text)


def parse_value(arg):
    text, ctype = arg["text"], arg["type"]
    if arg["null"]:
        return None
    if "aclScalarList" in ctype or "aclIntArray" in ctype or "aclFloatArray" in ctype or "aclBoolArray" in ctype:
        items = [x for x in text.strip("[]").split(",") if x]
        return [parse_scalar(x) for x in items]
    if "aclScalar" in ctype:
        return parse_scalar(text)
    if "aclDataType" in ctype:
        return DTYPES[ACL_NAMES.get(text, text)]
    if "bool" in ctype:
        return text in ("true", "1")
    if "float" in ctype or "double" in ctype:
        return float(text)
    if "char" in ctype:
        return text
    return int(text, 0)


class Args:
    def __init__(self, manifest):
        self.values, self.outputs = {}, {}
        for a in manifest["args"]:
            if a["kind"] in ("tensor", "tensor_list"):
                ts = [load_tensor(t) for t in a["tensors"]]
                if a["output"] and a["tensors"]:
                    self.outputs[a["name"]] = a["tensors"]
                self.values[a["name"]] = None if a["null"] else (ts[0] if a["kind"] == "tensor" else ts)
            else:
                self.values[a["name"]] = parse_value(a)

    def __getattr__(self, name):
        return self.values[name]

    def first(self, *names):
        for n in names:
            if self.values.get(n) is not None:
                return self.values[n]
        raise KeyError(names)


def unary(fn):
    return lambda a: {"out": fn(a.first("self", "input", "x"))}


def reduce_dims(dims):
    return list(dims) if dims else None


REFERENCES = {
    # arithmetic
    "Add": lambda a: {"out": torch.add(a.self, a.other, alpha=a.alpha)},
    "Adds": lambda a: {"out": torch.add(a.self, a.other, alpha=a.alpha)},
    "Sub": lambda a: {"out": torch.sub(a.self, a.other, alpha=a.alpha)},
    "Subs": lambda a: {"out": torch.sub(a.self, a.other, alpha=a.alpha)},
    "Mul": lambda a: {"out": torch.mul(a.self, a.other)},
    "Muls": lambda a: {"out": torch.mul(a.self, a.other)},
    "Div": lambda a: {"out": torch.div(a.self, a.other)},
    "Divs": lambda a: {"out": torch.div(a.self, a.other)},
    "InplaceAdd": lambda a: {"selfRef": torch.add(a.selfRef, a.other, alpha=a.alpha)},
    "InplaceMul": lambda a: {"selfRef": torch.mul(a.selfRef, a.other)},
    "Maximum": lambda a: {"out": torch.maximum(a.self, a.other)},
    "Minimum": lambda a: {"out": torch.minimum(a.self, a.other)},
    "Atan2": lambda a: {"out": torch.atan2(a.self, a.other)},
    "FloorDivide": lambda a: {"out": torch.floor_divide(a.self, a.other)},
    "RemainderTensorTensor": lambda a: {"out": torch.remainder(a.self, a.other)},
    "PowTensorScalar": lambda a: {"out": torch.pow(a.self, a.exponent)},
    "PowTensorTensor": lambda a: {"out": torch.pow(a.self, a.exponent)},
    "Lerp": lambda a: {"out": torch.lerp(a.self, a.end, a.weight)},
    "Addcmul": lambda a: {"out": torch.addcmul(a.self, a.tensor1, a.tensor2, value=a.value)},
    "Addcdiv": lambda a: {"out": torch.addcdiv(a.self, a.tensor1, a.tensor2, value=a.value)},
    "Clamp": lambda a: {"out": torch.clamp(a.self, a.clipValueMin, a.clipValueMax)},
    "SWhere": lambda a: {"out": torch.where(a.condition.bool(), a.self, a.other)},
    "EqTensor": lambda a: {"out": torch.eq(a.self, a.other)},
    "GtScalar": lambda a: {"out": torch.gt(a.self, a.other)},
    "Cast": lambda a: {"out": a.self.to(a.dtype)},
    # unary math and activations
    "Abs": unary(torch.abs), "Neg": unary(torch.neg), "Exp": unary(torch.exp), "Log": unary(torch.log),
    "Sqrt": unary(torch.sqrt), "Rsqrt": unary(torch.rsqrt), "Reciprocal": unary(torch.reciprocal),
    "Sin": unary(torch.sin), "Cos": unary(torch.cos), "Tanh": unary(torch.tanh), "Erf": unary(torch.erf),
    "Floor": unary(torch.floor), "Ceil": unary(torch.ceil), "Round": unary(torch.round),
    "Sigmoid": unary(torch.sigmoid), "Relu": unary(torch.relu), "Silu": unary(torch.nn.functional.silu),
    "Gelu": unary(torch.nn.functional.gelu), "Mish": unary(torch.nn.functional.mish),
    "Hardswish": unary(torch.nn.functional.hardswish),
    "Acos": unary(torch.acos), "Acosh": unary(torch.acosh), "Asin": unary(torch.asin), "Asinh": unary(torch.asinh),
    "Atan": unary(torch.atan), "Atanh": unary(torch.atanh), "Cosh": unary(torch.cosh), "Sinh": unary(torch.sinh),
    "Tan": unary(torch.tan), "Expm1": unary(torch.expm1), "Exp2": unary(torch.exp2), "Log1p": unary(torch.log1p),
    "Log2": unary(torch.log2), "Log10": unary(torch.log10), "Erfc": unary(torch.erfc), "Trunc": unary(torch.trunc),
    "Frac": unary(torch.frac), "LogicalNot": unary(torch.logical_not), "BitwiseNot": unary(torch.bitwise_not),
    "Hardsigmoid": unary(torch.nn.functional.hardsigmoid), "Selu": unary(torch.selu),
    "LogSigmoid": unary(torch.nn.functional.logsigmoid),
    "Sign": lambda a: {"result": torch.sign(a.self)},
    "LeakyRelu": lambda a: {"out": torch.nn.functional.leaky_relu(a.self, a.negativeSlope)},
    "Softplus": lambda a: {"out": torch.nn.functional.softplus(a.self, a.beta, a.threshold)},
    "Elu": lambda a: {"out": torch.where(a.self > 0, a.self * a.scale,
                                         a.alpha * a.scale * torch.expm1(a.self * a.inputScale))},
    "SwiGlu": lambda a: {"out": (lambda x, y: torch.nn.functional.silu(x) * y)(*a.x.chunk(2, dim=a.dim))},
    # matmul
    "Mm": lambda a: {"out": torch.mm(a.self, a.mat2)},
    "Bmm": lambda a: {"out": torch.bmm(a.self, a.mat2)},
    "BatchMatMul": lambda a: {"out": torch.bmm(a.self, a.mat2)},
    "Matmul": lambda a: {"out": torch.matmul(a.self, a.mat2)},
    "Addmm": lambda a: {"out": torch.addmm(a.self, a.mat1, a.mat2, beta=a.beta, alpha=a.alpha)},
    # softmax, norms
    "Softmax": lambda a: {"out": torch.softmax(a.self, a.dim)},
    "LogSoftmax": lambda a: {"out": torch.log_softmax(a.self, a.dim)},
    "LayerNorm": lambda a: {"out": torch.nn.functional.layer_norm(a.input, a.normalizedShape, a.weightOptional,
                                                                  a.biasOptional, a.eps)},
    "RmsNorm": lambda a: (lambda r: {"yOut": a.x * r * a.gamma, "rstdOut": r})(
        torch.rsqrt(a.x.pow(2).mean(dim=list(range(a.x.dim() - a.gamma.dim(), a.x.dim())), keepdim=True) + a.epsilon)),
    # reductions
    "ReduceSum": lambda a: {"out": torch.sum(a.self, dim=reduce_dims(a.dims), keepdim=a.keepDims, dtype=a.dtype)},
    "Mean": lambda a: {"out": torch.mean(a.self.to(a.dtype) if a.dtype.is_floating_point else a.self,
                                         dim=reduce_dims(a.dim), keepdim=a.keepDim)},
    "Amax": lambda a: {"out": torch.amax(a.self, dim=a.dim, keepdim=a.keepDim)},
    "Amin": lambda a: {"out": torch.amin(a.self, dim=a.dim, keepdim=a.keepDim)},
    "ArgMax": lambda a: {"out": torch.argmax(a.self, dim=a.dim, keepdim=a.keepdim)},
    "MaxDim": lambda a: dict(zip(("out", "indices"), torch.max(a.self, dim=a.dim, keepdim=a.keepdim))),
    "Cumsum": lambda a: {"out": torch.cumsum(a.self, a.dim, dtype=a.dtype)},
    "Prod": lambda a: {"out": torch.prod(a.self, dtype=a.dtype)},
    "Var": lambda a: {"out": torch.var(a.self, dim=reduce_dims(a.dim), unbiased=a.unbiased, keepdim=a.keepdim)},
    "Std": lambda a: {"out": torch.std(a.self, dim=reduce_dims(a.dim), correction=a.correction, keepdim=a.keepdim)},
    # data movement
    "Permute": lambda a: {"out": a.self.permute(a.dims)},
    "Cat": lambda a: {"out": torch.cat(a.tensors, a.dim)},
    "Stack": lambda a: {"out": torch.stack(a.tensors, a.dim)},
    "Expand": lambda a: {"out": a.self.expand(a.size)},
    "Repeat": lambda a: {"out": a.self.repeat(a.repeats)},
    "Flip": lambda a: {"out": torch.flip(a.self, a.dims)},
    "Roll": lambda a: {"out": torch.roll(a.x, a.shifts, a.dims)},
    "Tril": lambda a: {"out": torch.tril(a.self, a.diagonal)},
    "Triu": lambda a: {"out": torch.triu(a.self, a.diagonal)},
    "IndexSelect": lambda a: {"out": torch.index_select(a.self, a.dim, a.index.long())},
    "Gather": lambda a: {"out": torch.gather(a.self, a.dim, a.index.long())},
    "Embedding": lambda a: {"out": torch.nn.functional.embedding(a.indices.long(), a.weight)},
    "Sort": lambda a: dict(zip(("valuesOut", "indicesOut"),
                               torch.sort(a.self, stable=a.stable, dim=a.dim, descending=a.descending))),
    "Topk": lambda a: dict(zip(("valuesOut", "indicesOut"),
                               torch.topk(a.self, a.k, dim=a.dim, largest=a.largest, sorted=a.sorted))),
}


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    manifest = json.load(open(sys.argv[1]))
    op = manifest["op"]
    ref = REFERENCES.get(op)
    if ref is None:
        sys.stderr.write(f"pacl op --verify: no PyTorch reference for aclnn{op} yet; ops with one: "
                         + ", ".join(sorted(REFERENCES)) + "\n")
        sys.exit(2)
    a = Args(manifest)
    with torch.no_grad():
        got = ref(a)
    for name, tensors in a.outputs.items():
        if name not in got or got[name] is None:
            continue  # an output the reference does not state (e.g. LayerNorm's mean and rstd)
        value = got[name]
        for t in tensors:
            dtype = DTYPES[t["dtype"]]
            v = value.to(dtype).reshape(t["shape"]).contiguous().reshape(-1)
            data = v.view(torch.uint8) if v.numel() else v
            open(t["expected"], "wb").write(data.numpy().tobytes())
    missing = [n for n in a.outputs if n not in got]
    if missing:
        sys.stderr.write(f"pacl op --verify: the reference does not state {', '.join(missing)}; not compared\n")


if __name__ == "__main__":
    main()
