#!/usr/bin/env python3
# The committed series (kernel/patches/) against its one source of truth,
# without a kernel tree: every patch equals its hand-written glue patch
# (kernel/glue/), except the one marked +core in glue/series, whose files
# are the glue's plus src/core's, each core file's blob in the patch the
# same object as the file in src/core (git's blob hash, as format-patch
# --full-index writes it). Runs in milliseconds; kernel/test.sh checks the
# same against a real generation and build.
# Usage: check-series.py SRCDIR
import hashlib
import os
import re
import sys


def blob_hash(path):
    with open(path, 'rb') as f:
        data = f.read()
    return hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()


def sections(text):
    """The patch's per-file sections, keyed by path, and its header."""
    parts = re.split(r'(?m)^(?=diff --git )', text)
    head, out = parts[0], {}
    for p in parts[1:]:
        m = re.match(r'diff --git a/(\S+) b/', p)
        out[m.group(1)] = p
    return head, out


def main(top):
    glue, gen = os.path.join(top, 'kernel/glue'), os.path.join(top, 'kernel/patches')
    core = {f: os.path.join(top, 'src/core', f)
            for f in os.listdir(os.path.join(top, 'src/core'))
            if f.endswith(('.c', '.h'))}
    errors, checked = [], 0
    with open(os.path.join(glue, 'series')) as f:
        series = [l.split() for l in f if l.strip()]
    committed = sorted(p for p in os.listdir(gen) if p.endswith('.patch'))
    if committed != sorted(s[0] for s in series):
        errors.append('kernel/patches/ holds %s, glue/series lists %s' %
                      (committed, [s[0] for s in series]))
    for entry in series:
        name, plus_core = entry[0], '+core' in entry[1:]
        with open(os.path.join(glue, name)) as f:
            g = f.read()
        try:
            with open(os.path.join(gen, name)) as f:
                p = f.read()
        except OSError as e:
            errors.append('%s: %s' % (name, e))
            continue
        checked += 1
        if not plus_core:
            if g != p:
                errors.append('%s differs from kernel/glue/%s' % (name, name))
            continue
        _, gs = sections(g)
        _, ps = sections(p)
        found = set()
        for path, sec in ps.items():
            base = os.path.basename(path)
            if path not in gs and base in core:
                m = re.search(r'(?m)^index 0+\.\.([0-9a-f]{40})', sec)
                want = blob_hash(core[base])
                if not m or m.group(1) != want:
                    errors.append('%s: %s is not src/core/%s (blob %s, want %s)'
                                  % (name, path, base,
                                     m.group(1) if m else '?', want))
                found.add(base)
            elif gs.get(path) != sec:
                errors.append('%s: %s differs from the glue patch' %
                              (name, path))
        for path in gs:
            if path not in ps:
                errors.append('%s: the glue\'s %s is missing' % (name, path))
        missing = set(core) - found
        if missing:
            errors.append('%s: src/core files not in the series: %s' %
                          (name, ', '.join(sorted(missing))))
    for e in errors:
        print('FAIL:', e)
    print('%d patches checked against kernel/glue and src/core: %s' %
          (checked, 'drift' if errors else 'ok'))
    return 1 if errors or not checked else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else '.'))
