#!/usr/bin/env python3
"""Generates the runner's tables from the CANN headers it builds against (nothing generated is
checked in):

  op_signatures.inc  one {"Op", "aclnn_op.h", "<parameter list>"} line per aclnn<Op>GetWorkspaceSize
                     declared in <include>/aclnnop/aclnn_*.h that has its aclnn<Op> phase 2 next to it;
                     the runner parses the parameter lists (runner/signature.cpp).
  status_names.inc   one {code, "NAME"} line per aclnn/ACL status constant found under <include>/acl
                     and <include>/aclnn (static const int ACL_... = N; #define ACL..._X N).
  op_cases.inc       (tests) per op, its header and two lambdas calling it with test arguments: one
                     through the typed path (pacl::TryRun), one filling a by-name OpRunner.

usage: gen_tables.py --include DIR --out DIR
"""
import argparse
import glob
import os
import re

PHASE1 = re.compile(r'aclnnStatus\s+aclnn(\w+)GetWorkspaceSize\s*\(([^;{]*?)\)\s*;', re.S)
PHASE2 = r'aclnnStatus\s+aclnn{}\s*\('
STATIC = re.compile(r'static\s+const\s+int\s+(ACL_\w+)\s*=\s*(-?(?:0x)?[0-9A-Fa-f]+)[uUlL]*\s*;')
DEFINE = re.compile(r'#\s*define\s+(ACL\w*|ACLNN\w*)\s+\(?\s*(-?(?:0x)?[0-9A-Fa-f]+)[uUlL]*\s*\)?\s*$', re.M)


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def c_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def signatures(include):
    ops = {}
    for path in sorted(glob.glob(os.path.join(include, 'aclnnop', 'aclnn_*.h'))):
        text = strip_comments(open(path, encoding='utf-8', errors='replace').read())
        for m in PHASE1.finditer(text):
            name = m.group(1)
            if not re.search(PHASE2.format(name), text):
                continue
            params = ' '.join(m.group(2).split())
            ops.setdefault(name, (os.path.basename(path), params))
    return ops


def status_names(include):
    # Priority: aclnn codes, then ACL API codes, then runtime codes; the first name of a code wins.
    found = {}
    files = sorted(glob.glob(os.path.join(include, 'acl', '**', '*.h'), recursive=True) +
                   glob.glob(os.path.join(include, 'aclnn', '**', '*.h'), recursive=True))

    def rank(name):
        if name.startswith('ACLNN_'):
            return 0
        if name.startswith('ACL_ERROR_RT_') or name.startswith('ACL_RT_'):
            return 2
        if name.startswith('ACL_ERROR_GE_'):
            return 3
        return 1

    for path in files:
        text = strip_comments(open(path, encoding='utf-8', errors='replace').read())
        pairs = [(m.group(1), m.group(2)) for m in STATIC.finditer(text)]
        pairs += [(m.group(1), m.group(2)) for m in DEFINE.finditer(text)]
        for name, value in pairs:
            if not (name.startswith('ACL_ERROR') or name.startswith('ACLNN_') or name in ('ACL_SUCCESS', 'ACL_RT_SUCCESS')):
                continue
            try:
                code = int(value, 0)
            except ValueError:
                continue
            if not -2**31 <= code < 2**31:
                continue
            key = (rank(name), name)
            if code not in found or key < found[code]:
                found[code] = key
    found[0] = (-1, 'ACL_SUCCESS')
    return {code: name for code, (_, name) in found.items()}


INTS = {'int8_t', 'uint8_t', 'int16_t', 'uint16_t', 'int32_t', 'uint32_t', 'int64_t', 'uint64_t', 'int',
        'unsigned', 'unsigned int', 'long', 'long long', 'size_t', 'short'}


def case(name, params):
    """C++ for one op of op_cases.inc, or None when a parameter has a type the runner cannot pass."""
    parts = [p.strip() for p in params.split(',')]
    if len(parts) < 2:
        return None
    typed, builder = [], []
    for k, part in enumerate(parts[:-2]):
        words = re.findall(r'[A-Za-z_]\w*|\*', part)
        stars = words.count('*')
        const = 'const' in words[:max(1, len(words))] and words.index('const') < (words.index('*') if '*' in words else len(words))
        idents = [w for w in words if w not in ('*', 'const', 'struct', 'enum')]
        base = ' '.join(idents[:-1]) if len(idents) >= 2 else ' '.join(idents)
        if stars == 1 and base == 'aclTensor':
            typed.append('a.tensor(%d, %s)' % (k, 'false' if const else 'true'))
            builder.append('r.%s(a.tensor(%d, %s));' % ('AddInput' if const else 'AddOutput', k, 'false' if const else 'true'))
        elif stars == 1 and base == 'aclTensorList':
            typed.append('a.tensor_list(%d)' % k)
            builder.append('r.AddTensorList(a.tensor_list(%d).values());' % k)
        elif stars == 1 and base == 'aclScalar':
            typed.append('a.scalar(%d)' % k)
            builder.append('r.AddScalar(a.scalar(%d));' % k)
        elif stars == 1 and base == 'aclScalarList':
            typed.append('a.scalar_list(%d)' % k)
            builder.append('r.AddScalarList(a.scalar_list(%d).values());' % k)
        elif stars == 1 and base == 'aclIntArray':
            typed.append('a.int_array(%d)' % k)
            builder.append('r.AddIntArray(a.int_array(%d).values());' % k)
        elif stars == 1 and base == 'aclFloatArray':
            typed.append('a.float_array(%d)' % k)
            builder.append('r.AddFloatArray(a.float_array(%d).values());' % k)
        elif stars == 1 and base == 'aclBoolArray':
            typed.append('a.bool_array(%d)' % k)
            builder.append('r.AddBoolArray(a.bool_vector(%d));' % k)
        elif stars == 1 and base == 'char':
            typed.append('a.text(%d)' % k)
            builder.append('r.AddAttr(a.text(%d));' % k)
        elif stars == 0 and base in INTS:
            typed.append('a.integer(%d)' % k)
            builder.append('r.AddAttr(a.integer(%d));' % k)
        elif stars == 0 and base in ('float', 'double'):
            typed.append('a.real(%d)' % k)
            builder.append('r.AddAttr(a.real(%d));' % k)
        elif stars == 0 and base == 'bool':
            typed.append('a.boolean(%d)' % k)
            builder.append('r.AddAttr(a.boolean(%d));' % k)
        elif stars == 0 and base == 'aclDataType':
            typed.append('a.dtype(%d)' % k)
            builder.append('r.AddAttr(a.dtype(%d));' % k)
        else:
            return None
    args = ''.join(', ' + t for t in typed)
    return ('{"%s",\n [](OpCaseArgs& a) { return pacl::TryRun(a.options(), aclnn%sGetWorkspaceSize, aclnn%s%s); },\n'
            ' [](OpCaseArgs& a, pacl::OpRunner& r) { (void)a; (void)r; %s }},' % (name, name, name, args, ' '.join(builder)))


def write_if_changed(path, text):
    if os.path.exists(path) and open(path, encoding='utf-8').read() == text:
        return
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--include', required=True)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    ops = signatures(a.include)
    lines = ['// Generated by runner/gen_tables.py from %s/aclnnop: do not edit.' % a.include]
    lines += ['{%s, %s, %s},' % (c_string(n), c_string(h), c_string(p)) for n, (h, p) in sorted(ops.items())]
    write_if_changed(os.path.join(a.out, 'op_signatures.inc'), '\n'.join(lines) + '\n')
    codes = status_names(a.include)
    lines = ['// Generated by runner/gen_tables.py from the status constants under %s: do not edit.' % a.include]
    lines += ['{%d, %s},' % (c, c_string(n)) for c, n in sorted(codes.items())]
    write_if_changed(os.path.join(a.out, 'status_names.inc'), '\n'.join(lines) + '\n')
    headers = sorted({h for h, _ in ops.values()})
    lines = ['// Generated by runner/gen_tables.py (test cases of every op): do not edit.',
             '#ifdef PACL_OP_CASE_HEADERS']
    lines += ['#include "aclnnop/%s"' % h for h in headers]
    lines += ['#else']
    for n, (h, p) in sorted(ops.items()):
        c = case(n, p)
        if c:
            lines.append(c)
    lines += ['#endif']
    write_if_changed(os.path.join(a.out, 'op_cases.inc'), '\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
