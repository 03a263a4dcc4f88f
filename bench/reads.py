#!/usr/bin/env python3
"""Count where a run's block reads go, from bench/reads.c's samples.

Each sample is one pread() (one in READS_EVERY) with its callers; a
sample is counted under its innermost DEPTH frames, the program's named
by addr2line, libnotmuch's by their entry points ("notmuch_..."), or
with --group under the innermost of the functions named.
With --vs, a second run's samples (the same command on a bigger
index, say) are counted beside the first's and each line's growth is
given: the calls of that line in the second run over those in the
first, where both are estimated as samples times READS_EVERY.

  python3 bench/reads.py ./winnow /tmp/r10k.* --vs /tmp/r1m.*
"""
import argparse
import collections
import subprocess
import sys


def read_samples(paths):
    """The samples' frame lists, the calls made and the sampling
    period, from one run's files (one a process)."""
    samples, calls, every = [], 0, None
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("# calls "):
                    words = line.split()
                    calls += int(words[2])
                    if every is not None and every != int(words[4]):
                        sys.exit(f"reads.py: {path}: sampled every {words[4]}, another file every {every}")
                    every = int(words[4])
                else:
                    samples.append(line.split())
    if every is None:
        sys.exit("reads.py: no '# calls' line: the run did not finish, or READS_OUT named no file")
    return samples, calls, every


def names(binary, samples):
    """Each program offset's function, by addr2line (one call)."""
    offsets = sorted({w[2:] for s in samples for w in s if w.startswith("X:")})
    if not offsets:
        return {}
    out = subprocess.run(["addr2line", "-f", "-e", binary] + ["0x" + o for o in offsets],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return {o: out[2 * i] for i, o in enumerate(offsets)}


def count(binary, samples, depth, groups):
    """Samples a line: its innermost depth frames, or with groups the
    first of those functions among its frames (innermost first)."""
    named = names(binary, samples)
    c = collections.Counter()
    for s in samples:
        frames = [named.get(w[2:], "??") if w.startswith("X:") else w[2:] for w in s]
        if groups:
            c[next((f for f in frames if f in groups), "(none of them)")] += 1
        else:
            c[" < ".join(frames[:depth]) or "(not from the program)"] += 1
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Samples come from bench/reads.c; its header says how to take them.")
    ap.add_argument("binary", help="the program the samples were taken of (its offsets are named from it)")
    ap.add_argument("samples", nargs="+", help="one run's sample files (PREFIX.PID)")
    ap.add_argument("--vs", nargs="+", metavar="SAMPLES", help="a second run's files, counted beside")
    ap.add_argument("--depth", type=int, default=3, help="frames that name a line (default 3)")
    ap.add_argument("--top", type=int, default=30, help="lines printed (default 30)")
    ap.add_argument("--group", metavar="F,G,...",
                    help="count each sample under the innermost of these functions among its callers")
    a = ap.parse_args()

    groups = set(a.group.split(",")) if a.group else None
    s1, calls1, every1 = read_samples(a.samples)
    c1 = count(a.binary, s1, a.depth, groups)
    print(f"run 1: {calls1} pread() calls, {len(s1)} samples (one in {every1})")
    if not a.vs:
        print(f"{'calls':>10} {'share':>6}  callers, innermost first")
        for k, v in c1.most_common(a.top):
            print(f"{v * every1:10d} {100 * v / max(len(s1), 1):5.1f}%  {k}")
        return
    s2, calls2, every2 = read_samples(a.vs)
    c2 = count(a.binary, s2, a.depth, groups)
    print(f"run 2: {calls2} pread() calls, {len(s2)} samples (one in {every2}); "
          f"growth x{calls2 / max(calls1, 1):.1f}")
    print(f"{'run 1':>10} {'run 2':>11} {'share 2':>7} {'growth':>8}  callers, innermost first")
    for k, v in c2.most_common(a.top):
        n1, n2 = c1.get(k, 0) * every1, v * every2
        g = f"x{n2 / n1:.1f}" if n1 else "new"
        print(f"{n1:10d} {n2:11d} {100 * v / max(len(s2), 1):6.1f}% {g:>8}  {k}")


if __name__ == "__main__":
    main()
