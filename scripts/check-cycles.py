#!/usr/bin/env python3
"""Finds import cycles between the modules of each crate (docs/design.md: imports point down).

For every source file it reads the paths that name another module of the same crate
(`use crate::..`, `use super::..`, `crate::a::f()` in code), follows `use` and `pub use`
re-exports to the module that defines the name, and adds an edge between the two modules that hold
the two ends directly under their nearest common ancestor (a parent and its own child are
one module here). A strongly connected component of more than one sibling is a cycle:
the script prints it with the places that tie it and exits with status 1.

    python3 scripts/check-cycles.py            # every crate of the workspace and python/
    python3 scripts/check-cycles.py -v         # also each edge at every level
    python3 scripts/check-cycles.py --tests    # the unit tests' imports too
    python3 scripts/check-cycles.py DIR        # another checkout

The code under `#[cfg(test)]` (a unit test module, a test-only `use`) is left out unless
`--tests` is given: a test may build its fixtures with a module above the one it tests.

Comments and strings are skipped, so doc links do not count. Only the standard library.
"""

import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRATES = [
    "crates/core/src/lib.rs",
    "crates/solver/src/lib.rs",
    "crates/analysis/src/lib.rs",
    "crates/io/src/lib.rs",
    "crates/serve/src/lib.rs",
    "bin/kalah/main.rs",
    "python/src/lib.rs",
]

# Cycles known and kept, each with its reason: (root file, sorted modules) -> why.
# Cycles kept on purpose, by crate and modules, with the reason (none today).
ALLOWED = {}

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """The text with comments, strings and char literals blanked (lines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else " ")
                    i += 1
        elif re.match(r'b?r#*"', text[i:i + 20]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            if m:
                end = '"' + m.group(1)
                j = text.find(end, i + m.end())
                j = n if j < 0 else j + len(end)
                out.append(re.sub(r"[^\n]", " ", text[i:j]))
                i = j
            else:
                out.append(c)
                i += 1
        elif c == '"' or (c == "b" and text.startswith('b"', i)):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1]))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:
                out.append(" " * m.end())
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Module:
    def __init__(self, path, file):
        self.path = path  # tuple of names from the crate root
        self.file = file
        self.defs = set()  # names defined here (items and child modules)
        self.imports = {}  # name -> absolute path (tuple) of a `use` (pub or not)
        self.globs = []  # absolute paths of `use x::*`


def expand_use(tree):
    """`a::{b, c::{d as e}}` -> [(['a','b'], 'b'), (['a','c','d'], 'e')]; `self` handled."""
    tree = re.sub(r"\s+", "", tree)
    results = []

    def walk(prefix, s):
        # split s at top-level commas
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        for p in parts:
            if not p:
                continue
            if "{" in p:
                head, rest = p.split("{", 1)
                rest = rest[: rest.rfind("}")]
                head = [x for x in head.split("::") if x]
                walk(prefix + head, rest)
            else:
                alias = None
                if "as" in p and re.search(r"[A-Za-z0-9_*]as[A-Za-z_]", p):
                    m = re.match(r"(.*[A-Za-z0-9_*])as(" + IDENT + ")$", p)
                    if m:
                        p, alias = m.group(1), m.group(2)
                segs = [x for x in p.split("::") if x]
                if segs == ["self"]:
                    full = prefix
                else:
                    full = prefix + segs
                if not full:
                    continue
                results.append((full, alias or full[-1]))

    walk([], tree)
    return results


class Crate:
    def __init__(self, root_file):
        self.root_file = root_file
        self.base = os.path.dirname(root_file)
        self.modules = {}
        self.refs = []  # (from module path, raw absolute path, file, line, in test code)
        self.test_modules = set()
        self.load((), root_file, False)

    def child_file(self, parent_file, name):
        d = os.path.dirname(parent_file)
        stem = os.path.basename(parent_file)
        if stem in ("lib.rs", "main.rs", "mod.rs"):
            folder = d
        else:
            folder = os.path.join(d, stem[:-3])
        for cand in (os.path.join(folder, name + ".rs"), os.path.join(folder, name, "mod.rs")):
            if os.path.exists(cand):
                return cand
        return None

    def resolve_rel(self, scope, segs):
        """Makes a path absolute from the module `scope`; None for outside the crate."""
        segs = list(segs)
        if not segs:
            return None
        if segs[0] == "crate":
            return tuple(segs[1:])
        if segs[0] in ("self", "super"):
            cur = list(scope)
            while segs and segs[0] in ("self", "super"):
                if segs.pop(0) == "super":
                    if not cur:
                        return None
                    cur.pop()
            return tuple(cur + segs)
        # a path starting with a name: a child module or a name imported into scope
        return ("?rel",) + tuple(scope) + ("?",) + tuple(segs)

    def load(self, path, file, test):
        text = strip(open(file, encoding="utf-8").read())
        self.parse(path, file, text, test)

    def parse(self, path, file, text, test):
        self.modules.setdefault(path, Module(path, file))
        # scopes: inline modules tracked by brace depth, each (path, depth, in test code)
        scopes = [(path, -1, test)]
        pending_test = False
        depth = 0
        line = 1
        token = re.compile(
            r"(?P<cfgtest>#\[cfg\(test\)\])|(?P<nl>\n)|(?P<open>\{)|(?P<close>\})"
            r"|(?P<mod>\b(?:pub(?:\([^)]*\))?\s+)?mod\s+(?P<modname>" + IDENT + r")\s*(?P<modend>[;{]))"
            r"|(?P<use>\buse\s+(?P<tree>[^;]*);)"
            r"|(?P<def>\b(?:fn|struct|enum|trait|type|const|static|union|macro_rules!)\s+(?P<defname>" + IDENT + r"))"
            r"|(?P<path>\b(?:crate|super|self)(?:\s*::\s*(?:" + IDENT + r"))+)"
        )
        for m in token.finditer(text):
            scope, _, in_test = scopes[-1]
            if m.group("cfgtest"):
                pending_test = True
                continue
            if m.group("nl"):
                line += 1
                continue
            if m.group("open"):
                pending_test = False
                depth += 1
                continue
            if m.group("close"):
                depth -= 1
                if scopes[-1][1] == depth:
                    scopes.pop()
                continue
            start_line = line
            line += m.group(0).count("\n")
            this_test = in_test or pending_test
            if not m.group("path"):
                pending_test = False
            if m.group("mod"):
                name = m.group("modname")
                self.modules[scope].defs.add(name)
                child = scope + (name,)
                if m.group("modend") == ";":
                    # a file module (declared in a file's own scope; this project
                    # declares none inside an inline module)
                    f = self.child_file(file, name) if scope == path else None
                    if f:
                        self.load(child, f, this_test)
                else:
                    self.modules.setdefault(child, Module(child, file))
                    scopes.append((child, depth, this_test))
                    depth += 1
                continue
            if m.group("use"):
                # Every `use` is an item of its module: `pub use` re-exports the name, and
                # even a private one is what `super::name` reaches from a child module.
                for segs, alias in expand_use(m.group("tree")):
                    if segs[0] == "::":
                        continue
                    absolute = self.resolve_rel(scope, segs)
                    if absolute is None:
                        continue
                    if alias == "*":
                        self.modules[scope].globs.append(absolute[:-1])
                    else:
                        self.modules[scope].imports[alias] = absolute
                    if segs[-1] == "*":
                        absolute = absolute[:-1]
                    self.refs.append((scope, absolute, file, start_line, this_test))
                continue
            if m.group("def"):
                self.modules[scope].defs.add(m.group("defname"))
                continue
            if m.group("path"):
                segs = [s.strip() for s in m.group("path").split("::")]
                absolute = self.resolve_rel(scope, segs)
                if absolute is not None:
                    self.refs.append((scope, absolute, file, start_line, this_test))

    def target(self, absolute, seen=None):
        """The module that defines what `absolute` names, following re-exports."""
        seen = seen or set()
        if absolute in seen:
            return None
        seen.add(absolute)
        if absolute and absolute[0] == "?rel":
            idx = absolute.index("?")
            scope, rest = absolute[1:idx], absolute[idx + 1:]
            if scope + rest[:1] in self.modules:
                return self.target(scope + rest, seen)
            return None  # an imported name or extern crate: its `use` counts already
        # longest module prefix
        k = len(absolute)
        while k > 0 and absolute[:k] not in self.modules:
            k -= 1
        mod = absolute[:k]
        rest = absolute[k:]
        if not rest:
            return mod
        name = rest[0]
        m = self.modules[mod]
        if name in m.imports and name not in m.defs:
            return self.target(m.imports[name] + rest[1:], seen)
        if name not in m.defs:
            for g in m.globs:
                t = self.target(g + rest, seen)
                if t is not None and t != g:
                    return t
        return mod


def check(root_file, verbose, tests):
    crate = Crate(os.path.join(ROOT, root_file))
    edges = defaultdict(lambda: defaultdict(list))  # parent -> (a, b) -> places
    for scope, absolute, file, line, in_test in crate.refs:
        if in_test and not tests:
            continue
        t = crate.target(absolute)
        if t is None:
            continue
        a, b = scope, t
        k = 0
        while k < len(a) and k < len(b) and a[k] == b[k]:
            k += 1
        if k == len(a) or k == len(b):
            continue  # a module and its own ancestor or descendant
        parent = a[:k]
        place = "%s:%d" % (os.path.relpath(file, ROOT), line)
        edges[parent][(a[k], b[k])].append((place, "::".join(absolute)))
    cycles = 0
    for parent, pairs in sorted(edges.items()):
        graph = defaultdict(set)
        for a, b in pairs:
            graph[a].add(b)
        if verbose:
            for (a, b), places in sorted(pairs.items()):
                print("%s: %s -> %s (%s)" % (root_file, "::".join(parent + (a,)), b, places[0][0]))
        for comp in sccs(graph):
            if len(comp) < 2:
                continue
            where = "::".join(parent) or "(crate root)"
            why = ALLOWED.get((root_file, tuple(sorted(comp))))
            if why and not tests:
                if verbose:
                    print("kept in %s: %s (%s)" % (root_file, " <-> ".join(sorted(comp)), why))
                continue
            cycles += 1
            print("cycle in %s under %s: %s" % (root_file, where, " <-> ".join(sorted(comp))))
            for (a, b), places in sorted(pairs.items()):
                if a in comp and b in comp:
                    for place, name in places:
                        print("    %s -> %s  %s  %s" % (a, b, place, name))
    return cycles


def sccs(graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    nodes = set(graph) | {b for bs in graph.values() for b in bs}

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    global ROOT
    dirs = [a for a in sys.argv[1:] if not a.startswith("-")]
    if dirs:
        ROOT = os.path.abspath(dirs[0])
    verbose = "-v" in sys.argv[1:]
    tests = "--tests" in sys.argv[1:]
    total = 0
    for root_file in CRATES:
        if os.path.exists(os.path.join(ROOT, root_file)):
            total += check(root_file, verbose, tests)
    if total:
        print("%d import cycle(s)" % total)
        return 1
    print("no import cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
