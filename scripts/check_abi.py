#!/usr/bin/env python3
"""Cross-checks the C ABI three ways: the hand-written include/tca.h, the declarations the Swift
compiler emits for the bridge's @c functions (CBridge-Swift.h), and the symbols libtca.so exports.

    scripts/check_abi.py [-v] include/tca.h path/to/CBridge-Swift.h build/lib/libtca.so

Every function must be in all three, with the same number of parameters, and each parameter and
result of the same ABI class (integer width and signedness, pointer, or function pointer of the
same shape). Every tca.h function that takes a NUL-terminated string (a `const char *` not followed
by a `size_t` length) must have a sibling taking every string with a length: NAME_n, or for a
NAME_n that still has one, NAME_v2 (sqlite's way). Prints each mismatch (with -v, every function) and a summary; exits 1 on a mismatch.
"""

import re
import subprocess
import sys

INTEGERS = {
    "int8_t": "i8", "uint8_t": "u8", "int16_t": "i16", "uint16_t": "u16",
    "int32_t": "i32", "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64",
    "int": "i32", "unsigned": "u32", "unsigned int": "u32",
    "long": "i64", "unsigned long": "u64", "ptrdiff_t": "i64", "size_t": "u64",
    "bool": "u8", "_Bool": "u8", "void": "void",
    "tca_status": "i32",
}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    # Preprocessor lines (with their continuations) and extern "C" braces are not declarations.
    text = re.sub(r"(?m)^\s*#(?:[^\n]*\\\n)*[^\n]*$", " ", text)
    return re.sub(r'extern\s+"C"\s*\{', " ", text)


def split_params(params):
    """Splits a parameter list on top-level commas."""
    parts, depth, current = [], 0, ""
    for ch in params:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts if p.strip() and p.strip() != "void"]


def classify(decl, typedefs):
    """The ABI class of one parameter or result declaration (a name may follow the type)."""
    decl = re.sub(r"\b(_Nullable|_Nonnull|const|struct|SWIFT_NOESCAPE)\b", " ", decl)
    decl = " ".join(decl.split())
    fn = re.match(r"^(.*?)\(\s*\*\s*\w*\s*\)\s*\((.*)\)$", decl)
    if fn:
        result = classify(fn.group(1), typedefs)
        args = [classify(p, typedefs) for p in split_params(fn.group(2))]
        return "fn(%s;%s)" % (result, ",".join(args))
    if "*" in decl:
        return "ptr"
    words = decl.split()
    # Drop a trailing parameter name.
    for n in (2, 1):
        base = " ".join(words[:n])
        if base in INTEGERS:
            return INTEGERS[base]
        if base in typedefs:
            return typedefs[base]
    if words and words[0] in typedefs:
        return typedefs[words[0]]
    raise ValueError("unknown type in %r" % decl)


def functions(text, typedefs, prefix=""):
    found = {}
    pattern = re.compile(prefix + r"([\w\s\*]+?)\b(tca_\w+)\s*\(((?:[^()]|\([^()]*\)|\((?:[^()]|\([^()]*\))*\))*)\)\s*(?:SWIFT_\w+\s*)*;")
    for match in pattern.finditer(text):
        result, name, params = match.group(1), match.group(2), match.group(3)
        if result.strip().startswith("typedef"):
            continue
        found[name] = (classify(result + " x", typedefs), [classify(p, typedefs) for p in split_params(params)])
    return found


def string_params(text):
    """For each tca.h function, whether some `const char *` parameter has no `size_t` after it."""
    unsized = {}
    pattern = re.compile(r"\b(tca_\w+)\s*\(([^()]*)\)\s*;")
    for match in pattern.finditer(text):
        params = split_params(match.group(2))
        unsized[match.group(1)] = any(
            re.match(r"const\s+char\s*\*", p)
            and not (i + 1 < len(params) and re.match(r"size_t\b", params[i + 1]))
            for i, p in enumerate(params))
    return unsized


def missing_length_forms(text):
    """The functions taking a NUL-terminated string with no sibling that takes it with a length."""
    unsized = string_params(text)
    missing = []
    for name, has_unsized in sorted(unsized.items()):
        if not has_unsized:
            continue
        base = name[:-2] if name.endswith("_n") else name
        siblings = [base + "_n", base + "_v2"]
        if not any(unsized.get(sibling) is False for sibling in siblings if sibling != name):
            missing.append(name)
    return missing


def header_typedefs(text):
    typedefs = {"tca_store": "opaque"}
    for match in re.finditer(r"typedef\s+(?:u?int\d+_t)\s+(\w+)\s*;", text):
        typedefs[match.group(1)] = "i32"
    for match in re.finditer(r"typedef\s+([^;{}]*?\(\s*\*\s*(\w+)\s*\)\s*\([^;]*\))\s*;", text, re.S):
        typedefs[match.group(2)] = None  # filled below, may refer to earlier typedefs
        typedefs[match.group(2)] = classify(match.group(1), typedefs)
    return typedefs


def main():
    args = sys.argv[1:]
    verbose = args[:1] == ["-v"]
    header_path, swift_header_path, library = args[1:4] if verbose else args[0:3]
    header = strip_comments(open(header_path).read())
    swift = strip_comments(open(swift_header_path).read())
    typedefs = header_typedefs(header)
    declared = functions(header, typedefs)
    emitted = functions(swift, {}, prefix=r"SWIFT_EXTERN\s+")
    symbols = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True,
                             text=True, check=True).stdout.split()
    exported = {s for s in symbols if s.startswith("tca_")}

    problems = []
    for name in sorted(set(declared) | set(emitted) | exported):
        where = [label for label, names in (("tca.h", declared), ("Swift", emitted), ("libtca.so", exported)) if name not in names]
        if where:
            problems.append("%s: missing from %s" % (name, ", ".join(where)))
            continue
        if declared[name] != emitted[name]:
            problems.append("%s: tca.h has %s, the Swift side %s" % (name, declared[name], emitted[name]))
            continue
        result, params = declared[name]
        if verbose:
            print("ok  %-32s %s(%s)" % (name, result, ", ".join(params)))
    for name in missing_length_forms(header):
        problems.append("%s: takes a NUL-terminated string, and no %s_n/_v2 takes it with a length"
                        % (name, name[:-2] if name.endswith("_n") else name))
    for problem in problems:
        print("ABI MISMATCH  " + problem)
    print("%d functions checked, %d mismatches" % (len(declared), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
