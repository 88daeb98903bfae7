#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Checks the project's layout rules (docs/architecture.md) on the source tree.

  house_check.py includes   who may include whom
  house_check.py sizes      no file over MAX_FILE lines, no function over MAX_FUNC
  house_check.py comments   comments give reasons, not issue numbers
  house_check.py symbols OBJDIR   the nettrace library's objects call only
                            themselves, common/ and libc (from nm)

Prints one line per violation and exits 1 if there is any.  A file may be
longer when it says why in a comment containing "long-file:"; a function may
be longer when the comment right above it contains "long-function:".
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
PRODUCT = ['common', 'usdt', 'bpf', 'nettrace', 'symbolizer', 'views', 'collector']
MAX_FILE = 1000
MAX_FUNC = 80

# folder -> folders whose headers it may include (besides its own and libc).
# Checked most specific first.
ALLOWED = [
    ('common', []),
    ('nettrace', ['common']),
    ('symbolizer', ['common', 'nettrace']),
    ('usdt/refrt', ['common', 'usdt', 'gen']),
    ('usdt', ['common', 'gen', 'nettrace']),
    ('bpf', ['bpf/vmlinux']),
    ('views', ['common', 'nettrace', 'symbolizer', 'usdt', 'gen']),
    ('collector/pipeline', ['common', 'nettrace', 'symbolizer', 'usdt', 'gen', 'bpf']),
    ('collector/sources', ['common', 'nettrace', 'symbolizer', 'usdt', 'gen', 'bpf',
                           'collector/pipeline']),
    ('collector/fleet', ['common', 'nettrace', 'symbolizer', 'usdt', 'gen', 'bpf',
                         'collector/pipeline']),
    ('collector/session', ['common', 'nettrace', 'symbolizer', 'usdt', 'gen', 'bpf',
                           'collector/pipeline', 'collector/sources', 'collector/fleet']),
    ('collector', ['common', 'nettrace', 'symbolizer', 'usdt', 'gen', 'bpf', 'views',
                   'collector/pipeline', 'collector/sources', 'collector/fleet',
                   'collector/session']),
]
SEARCH = ['common', 'usdt', 'symbolizer', 'nettrace', 'views', 'collector',
          'collector/session', 'collector/sources', 'collector/pipeline', 'collector/fleet', 'bpf']
# Includes that break the rows above and are being removed while the
# collector's shared state (session/collector.h) is taken apart.
INTERIM = {
    ('collector/pipeline/recorder.c', 'views/split.h'),
}


def sources(folders, exts=('.c', '.h')):
    for top in folders:
        for d, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [x for x in dirs if x != 'vmlinux']
            for f in sorted(files):
                if f.endswith(exts):
                    yield os.path.relpath(os.path.join(d, f), ROOT)


def folder_of(rel):
    for f, _ in ALLOWED:
        if rel == f or rel.startswith(f + '/'):
            return f
    return None


def resolve(rel, name):
    here = os.path.dirname(rel)
    for d in [here] + SEARCH:
        if os.path.exists(os.path.join(ROOT, d, name)):
            return os.path.normpath(os.path.join(d, name))
    if name.endswith('.skel.h') or name.startswith('clretw'):
        return 'gen/' + name
    return None


def check_includes():
    bad = []
    for rel in sources(PRODUCT):
        own = folder_of(rel)
        allowed = dict(ALLOWED)[own] + [own]
        for n, line in enumerate(open(os.path.join(ROOT, rel), errors='replace'), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            target = resolve(rel, m.group(1))
            if target is None:
                continue
            tf = folder_of(target) or target.split('/')[0]
            if (rel, target) in INTERIM:
                continue
            if tf not in allowed and not any(target.startswith(a + '/') for a in allowed):
                bad.append('%s:%d: includes %s (%s may include only %s)'
                           % (rel, n, target, own, ', '.join(allowed)))
    return bad


FUNC_START = re.compile(r'^\{\s*$')


def check_sizes():
    bad = []
    for rel in sources(PRODUCT):
        lines = open(os.path.join(ROOT, rel), errors='replace').read().split('\n')
        text = '\n'.join(lines)
        if len(lines) > MAX_FILE and 'long-file:' not in text:
            bad.append('%s: %d lines (over %d, and no "long-file:" reason)'
                       % (rel, len(lines), MAX_FILE))
        if not rel.endswith('.c'):
            continue
        i = 0
        while i < len(lines):
            if FUNC_START.match(lines[i]):
                start = i
                j = i + 1
                while j < len(lines) and lines[j] != '}' and not lines[j].startswith('};'):
                    j += 1
                head = lines[max(0, start - 12):start]
                name = ''
                for h in reversed(head):
                    m = re.search(r'(\w+)\s*\(', h)
                    if m:
                        name = m.group(1)
                        break
                body = j - start - 1
                reason = any('long-function:' in h for h in head)
                if body > MAX_FUNC and not reason and name:
                    bad.append('%s:%d: %s() has %d lines (over %d, and no "long-function:" reason)'
                               % (rel, start + 1, name, body, MAX_FUNC))
                i = j
            i += 1
    return bad


ISSUE = re.compile(r'\b[Ii]ssues? ?#?\d+\b|\(#\d+\)|\bsee #\d+')


def check_comments():
    bad = []
    tops = PRODUCT + ['tests', 'scripts', 'Makefile']
    for top in tops:
        path = os.path.join(ROOT, top)
        files = [path] if os.path.isfile(path) else [
            os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs]
        for p in sorted(files):
            rel = os.path.relpath(p, ROOT)
            if ('/vmlinux/' in rel or '/golden/' in rel or rel.endswith(('.json', '.nettrace'))
                    or '/bin/' in rel or '/obj/' in rel or rel == 'tests/house_check.py'):
                continue
            try:
                text = open(p, encoding='utf-8').read()
            except (UnicodeDecodeError, OSError):
                continue
            for n, line in enumerate(text.split('\n'), 1):
                if ISSUE.search(line):
                    bad.append('%s:%d: names an issue number instead of the reason: %s'
                               % (rel, n, line.strip()[:90]))
    return bad


def nm(path, flag):
    out = subprocess.run(['nm', flag, path], capture_output=True, text=True).stdout
    return {l.split()[-1] for l in out.splitlines() if l.strip()}


def check_symbols(objdir):
    lib = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(objdir, 'nettrace'))
           for f in fs if f.endswith('.o')]
    common = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(objdir, 'common'))
              for f in fs if f.endswith('.o')]
    if not lib:
        return ['%s/nettrace: no objects (build first)' % objdir]
    defined = set()
    for o in lib + common:
        defined |= nm(o, '--defined-only')
    libc = set()
    for so in ('/lib/x86_64-linux-gnu/libc.so.6', '/lib/x86_64-linux-gnu/libm.so.6',
               '/lib/aarch64-linux-gnu/libc.so.6', '/lib/aarch64-linux-gnu/libm.so.6'):
        if os.path.exists(so):
            out = subprocess.run(['nm', '-D', '--defined-only', so], capture_output=True,
                                 text=True).stdout
            libc |= {l.split()[-1].split('@')[0] for l in out.splitlines() if l.strip()}
    bad = []
    for o in sorted(lib):
        for sym in sorted(nm(o, '-u')):
            s = sym.split('@')[0]
            if s in defined or s in libc or s.startswith(('__', '_GLOBAL_OFFSET')):
                continue
            bad.append('%s: calls %s, defined outside the nettrace library, common/ and libc'
                       % (os.path.relpath(o, objdir), s))
    return bad


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else ''
    if what == 'includes':
        bad = check_includes()
    elif what == 'sizes':
        bad = check_sizes()
    elif what == 'comments':
        bad = check_comments()
    elif what == 'symbols' and len(sys.argv) > 2:
        bad = check_symbols(sys.argv[2])
    else:
        sys.exit('usage: house_check.py includes|sizes|comments|symbols OBJDIR')
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
