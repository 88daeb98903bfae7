#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Checks the house rules (docs/architecture.md, "Folders") on a source tree.

  house_check.py [--root DIR] [--obj DIR] RULE

  folders    every folder of the table exists; every folder holding C
             sources has a row; every row's "May include" cell is readable
  includes   a folder includes its own headers, system headers and the
             folders its row names
  calls      the same rows on the built objects: an undefined symbol of an
             object in OBJ/FOLDER is defined by the folder itself, a folder
             its row names, or a shared library the programs link (ldd of
             ebpf-collect, refrt, usdt-gen, nettrace-dump; plus libc's static
             part, libc_nonshared.a)
  private    a private header (name ends in _internal.h, or its opening
             comment says "private to FOLDER/") is included only from its
             own folder, and from tests/
  refs       a file named in a comment or a document exists (bare names are
             looked up beside the file and on the -I path; a row of the
             folder table names files of its folder)
  unused     a function an object exports is referenced by another object
             (product, test, bench), or named by a test or bench source
  comments   comments give reasons, not issue numbers, also across lines
  copies     no copied helper, no interface written twice: the monotonic
             clock, realloc-doubling growth and elf_begin() only in common/;
             the `targets` BPF map and a struct's layout defined in one file;
             no function body of MIN_BODY lines or more in two files (local
             names renamed do not hide a copy)
  shell      a bats file or a shell helper of tests/ or scripts/ defines
             each function once, and no bats file defines again a function
             of a helper it loads (bash keeps the last one silently)
  sizes      the longest files and functions, for reading: size is a smell,
             not a rule, so this never fails

Rows come from docs/architecture.md's folder table (class Rows), so the
document and this check cannot disagree.  A rule prints one line per
violation and exits 1 if there is any.  Violations that work in progress on
other branches removes are accepted when listed below (ALLOW_*, each with
the reason and the work that removes it); an allowance that matches nothing
any more is reported too, so the lists shrink to empty as that work lands.
--root checks another tree, without the allowances (tests/house.bats runs
every rule on a small fixture tree, tests/house_fixture/).  OBJ defaults to
ROOT/.output/obj: build first (make all; make unit builds the unit tests'
objects, which count as callers).
"""
import bisect
import glob
import os
import re
import subprocess
import sys

HERE = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
ROOT = HERE
OBJ = None
DOC = 'docs/architecture.md'
GEN = 'gen'			# the generated code's "folder" (.output/gen)
FIXTURES = 'tests/house_fixture/'	# a tree of its own (--root), not part of this one

# Files the build generates (.output/gen, .output/obj/usdt): not in the tree.
GENERATED = re.compile(r'(^|/)(clretw_\w+\.[ch]|[\w-]+\.skel\.h|syscall_names\.h|'
                       r'batch_runtime\.inc|provider_abi\.inc|vmlinux\.h)$')
# A generated file made from a file of the tree belongs to that file's folder.
GENERATED_FROM = {'batch_runtime.inc': 'usdt/batch_runtime.c.in',
                  'profile.pb-c.h': 'views/profile.proto',
                  'provider_abi.inc': 'usdt/provider_abi.h'}
# Files named in comments that live outside the tree on purpose.
OUTSIDE = {
    'ClrEtwAll.man',	# CoreCLR's manifest, read from $SHARED/manifests
}

# --- allowances -------------------------------------------------------------
# An exception to a rule is an entry here with its reason; the check fails
# on an entry that matches nothing any more, so none outlives its cause.

# (including file, included file) -> reason
ALLOW_INCLUDES = {
    ('symbolizer/unwind.c', 'bpf/x86_call.h'):
        'the stack scan\'s call test, one definition the BPF walker compiles too '
        '(bpf/ may include nothing of the folders; the test needs nothing but bytes)',
}
# calling source -> symbols it may use against its row
ALLOW_CALLS = {
}

# (including file, private header) -> reason
ALLOW_PRIVATE = {
}

# (source, function): exported functions nothing else calls -> reason
ALLOW_UNUSED = {
}

# loops between a folder's files (the set of files of each loop) -> reason
ALLOW_CYCLES = {
}

# kind -> {file: occurrences}: copies of common/'s clock, growth and ELF
# helpers (common/clock, common/grow, common/elf_file) outside it.
ALLOW_COPIES = {
}
# Not copies: the provider's runtime is compiled into the traced program,
# which links nothing of common/.
NOT_COPIES = {('clock', 'usdt/batch_runtime.c.in')}

# things written twice ("file:name" of each, sorted) -> reason
ALLOW_TWICE = {
}

# --- the tree ---------------------------------------------------------------


def path(rel):
    return os.path.join(ROOT, rel)


def read(rel):
    try:
        with open(path(rel), encoding='utf-8', errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def walk(top, exts):
    """Files under top (relative to ROOT) whose names end in one of exts."""
    out = []
    for d, dirs, files in os.walk(path(top)):
        dirs[:] = sorted(x for x in dirs if x != 'vmlinux' and not x.startswith('.'))
        out += [os.path.relpath(os.path.join(d, f), ROOT) for f in sorted(files)
                if f.endswith(exts)]
    return out


def split_cells(line):
    """A markdown table row's cells; a | inside backticks is text."""
    cells, cur, tick = [], '', False
    for ch in line.strip().strip('|'):
        if ch == '`':
            tick = not tick
        if ch == '|' and not tick:
            cells.append(cur.strip())
            cur = ''
        else:
            cur += ch
    return cells + [cur.strip()]


def drop_parens(text):
    out, depth = '', 0
    for ch in text:
        depth += {'(': 1, ')': -1}.get(ch, 0)
        depth = max(depth, 0)
        if depth == 0 and ch != ')':
            out += ch
    return out


ROW = re.compile(r'\|\s*`([\w/.-]+)/`\s*\|')


class Rows:
    """The folder table of docs/architecture.md.

    A row is | `FOLDER/` | what it owns | what it may include |.  The last
    cell lists items separated by commas or "and" (remarks in parentheses are
    skipped): `FOLDER/`; "generated code" or "generated provider" (.output/gen);
    "the libraries", defined once in the document ("**the libraries** are
    ...;"); "everything below" (the rows under this folder); "nothing";
    "everything" (tests/, not checked) or "—" (no C sources, not checked).
    Anything else is an error, so the document stays readable by this check.
    """

    def __init__(self):
        self.errors, self.table, self.checked, self.libraries = [], {}, [], None
        text = read(DOC)
        if not text:
            self.errors.append('%s: missing' % DOC)
            return
        libs = re.search(r'\*\*the libraries\*\* are ([^;.]*)', text)
        self.libraries = self.items(libs.group(1), 0, set()) if libs else None
        raw = []
        for n, line in enumerate(text.split('\n'), 1):
            m = ROW.match(line)
            if m:
                cells = split_cells(line)
                if len(cells) != 3:
                    self.errors.append('%s:%d: a folder row has 3 cells' % (DOC, n))
                    continue
                raw.append((m.group(1), cells[2], n))
        for folder, cell, n in raw:
            below = {f for f, _, _ in raw if f.startswith(folder + '/')}
            self.table[folder] = self.items(cell, n, below)
        self.checked = sorted((f for f, a in self.table.items() if a is not None),
                              key=lambda f: (-f.count('/'), f))

    def items(self, cell, n, below):
        if cell.strip() in ('—', '-', 'everything'):
            return None
        out = set()
        for item in re.split(r',|\band\b', drop_parens(cell)):
            item = item.strip()
            m = re.fullmatch(r'`([\w/.-]+?)/?`', item)
            if not item or item == 'nothing':
                continue
            if m:
                out.add(m.group(1))
            elif item in ('generated code', 'generated provider'):
                out.add(GEN)
            elif item == 'the libraries' and self.libraries is not None:
                out |= self.libraries
            elif item == 'everything below':
                out |= below
            else:
                self.errors.append('%s:%d: cannot read "%s" in the May include column'
                                   % (DOC, n, item))
        return out

    def folder_of(self, rel):
        """The checked row a file belongs to: the deepest folder holding it."""
        for f in self.checked:
            if rel.startswith(f + '/'):
                return f
        return None

    def allowed(self, folder):
        return (self.table.get(folder) or set()) | {folder}


def include_dirs():
    """The Makefile's -I folders (the flat include path), in order."""
    return [d for d in re.findall(r'-I(\S+)', read('Makefile')) if not d.startswith('$')]


def resolve_include(rel, name, search):
    if name in GENERATED_FROM:
        return GENERATED_FROM[name]
    if GENERATED.search(name):
        if name == 'vmlinux.h':
            for d, _, fs in os.walk(path('bpf/vmlinux')):
                if name in fs:
                    return os.path.relpath(os.path.join(d, name), ROOT)
        return GEN + '/' + name
    for d in [os.path.dirname(rel)] + search:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(path(p)):
            return p
    return None


def quoted_includes(rel):
    for n, line in enumerate(read(rel).split('\n'), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m:
            yield n, m.group(1)


def product_sources(rows, exts=('.c', '.h', '.c.in')):
    return [rel for f in sorted(rows.checked) for rel in walk(f, exts)
            if rows.folder_of(rel) == f]


def stale(entries, name):
    return ['house_check.py: %s lists %s, which no longer happens: remove it' % (name, e)
            for e in sorted(entries)]


# --- folders ------------------------------------------------------------------


def check_folders(rows):
    bad = list(rows.errors)
    for f in sorted(rows.table):
        if not os.path.isdir(path(f)):
            bad.append('%s: lists %s/, which does not exist' % (DOC, f))
    for d, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        dirs[:] = sorted(x for x in dirs if not x.startswith('.') and x != 'vmlinux')
        top = rel.split('/')[0]
        if rel == '.' or (top in rows.table and rows.table[top] is None):
            continue	# tests/, scripts/: one row for all they hold
        if any(f.endswith(('.c', '.h')) for f in files) and rel not in rows.table:
            bad.append('%s/: holds C sources but has no row in %s' % (rel, DOC))
    return bad


# --- includes -----------------------------------------------------------------


def check_includes(rows):
    bad = list(rows.errors)
    search = include_dirs()
    used = set()
    for rel in product_sources(rows):
        own = rows.folder_of(rel)
        allowed = rows.allowed(own)
        for n, name in quoted_includes(rel):
            target = resolve_include(rel, name, search)
            if target is None:
                bad.append('%s:%d: includes "%s", which is no file of the tree'
                           % (rel, n, name))
                continue
            tf = GEN if target.startswith(GEN + '/') else (
                rows.folder_of(target) or os.path.dirname(target))
            if tf in allowed or any(tf.startswith(a + '/') for a in allowed - {own}):
                continue
            if (rel, target) in ALLOW_INCLUDES:
                used.add((rel, target))
                continue
            bad.append('%s:%d: includes %s (%s/ may include only %s)'
                       % (rel, n, target, own, ', '.join(sorted(allowed))))
    return bad + stale(set(ALLOW_INCLUDES) - used, 'ALLOW_INCLUDES')


# --- calls (nm of the built objects) ------------------------------------------


def objects():
    """The objects of sources that exist: a file moved or removed leaves its
    old object in OBJ until a clean build, and that one is no longer the
    tree's (generated sources live under OBJ/gen and are always kept)."""
    out = []
    for d, _, fs in os.walk(OBJ):
        rel = os.path.relpath(d, OBJ)
        for f in fs:
            if not f.endswith('.o'):
                continue
            src = os.path.join(ROOT, rel, f[:-2])
            if (rel == 'gen' or rel.startswith('gen/')
                    or any(os.path.exists(src + e) for e in ('.c', '.bpf.c', '.S'))):
                out.append(os.path.join(d, f))
    return sorted(out)


def nm_all(objs):
    """{object: ({defined global: type}, {undefined})}, from one nm run."""
    res = {o: ({}, set()) for o in objs}
    if not objs:
        return res
    out = subprocess.run(['nm', '-A'] + objs, capture_output=True, text=True).stdout
    for line in out.splitlines():
        obj, _, rest = line.rpartition('.o:')
        parts = rest.split()
        obj += '.o'
        if obj not in res or len(parts) < 2:
            continue
        typ, sym = parts[-2], parts[-1]
        if typ == 'U':
            res[obj][1].add(sym)
        elif typ.isupper():
            res[obj][0][sym] = typ
    return res


def source_of(obj):
    """OBJ/FOLDER/name.o -> FOLDER/name.c (gen/name.c when generated)."""
    return os.path.relpath(obj, OBJ)[:-2] + '.c'


def dynamic_symbols(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', lib],
                         capture_output=True, text=True).stdout
    return {l.split()[-1].split('@')[0] for l in out.splitlines() if l.strip()}


def system_symbols():
    """What the shared libraries of the built programs define, and libc's
    static part; [] of programs when none is built."""
    progs = [os.path.join(OBJ, '..', p) for p in ('ebpf-collect', 'refrt', 'usdt-gen',
                                                   'nettrace-dump')]
    progs = [p for p in progs if os.path.exists(p)]
    libs = set()
    for p in progs:
        out = subprocess.run(['ldd', p], capture_output=True, text=True).stdout
        libs |= set(re.findall(r'(/\S+\.so[.\d]*)', out))
    syms = set()
    for so in sorted(libs):
        syms |= dynamic_symbols(so)
    cc = os.environ.get('CC', 'cc')
    nonshared = subprocess.run([cc, '-print-file-name=libc_nonshared.a'],
                               capture_output=True, text=True).stdout.strip()
    if os.path.isfile(nonshared):
        out = subprocess.run(['nm', '--defined-only', nonshared],
                             capture_output=True, text=True).stdout
        syms |= {p[2] for p in (l.split() for l in out.splitlines())
                 if len(p) == 3 and p[1].isupper()}
    return progs, syms


def check_calls(rows):
    bad = list(rows.errors)
    objs = [o for o in objects() if rows.folder_of(source_of(o))
            or source_of(o).startswith(GEN + '/')]
    if not any(rows.folder_of(source_of(o)) for o in objs):
        return bad + ['%s: no product objects (build first)' % OBJ]
    progs, system = system_symbols()
    if not progs:
        return bad + ['%s: no linked program to ldd (build first)' % os.path.dirname(OBJ)]
    syms = nm_all(objs)
    home = {}			# symbol -> folders defining it
    for o, (defs, _) in syms.items():
        src = source_of(o)
        f = GEN if src.startswith(GEN + '/') else rows.folder_of(src)
        for s in defs:
            home.setdefault(s, set()).add(f)
    used = set()
    for o in objs:
        src = source_of(o)
        own = rows.folder_of(src)
        if own is None:
            continue
        allowed = rows.allowed(own)
        for s in sorted(syms[o][1]):
            h = home.get(s, set())
            if h & allowed or (not h and s in system):
                continue
            if not h and (s.startswith('__') or s == '_GLOBAL_OFFSET_TABLE_'):
                continue	# the compiler's own helpers
            if s in ALLOW_CALLS.get(src, ()):
                used.add((src, s))
                continue
            if h:
                bad.append('%s: uses %s, defined in %s/ (%s/ may use only %s)'
                           % (src, s, ', '.join(sorted(h)), own, ', '.join(sorted(allowed))))
            else:
                bad.append('%s: uses %s, defined in no object of the tree and in no '
                           'library the programs link' % (src, s))
    listed = {(f, s) for f, ss in ALLOW_CALLS.items() for s in ss}
    return bad + stale(listed - used, 'ALLOW_CALLS')


# --- loops between the files of a folder --------------------------------------


def find_cycles(graph):
    """Every loop of the graph that some edge closes, shortest first: for
    each edge u -> v inside a strongly connected component, the shortest
    path from v back to u.  [] when the graph has no loop."""
    index, low, stack, on, comps = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            comps.append(comp)

    for v in sorted(graph):
        if v not in index:
            strong(v)
    cycles = set()
    for comp in comps:
        for u in sorted(comp):
            for v in sorted(graph[u]):
                if v not in comp:
                    continue
                prev, todo = {v: None}, [v]
                while todo and u not in prev:
                    x = todo.pop(0)
                    for y in sorted(graph[x]):
                        if y in comp and y not in prev:
                            prev[y] = x
                            todo.append(y)
                path, x = [], u
                while x is not None:
                    path.append(x)
                    x = prev[x]
                loop = [u] + path[::-1][:-1]
                k = loop.index(min(loop))
                cycles.add(tuple(loop[k:] + loop[:k]))
    return sorted(cycles, key=lambda c: (len(c), c))


def check_cycles(rows):
    """No two files of one folder call each other in a loop (a folder is a
    row of the table; its files' call graph from nm must be acyclic), so
    each file reads from its callees up.  One line per loop, each step with
    a symbol it calls."""
    bad = list(rows.errors)
    objs = [o for o in objects() if rows.folder_of(source_of(o))]
    if not objs:
        return bad + ['%s: no product objects (build first)' % OBJ]
    syms = nm_all(objs)
    by_folder = {}
    for o in objs:
        by_folder.setdefault(rows.folder_of(source_of(o)), []).append(o)
    used = set()
    for folder, fobjs in sorted(by_folder.items()):
        owner = {}
        for o in fobjs:
            for sym in syms[o][0]:
                owner[sym] = o
        graph = {o: {} for o in fobjs}
        for o in fobjs:
            for sym in sorted(syms[o][1]):
                callee = owner.get(sym)
                if callee and callee != o:
                    graph[o].setdefault(callee, []).append(sym)
        for loop in find_cycles(graph):
            files = tuple(source_of(o) for o in loop)
            if frozenset(files) in ALLOW_CYCLES:
                used.add(frozenset(files))
                continue
            steps = [files[0]]
            for a, b in zip(loop, loop[1:] + loop[:1]):
                steps.append('%s (%s)' % (source_of(b), graph[a][b][0]))
            bad.append('%s/: files call each other in a loop: %s'
                       % (folder, ' -> '.join(steps)))
    return bad + stale(set(ALLOW_CYCLES) - used, 'ALLOW_CYCLES')


# --- private headers ----------------------------------------------------------

PRIVATE_MARK = re.compile(r'private to `?([\w/.-]+?)/?`?(?=[\s:;,.)*]|$)')


def private_headers(rows):
    """{header: the folder it is private to}, and markers naming another."""
    out, bad = {}, []
    for rel in product_sources(rows, ('.h',)):
        f = rows.folder_of(rel)
        m = PRIVATE_MARK.search('\n'.join(read(rel).split('\n')[:30]))
        if m and m.group(1) != f:
            bad.append('%s: says "private to %s/" but lives in %s/' % (rel, m.group(1), f))
        if m or rel.endswith('_internal.h'):
            out[rel] = f
    return out, bad


def check_private(rows):
    private, bad = private_headers(rows)
    bad = rows.errors + bad
    search = include_dirs()
    used = set()
    for rel in product_sources(rows):	# tests/ may include them (white-box tests)
        own = rows.folder_of(rel)
        for n, name in quoted_includes(rel):
            target = resolve_include(rel, name, search)
            if target not in private or private[target] == own:
                continue
            if (rel, target) in ALLOW_PRIVATE:
                used.add((rel, target))
                continue
            bad.append('%s:%d: includes %s, private to %s/' % (rel, n, target, private[target]))
    return bad + stale(set(ALLOW_PRIVATE) - used, 'ALLOW_PRIVATE')


# --- comments and documents ---------------------------------------------------

C_COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
C_EXTS = ('.c', '.h', '.c.in', '.cs')
HASH_EXTS = ('.mk', '.sh', '.bats', '.bash', '.py', '.service', '.conf', 'Makefile')
DOC_EXTS = ('.md',)


def comment_lines(rel):
    """[(line, text)] of the file's comments; every line of a document."""
    text = read(rel)
    if rel.endswith(C_EXTS):
        out = []
        for m in C_COMMENT.finditer(text):
            if m.group(0).startswith(('/*', '//')):
                first = text.count('\n', 0, m.start()) + 1
                out += [(first + i, t) for i, t in enumerate(m.group(0).split('\n'))]
        return out
    if rel.endswith(DOC_EXTS):
        return list(enumerate(text.split('\n'), 1))
    out = []
    for n, line in enumerate(text.split('\n'), 1):
        m = re.search(r'(?:^|\s)#(?![!{(#])(.*)', line)
        if m:
            out.append((n, m.group(1)))
    return out


def text_files(rows):
    """Sources, build files, scripts, tests and documents of the tree."""
    files = []
    for top in sorted(set(rows.table) | {'docs'}):
        if '/' not in top:
            files += walk(top, C_EXTS + HASH_EXTS + DOC_EXTS)
    files += [f for f in sorted(os.listdir(ROOT))
              if os.path.isfile(path(f)) and f.endswith(DOC_EXTS + ('Makefile',))]
    skip = ('/golden/', '/vmlinux/')
    return sorted({f for f in files if not any(s in '/' + f for s in skip)
                   and not (ROOT == HERE and f.startswith(FIXTURES))})


def joined(lines):
    """Comment lines joined by one space, with the line of each character."""
    text, at = '', []
    for n, t in lines:
        t = re.sub(r'^\s*(\*(?!/)|//|/\*+|#|<!--)?\s*', '', t)
        t = re.sub(r'\s*(\*+/|-->)\s*$', '', t)
        if text:
            text += ' '
            at.append(n)
        text += t
        at += [n] * len(t)
    return text, at


ISSUE = re.compile(r'\b(?:[Ii]ssues?|[Bb]ugs?|PR|[Pp]ull request)\s?#?\d+\b|\(#\d+\)'
                   r'|\bsee #\d+|\b(?:[Ff]ix(?:es|ed)?|[Cc]loses?) #\d+')


def check_comments(rows):
    bad = []
    for rel in text_files(rows):
        if ROOT == HERE and rel == 'tests/house_check.py':
            continue	# holds the pattern
        text, at = joined(comment_lines(rel))
        for m in ISSUE.finditer(text):
            bad.append('%s:%d: names an issue number instead of the reason: "%s"'
                       % (rel, at[m.start()], m.group(0)))
    return bad


# --- shell: a test's functions defined once -------------------------------------

SHELL_FN = re.compile(r'^(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)', re.M)
SHELL_LOAD = re.compile(r'^\s*load\s+([\w/.-]+)', re.M)


def shell_functions(rel):
    """{name: [line, ...]} of the functions a shell file defines at its top
    level (a function defined inside a test or another function is local
    to it and not counted)."""
    text = read(rel)
    out = {}
    for m in SHELL_FN.finditer(text):
        out.setdefault(m.group(1), []).append(text.count('\n', 0, m.start()) + 1)
    return out


def check_shell(rows):
    """A bats file or a shell helper defines each function once, and a bats
    file does not define again a function of a helper it loads: bash keeps
    the last definition without a word, so the first one (a teardown that
    restarts a server, a helper the other tests rely on) silently does
    nothing."""
    bad = []
    files = [f for top in ('tests', 'scripts') if os.path.isdir(path(top))
             for f in walk(top, ('.bats', '.bash', '.sh'))
             if not (ROOT == HERE and f.startswith(FIXTURES))]
    defs = {f: shell_functions(f) for f in files}
    for rel in files:
        for name, lines in sorted(defs[rel].items()):
            if len(lines) > 1:
                bad.append('%s:%d: defines %s() again (first at line %d); the first one '
                           'is never run' % (rel, lines[1], name, lines[0]))
        if not rel.endswith('.bats'):
            continue
        for m in SHELL_LOAD.finditer(read(rel)):
            helper = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1) + '.bash'))
            for name, lines in sorted(defs.get(helper, {}).items()):
                if name in defs[rel]:
                    bad.append('%s:%d: defines %s() again over the one of %s:%d, which it loads'
                               % (rel, defs[rel][name][0], name, helper, lines[0]))
    return bad


# --- refs: files named in comments and documents ------------------------------

REF = re.compile(r'(?<![\w./$@~:*<>%-])((?:\.\./)*(?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*'
                 r'\.(?:c|h|in|md|mk|bats|man|py|sh|cs|csproj|service|conf|props)'
                 r'|(?:[\w.-]+/)*[\w-]+\.\{[\w,.]+\})(?![\w/-]|\.\w)')
# named by the bare file name only when in a folder: a bare `main.py` or
# `bench.sh` may well be a file a test or a script writes
PATH_ONLY = ('.py', '.sh', '.cs', '.csproj', '.service', '.conf', '.props')
URL = re.compile(r'\w+://\S+')
PLACEHOLDER = re.compile(r'(^|[/_.-])[A-Z]{3,}([/_.-]|$)')	# FOO.bats, PREFIX_events.c
# another project's file, named after the project: "libbpf's usdt.c"
FOREIGN = re.compile(r"\b(libbpf|perf|kernel|Linux|CoreCLR|TraceEvent|PerfView|bcc|"
                     r"libbpf-tools|LTTng|glibc|systemtap|SystemTap|bpftool|elfutils|"
                     r"OpenTelemetry|dotnet/\w+)('s)?\W{0,3}$")
_system = None


def system_header(name):
    """Is name a header of the system (/usr/include, by path or base name)?"""
    global _system
    if _system is None:
        _system = set()
        for top in ['/usr/include', '/usr/local/include'] + glob.glob('/usr/include/*-linux-gnu'):
            for d, _, fs in os.walk(top):
                rel = os.path.relpath(d, top)
                for f in fs:
                    _system.add(f)
                    _system.add(os.path.normpath(os.path.join(rel, f)))
    return name in _system


def expand(ref):
    m = re.fullmatch(r'(.*)\.\{([\w,.]+)\}', ref)
    return ['%s.%s' % (m.group(1), e) for e in m.group(2).split(',')] if m else [ref]


def ref_exists(rel, ref, where):
    for d in ['', os.path.dirname(rel)] + where:
        if os.path.exists(path(os.path.normpath(os.path.join(d, ref)))):
            return True
    name = os.path.basename(ref)
    if name in OUTSIDE or GENERATED.search(ref) or name in GENERATED_FROM:
        return True
    if name.startswith(('_', '-')) or PLACEHOLDER.search(ref):
        return True	# a suffix (`_internal.h`) or a placeholder (`PREFIX_events.c`)
    if '/' not in ref and ref.endswith(PATH_ONLY):
        return True
    if ref.startswith('../') and not os.path.normpath(path(ref)).startswith(ROOT + '/'):
        return True	# ../shared: beside the tree, not in it
    return ref.endswith('.h') and system_header(ref)


def check_refs(rows):
    bad = []
    search = include_dirs()
    for rel in text_files(rows):
        for n, t in comment_lines(rel):
            t = URL.sub(' ', t)
            where = list(search)
            row = ROW.match(t) if rel == DOC else None
            if row:
                where.insert(0, row.group(1))	# a table row names its folder's files
            for m in REF.finditer(t):
                for ref in expand(m.group(1)):
                    if not ref_exists(rel, ref, where) and not FOREIGN.search(t[:m.start()]):
                        bad.append('%s:%d: names %s, which is not in the tree' % (rel, n, ref))
    return bad


# --- unused exported functions ------------------------------------------------


def check_unused(rows):
    objs = objects()
    if not any(rows.folder_of(source_of(o)) for o in objs):
        return ['%s: no product objects (build first)' % OBJ]
    syms = nm_all(objs)
    refs = {}
    for o, (_, und) in syms.items():
        for s in und:
            refs.setdefault(s, set()).add(o)
    # tests and benchmarks that neither make all nor make unit builds
    named = set(re.findall(r'\w+', '\n'.join(read(f) for f in walk('tests', ('.c', '.h'))
                                             if not f.startswith(FIXTURES))))
    bad, used = [], set()
    for o in objs:
        src = source_of(o)
        if rows.folder_of(src) is None:
            continue
        text = None
        for s, typ in sorted(syms[o][0].items()):
            if typ != 'T' or s == 'main' or refs.get(s, set()) - {o} or s in named:
                continue
            if (src, s) in ALLOW_UNUSED:
                used.add((src, s))
                continue
            if text is None:
                text = strip_c(read(src))
            if len(re.findall(r'\b%s\b' % re.escape(s), text)) > 1:
                bad.append('%s: %s() is exported but only its own file calls it '
                           '(make it static)' % (src, s))
            else:
                bad.append('%s: %s() is exported and nothing calls it' % (src, s))
    return bad + stale(set(ALLOW_UNUSED) - used, 'ALLOW_UNUSED')


# --- copies -------------------------------------------------------------------


def strip_c(text):
    """Comments blanked (line breaks kept); strings kept."""
    def blank(m):
        t = m.group(0)
        return re.sub(r'[^\n]', ' ', t) if t.startswith(('/*', '//')) else t
    return C_COMMENT.sub(blank, text)


DOUBLING = re.compile(r'\*\s*2\b|\b2\s*\*(?!\*)|\*=\s*2\b|<<=?\s*1\b')
REALLOC = re.compile(r'\b(?:realloc|reallocarray)\s*\(')


def count_copies(code):
    lines = code.split('\n')
    grow = sum(1 for i, l in enumerate(lines) if REALLOC.search(l)
               and any(DOUBLING.search(x) for x in lines[max(0, i - 4):i + 1]))
    return {'clock': len(re.findall(r'\bclock_gettime\s*\(\s*CLOCK_MONOTONIC\b', code)),
            'grow': grow,
            'elf': len(re.findall(r'\belf_begin\s*\(', code))}


WHAT = {'clock': 'clock_gettime(CLOCK_MONOTONIC) outside common/ (its clock helper)',
        'grow': 'realloc-doubling growth outside common/ (its growth helper)',
        'elf': 'elf_begin() outside common/ (its ELF helper)'}

TOKEN = re.compile(r'[A-Za-z_]\w*|\d[\w.]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|\S')
KEYWORDS = set('auto break case char const continue default do double else enum extern '
               'float for goto if inline int long register restrict return short signed '
               'sizeof static struct switch typedef union unsigned void volatile while '
               'bool true false NULL'.split())
MIN_BODY = 6


def tokens(code):
    """[(token, line)], with lower-case names that are not called (locals,
    fields, types) renamed to one name: a copy with other local names is
    still a copy; one that calls or names other things is other code."""
    nl = [m.start() for m in re.finditer('\n', code)]
    toks = [(m.group(0), m.start()) for m in TOKEN.finditer(code)]
    out = []
    for i, (t, p) in enumerate(toks):
        called = i + 1 < len(toks) and toks[i + 1][0] == '('
        if (t[0].isalpha() or t[0] == '_') and t not in KEYWORDS and not called \
                and t == t.lower():
            t = 'ID'
        out.append((t, bisect.bisect(nl, p) + 1, toks[i][0]))
    return out


def bodies(code):
    """[(name, first line, lines of code, normalised body)] of each function."""
    toks = tokens(code)
    out, depth, i = [], 0, 0
    while i < len(toks):
        t = toks[i][0]
        if t == '{' and depth == 0 and i and toks[i - 1][0] == ')':
            k, d = i - 1, 0			# the name before the parameter list
            while k >= 0:
                d += {')': 1, '(': -1}.get(toks[k][0], 0)
                if d == 0:
                    break
                k -= 1
            name = toks[k - 1][2] if k > 0 else '?'
            j, d = i + 1, 1
            while j < len(toks) and d:
                d += {'{': 1, '}': -1}.get(toks[j][0], 0)
                j += 1
            body = toks[i + 1:j - 1]
            lines = len({ln for _, ln, _ in body})
            out.append((name, toks[i][1], lines, ' '.join(x for x, _, _ in body)))
            i = j
            continue
        depth += {'{': 1, '}': -1}.get(t, 0)
        depth = max(depth, 0)
        i += 1
    return out


def struct_layouts(code):
    """(name, line, field names) of each struct definition."""
    for m in re.finditer(r'\bstruct\s+(\w+)\s*\{([^{}]*)\}', code):
        fields = []
        for decl in m.group(2).split(';'):
            decl = re.sub(r'\[[^\]]*\]|:\s*\d+|__attribute__\s*\(\(.*?\)\)', '', decl)
            fields += re.findall(r'(\w+)\s*(?:,|$)', decl.strip())
        yield m.group(1), code.count('\n', 0, m.start()) + 1, fields


def check_copies(rows):
    bad = []
    files = [(rel, strip_c(read(rel))) for rel in product_sources(rows)]
    seen = {}
    for rel, code in files:
        if rel.startswith('common/'):
            continue
        for kind, n in count_copies(code).items():
            if not n or (kind, rel) in NOT_COPIES:
                continue
            seen[kind, rel] = n
            ok = ALLOW_COPIES.get(kind, {}).get(rel, 0)
            if n > ok:
                bad.append('%s: %s (%d%s)' % (rel, WHAT[kind], n, ', %d allowed' % ok if ok else ''))
    for kind, files_n in ALLOW_COPIES.items():
        for rel, n in sorted(files_n.items()):
            if seen.get((kind, rel), 0) < n:
                bad += stale(['%s %s: %d' % (kind, rel, n)], 'ALLOW_COPIES')
    # things written twice: key "file:name" of each
    twice = []
    maps = [('%s:%s' % (rel, m.group(1)), code.count('\n', 0, m.start()) + 1)
            for rel, code in files
            for m in re.finditer(r'\}\s*(targets)\s+SEC\s*\(\s*"\.maps"\s*\)', code)]
    if len({k.split(':')[0] for k, _ in maps}) > 1:
        twice.append(('the targets BPF map defined in %d files' % len(maps), maps))
    layouts = {}
    for rel, code in files:
        for name, line, fields in struct_layouts(code):
            if len(fields) >= 4:
                layouts.setdefault(tuple(fields[:8]), []).append(('%s:%s' % (rel, name), line))
    for fields, where in sorted(layouts.items()):
        if len({k.split(':')[0] for k, _ in where}) > 1:
            twice.append(('the layout (%s, ...) written %d times' % (', '.join(fields[:4]),
                                                                    len(where)), where))
    same = {}
    for rel, code in files:
        for name, line, n, body in bodies(code):
            if n >= MIN_BODY:
                same.setdefault(body, []).append(('%s:%s' % (rel, name), line, n))
    for body, where in sorted(same.items(), key=lambda x: x[1]):
        if len({k.split(':')[0] for k, _, _ in where}) > 1:
            twice.append(('a %d-line function body written %d times' % (where[0][2], len(where)),
                          [w[:2] for w in where]))
    used = set()
    for what, where in twice:
        key = tuple(sorted(k for k, _ in where))
        if key in ALLOW_TWICE:
            used.add(key)
            continue
        bad.append('%s: %s' % (what, ', '.join('%s:%d %s' % (k.split(':')[0], line,
                                                              k.split(':')[1])
                                               for k, line in where)))
    return bad + stale(set(ALLOW_TWICE) - used, 'ALLOW_TWICE')


# --- sizes (a report) ---------------------------------------------------------


def report_sizes(rows):
    files, funcs = [], []
    for rel in product_sources(rows):
        code = read(rel)
        files.append((code.count('\n'), rel))
        if rel.endswith('.c'):
            funcs += [(n, '%s:%d %s()' % (rel, line, name))
                      for name, line, n, _ in bodies(strip_c(code))]
    print('longest files (lines):')
    for n, rel in sorted(files, reverse=True)[:10]:
        print('  %5d %s' % (n, rel))
    print('longest functions (lines of code in the body):')
    for n, where in sorted(funcs, reverse=True)[:10]:
        print('  %5d %s' % (n, where))
    return []


RULES = {
    'folders': check_folders,
    'includes': check_includes,
    'calls': check_calls,
    'cycles': check_cycles,
    'private': check_private,
    'refs': check_refs,
    'unused': check_unused,
    'comments': check_comments,
    'copies': check_copies,
    'shell': check_shell,
    'sizes': report_sizes,
}


def main():
    global ROOT, OBJ
    global ALLOW_INCLUDES, ALLOW_CALLS, ALLOW_PRIVATE, ALLOW_UNUSED, ALLOW_COPIES, ALLOW_TWICE
    global ALLOW_CYCLES
    args = sys.argv[1:]
    while len(args) > 1 and args[0] in ('--root', '--obj'):
        if args[0] == '--root':
            ROOT = os.path.abspath(args[1])
        else:
            OBJ = os.path.abspath(args[1])
        args = args[2:]
    if len(args) != 1 or args[0] not in RULES:
        sys.exit('usage: house_check.py [--root DIR] [--obj DIR] %s' % '|'.join(RULES))
    if ROOT != HERE:	# the allowances are this tree's
        ALLOW_INCLUDES, ALLOW_CALLS, ALLOW_PRIVATE, ALLOW_UNUSED = {}, {}, {}, {}
        ALLOW_COPIES, ALLOW_TWICE, ALLOW_CYCLES = {}, {}, {}
    OBJ = OBJ or os.path.join(ROOT, '.output', 'obj')
    bad = RULES[args[0]](Rows())
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
