#!/usr/bin/env python3
"""Byte-flipped trace.dat files (issue 36): every .dat fixture of the
repository, N deterministic mutants each, read by `capsim import` (each)
and `capsim plot` (those import refuses, and one in ten of the others).
libtracecmd and libtraceevent crash on some of them (a corrupt event
format, a corrupt page header); capsim reads them in a child process, so
a command must never die of a signal: exit 0 or 2, a message on stderr
when 2, and nothing left in the output directory but the output of a
command that exited 0 (no partial directory, no temporary file).

The fuzzers' regressions (tests/fuzz/regressions/, mutants themselves)
get a quarter as many. The mutants flip 1, 2 or 4 bytes in turn: anywhere, in a data page's
header (its timestamp and commit), in the events after it, and near the
tokens of an event format (field:, size:, [, print fmt). Deterministic:
each mutant's bytes come from the fixture's digest and its index.

Usage: dat_flip.py CAPSIM SRCDIR WORKDIR [N]
N (default 120; $CAPSIM_DAT_FLIPS, when set, wins): mutants per fixture;
the default suite runs in well under two minutes, CAPSIM_DAT_FLIPS=5000
is the long run (docs/fuzzing.md).
"""
import hashlib
import os
import random
import shutil
import subprocess
import sys
import time

PAGE = 4096
TOKENS = [b"field:", b"size:", b"offset:", b"[", b"print fmt:", b"REC->",
          b"name: ", b"ID: ", b"header_page", b"signed:"]
VALUES = ["zero", "ff", "7f", "80", "not", "bit", "random"]


def fixtures(src):
    """Every .dat under the source tree (build directories left out),
    one of each content"""
    seen, out = set(), []
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs
                         if not d.startswith(("build", ".")))
        for f in sorted(files):
            if not f.endswith(".dat"):
                continue
            path = os.path.join(root, f)
            data = open(path, "rb").read()
            digest = hashlib.sha256(data).hexdigest()
            if digest not in seen and data[:3] == b"\x17\x08\x44":
                seen.add(digest)
                out.append((os.path.relpath(path, src), data, digest))
    return out


def token_spots(data):
    spots = []
    for t in TOKENS:
        at = data.find(t)
        while at >= 0 and len(spots) < 20000:
            spots.append(at)
            at = data.find(t, at + 1)
    return sorted(spots)


def mutate(data, spots, digest, i):
    rnd = random.Random("%s:%d" % (digest, i))
    b = bytearray(data)
    pages = len(b) // PAGE
    kind = i % 4
    if kind == 1 and pages > 1:
        pos = rnd.randrange(1, pages) * PAGE + rnd.choice([8, 9, 10, 11, rnd.randrange(16)])
    elif kind == 2 and pages > 1:
        pos = rnd.randrange(1, pages) * PAGE + 16 + rnd.randrange(256)
    elif kind == 3 and spots:
        pos = rnd.choice(spots) + rnd.randrange(24)
    else:
        pos = rnd.randrange(len(b))
    n = rnd.choice([1, 2, 4])
    for j in range(pos, min(pos + n, len(b))):
        v = rnd.choice(VALUES)
        b[j] = {"zero": 0, "ff": 0xff, "7f": 0x7f, "80": 0x80,
                "not": b[j] ^ 0xff, "bit": b[j] ^ (1 << rnd.randrange(8)),
                "random": rnd.randrange(256)}[v]
    return bytes(b), pos, n


def run(cmd, cwd):
    try:
        r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=60)
    except subprocess.TimeoutExpired:
        return None, "timed out after 60 s"
    return r.returncode, r.stderr.decode("utf-8", "replace")


def check(what, rc, err, out_dir, output):
    """None, or why the run is wrong"""
    left = sorted(os.listdir(out_dir))
    if rc is None:
        return err
    if rc < 0:
        return "died of signal %d" % -rc
    if rc not in (0, 2):
        return "exit %d: %s" % (rc, err.strip()[-300:])
    if rc == 2 and not err.strip():
        return "exit 2 without a message"
    want = [output] if rc == 0 else []
    if left != want:
        return "exit %d left %s in the output directory" % (rc, left)
    return None


def one(label, what, cmd, output, out, counts, failures):
    """Run @cmd in a fresh @out, check it (a failure is said with
    @label); its exit status"""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    rc, err = run(cmd, out)
    counts["runs"] += 1
    if rc in (0, 2):
        counts["exit %d" % rc] += 1
    if "died of" in err:
        counts["contained crashes"] += 1
    why = check(what, rc, err, out, output)
    if why:
        failures.append("%s: %s: %s" % (label, what, why))
    return rc


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    capsim, src, work = sys.argv[1:4]
    n = int(os.environ.get("CAPSIM_DAT_FLIPS") or
            (sys.argv[4] if len(sys.argv) > 4 else "120"))
    capsim = os.path.abspath(capsim)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    fx = fixtures(src)
    if not fx:
        sys.exit("FAIL: no .dat fixture under %s" % src)
    start = time.time()
    failures, counts = [], {"runs": 0, "exit 0": 0, "exit 2": 0,
                            "contained crashes": 0}
    kept = 0
    for name, data, digest in fx:
        spots = token_spots(data)
        # a fuzzer's regression is a mutant already: a quarter as many
        nf = max(1, n // 4) if "/regressions/" in name else n
        for i in range(nf):
            mut, pos, nb = mutate(data, spots, digest, i)
            trace = os.path.join(work, "m.dat")
            with open(trace, "wb") as f:
                f.write(mut)
            out = os.path.join(work, "out")
            imp = [capsim, "import", trace, "-o",
                   os.path.join(out, "w.json"), "--platform", "sd855"]
            plot = [capsim, "plot", trace, "-o", os.path.join(out, "p"),
                    "--quiet"]
            label = "%s mutant %d (%d bytes at %d)" % (name, i, nb, pos)
            rc = one(label, "import", imp, "w.json", out, counts, failures)
            # plot draws for a tenth of a second: the mutants import
            # refuses, and one in ten of the others
            if rc == 2 or i % 10 == 0:
                one(label, "plot", plot, "p", out, counts, failures)
            if len(failures) > kept:
                kept = len(failures)
                shutil.copy(trace, os.path.join(
                    work, "fail-%s-%d.dat" % (digest[:8], i)))
        print("%s: %d mutants" % (name, nf))
    for f in failures[:40]:
        print("FAIL: " + f)
    print("%d fixtures, %d mutants each (regressions %d): %s; %.1f s" % (
        len(fx), n, max(1, n // 4), ", ".join("%s %d" % kv for kv in counts.items()),
        time.time() - start))
    if failures:
        print("%d failures (the mutants are kept in %s)" %
              (len(failures), work))
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)


main()
