#!/usr/bin/env bash
# tools/layout-move.sh — one-off (issue 22): move the flat src/lib/ into
# one folder per module, with history (git mv), and fix everything that
# names the old paths.  Run at the top of a clean work tree of the flat
# layout; then autoreconf, configure, build, test, commit.
#
#   tools/layout-move.sh            move, rewrite, report
#   tools/layout-move.sh --check    only check that MOVES covers src/lib
#
# It depends on file names only, not on their contents: it stops, before
# changing anything, on a src/lib file that MOVES does not place (a file
# added since this script was written is never silently left behind)
# and on a fragment line it does not understand.  What it does:
#   1. git mv every src/lib file into src/lib/MODULE/ (bots/ stays);
#   2. rewrites every #include "..." in src/ and tests/ that reached a
#      moved file, whatever path it used (same folder, ../, -Isrc/lib);
#   3. replaces the src/lib/*.am fragments with src/lib/lib.am and one
#      src/lib/MODULE/MODULE.am each, listing every file of the folder
#      (lines other than source lists are carried into lib.am);
#   4. rewrites src/lib/X paths in the build files, scripts and docs;
#   5. writes src/lib/MODULE/README (what it owns, what it may call) and
#      HACKING's map of src/lib from the same table;
#   6. prints which files still include another module's private header
#      and the module graph with its circles: work left, not hidden.
set -euo pipefail

die() { echo "layout-move: $*" >&2; exit 1; }

top=$(git rev-parse --show-toplevel 2>/dev/null) || die "not in a git work tree"
cd "$top"
[ -f src/lib/status.c ] || die "src/lib/status.c not found: not the flat layout (already moved?)"

# MODULE FILE [NEW-NAME]: where each file of the flat src/lib goes.  The
# files of src/lib/bots/ stay where they are (module bots).
MOVES='
core    status.c
core    buf.c
core    str.c
core    str.h
core    text.c
core    map.c
core    map.h
core    hash.c
core    hash.h
core    proc.c
core    verdict.c
mail    mail.c
mail    mail-plain.c
mail    mail-private.h
mail    mail-list.c
mail    trailer.c
bots    review.c
bots    severity.c
index   index.c
index   conf.c
index   thread.c
index   link.c
index   link.h
index   message.c
index   message.h
index   props.c
index   props.h
index   private.h       index-private.h
index   index-nm.h
store   store.c
store   store-log.c
store   store-writer.c
store   store-sent.c
store   store-private.h
store   journal.c
store   journal.h
memory  similar.c
memory  subject.c
memory  patchdiff.c
memory  series.c
memory  series-fixed.c
memory  series-private.h
memory  memory.c
memory  ledger.c
memory  pager.c
forward forward.c
forward forward-body.c
forward forward-mime.c
forward forward-draft.c
forward forward-send.c
forward forward-private.h
forward digest.c
forward digest-private.h
forward feedback.c
forward ledger-mail.c
share   share.c
share   share-sync.c
share   share-git.c
share   share-file.c
share   share-private.h
stats   stats.c
'

# MODULE|MAY CALL|WHAT IT OWNS: the modules in layer order, bottom first.
# Written into each README and into HACKING.
MODULES='
core|(nothing of the library)|Leaves every other module calls: status codes and wn_error, the string buffer with its sticky out-of-memory flag, byte-run string helpers, sanitising text for the terminal and for headers, the hash map and the one FNV-1a hash, verdict names, and the one process runner (programs run without a shell, the state folder).
mail|core|Reading a mail: MIME, charsets, quoted-printable and base64 through GMime, the plain-text fallback, which mailing list a mail went to, and the trailer block with its Assisted-by attribution.
bots|core, mail|The table of bots (review.c: detection, the parser entry point, the finding fingerprint), the names of severities and kinds of mail, and one file per bot holding its descriptor and every rule of its mail format, over the shared readers (summaries, quoted diffs, the finding builder).
index|core, mail, bots|The [winnow] configuration (its default query is the bots'"'"' queries or'"'"'ed) and the read-only notmuch handle: queries, loading items, threads, which patch a review answers (link), one message of the index, and how verdicts and notes sit in notmuch properties.
store|core, mail, bots, index|The write path: marking, undo, history and forwards through the journal (append, fsync, flock, compaction) and the child that writes into notmuch.
memory|core, mail, bots, index, store|Never judging the same finding twice (issue 12): when two findings are one problem, verdict memory, later patches and versions of a series, patch subjects and hunks, the pre-existing ledger, a patch in $PAGER.
forward|core, mail, bots, index, store, memory|Mail we send: forwarding verified findings (compose, body, MIME, drafts, sending, recording), and the digests of our own (the ledger digest, feedback to a bot'"'"'s operators).
share|core, mail, bots, index, store|Verdicts shared through a git repository: sync, the repository and its files (hostile input).
stats|core, mail, bots, index, store|Statistics over verdicts.
'

# Public header -> module, for the module graph only.
PUBLIC='
status.h core
buf.h core
text.h core
conf.h index
verdict.h core
proc.h core
mail.h mail
trailer.h mail
review.h bots
index.h index
store.h store
similar.h memory
series.h memory
memory.h memory
ledger.h memory
forward.h forward
digest.h forward
feedback.h forward
share.h share
stats.h stats
'

export MOVES MODULES PUBLIC
mode=${1:-move}
case $mode in
--check|move) ;;
*) die "usage: $0 [--check]" ;;
esac
if [ "$mode" = move ] && [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	die "the work tree has changes; commit or stash them first"
fi

python3 - "$mode" <<'PY'
import os, re, subprocess, sys

mode = sys.argv[1]
def die(msg):
    sys.stderr.write("layout-move: " + msg + "\n")
    sys.exit(1)
def git(*a):
    return subprocess.run(("git",) + a, check=True, stdout=subprocess.PIPE, text=True).stdout

moves = {}                                  # old path -> new path
module_of = {}                              # new path -> module
order = []
for line in os.environ["MOVES"].splitlines():
    w = line.split()
    if not w:
        continue
    if len(w) not in (2, 3):
        die("bad MOVES line: " + line)
    mod, f = w[0], w[1]
    new = w[2] if len(w) == 3 else f
    old = "src/lib/" + f
    if old in moves:
        die(f"{f} is in MOVES twice")
    moves[old] = f"src/lib/{mod}/{new}"
    module_of[moves[old]] = mod
modules = []
for line in os.environ["MODULES"].splitlines():
    if line.strip():
        name, calls, owns = line.split("|")
        modules.append((name, calls, owns))
names = [m[0] for m in modules]
for mod in set(module_of.values()):
    if mod not in names:
        die(f"module {mod} of MOVES has no line in MODULES")

tracked = git("ls-files", "src/lib").split()
flat = [p for p in tracked if p.count("/") == 2 and not p.endswith(".am")]
bots = [p for p in tracked if p.startswith("src/lib/bots/")]
fragments = sorted(p for p in tracked if p.count("/") == 2 and p.endswith(".am"))
others = [p for p in tracked if p.count("/") > 2 and not p.startswith("src/lib/bots/")]
missing = sorted(set(flat) - set(moves))
if missing:
    die("these src/lib files are not in MOVES; add a line 'MODULE FILE' for each "
        "and run again:\n  " + "\n  ".join(missing))
gone = sorted(set(moves) - set(flat))
if gone:
    die("MOVES names files that are not in src/lib (renamed or deleted? fix MOVES):\n  "
        + "\n  ".join(gone))
if others:
    die("src/lib has folders other than bots/ (already moved?):\n  " + "\n  ".join(others))
for b in bots:
    moves[b] = b
    module_of[b] = "bots"

# The fragments: source lists, and the lines that are not (kept).
listed, extra = set(), []
for frag in fragments:
    text = open(frag).read()
    logical = re.sub(r"\\\n", " ", text).splitlines()
    for l in logical:
        s = l.strip()
        if not s or s.startswith("#"):
            continue
        m = re.match(r"libwinnow_a_SOURCES\s*\+?=\s*(.*)$", s)
        if m:
            for w in m.group(1).split():
                if not w.startswith("src/lib/"):
                    die(f"{frag}: '{w}' in libwinnow_a_SOURCES is not a src/lib file")
                listed.add(w)
            continue
        if re.fullmatch(r"noinst_LIBRARIES\s*\+=\s*libwinnow\.a", s):
            continue
        if "src/lib/" in s:
            die(f"{frag}: a line this script does not understand names src/lib:\n  {s}")
        extra.append((frag, s))
unlisted = sorted(set(moves) - listed)
notfile = sorted(listed - set(moves))
if notfile:
    die("the fragments list files that do not exist:\n  " + "\n  ".join(notfile))

if mode == "--check":
    print(f"layout-move: MOVES places all {len(flat)} files of src/lib "
          f"({len(bots)} in bots/ stay); fragments parse")
    for f in unlisted:
        print(f"  note: {f} is in no fragment; it will be listed in its module's")
    sys.exit(0)

# 1. git mv
for old, new in sorted(moves.items()):
    if old == new:
        continue
    os.makedirs(os.path.dirname(new), exist_ok=True)
    git("mv", old, new)

# 2. includes: every quoted include in src/ and tests/ that reached a
# moved file, through its own folder or through -I src/lib.
inc = re.compile(r'^(\s*#\s*include\s*")([^"]+)(")', re.M)
back = {new: old for old, new in moves.items()}
def rewrite(path_new):
    path_old = back.get(path_new, path_new)
    text = open(path_new).read()
    def one(m):
        target = m.group(2)
        for base, via_dir in ((os.path.dirname(path_old), True), ("src/lib", False)):
            cand = os.path.normpath(os.path.join(base, target))
            if cand in moves:
                dst = moves[cand]
                start = os.path.dirname(path_new) if via_dir else "src/lib"
                return m.group(1) + os.path.relpath(dst, start) + m.group(3)
        return m.group(0)
    new = inc.sub(one, text)
    if new != text:
        open(path_new, "w").write(new)
for p in git("ls-files", "src", "tests").split():
    if p.endswith((".c", ".h")) and os.path.exists(p):
        rewrite(p)

# 3. the fragments
header = "# libwinnow, one fragment per module folder (see HACKING and each README).\n"
lib = [header, "noinst_LIBRARIES += libwinnow.a\n", "libwinnow_a_SOURCES =\n"]
if extra:
    lib.append("# Carried over from the flat layout's fragments.\n")
    lib += [s + "\n" for _, s in extra]
open("src/lib/lib.am", "w").write("".join(lib))
for name, calls, owns in modules:
    files = sorted(p for p, mod in module_of.items() if mod == name)
    body = f"# src/lib/{name}/: see its README.  Calls: {calls}.\nlibwinnow_a_SOURCES +="
    for f in files:
        body += " \\\n\t" + f
    body += f"\nEXTRA_DIST += src/lib/{name}/README"
    open(f"src/lib/{name}/{name}.am", "w").write(body + "\n")
    git("add", f"src/lib/{name}/{name}.am")
git("add", "src/lib/lib.am")
for frag in fragments:
    git("rm", "-q", frag)
mk = open("Makefile.am").read()
lines = mk.splitlines(keepends=True)
idx = [i for i, l in enumerate(lines) if re.fullmatch(r"include src/lib/[^/]+\.am\n", l)]
if not idx:
    die("Makefile.am has no 'include src/lib/X.am' line")
newinc = ["include src/lib/lib.am\n"] + [f"include src/lib/{n}/{n}.am\n" for n in names]
lines = [l for i, l in enumerate(lines) if i not in idx]
lines[idx[0]:idx[0]] = newinc
open("Makefile.am", "w").write("".join(lines))

# 4. paths in build files, scripts and docs
frag_new = {}
for frag in fragments:
    base = os.path.basename(frag)[:-3]
    frag_new[frag] = {"core": "src/lib/core/core.am", "parse": "src/lib/bots/bots.am",
                      "text": "src/lib/mail/mail.am", "forward": "src/lib/forward/forward.am",
                      "memory": "src/lib/memory/memory.am"}.get(base, "src/lib/lib.am")
pairs = sorted(list(((o, n) for o, n in moves.items() if o != n)) + list(frag_new.items()),
               key=lambda p: -len(p[0]))
def paths(text):
    for o, n in pairs:
        text = re.sub(re.escape(o) + r"(?![\w.-])", n, text)
    return text
for p in git("ls-files").split():
    if not os.path.isfile(p) or p.startswith(("tests/corpus/", "tests/tui/screens/")):
        continue
    if p == "tools/layout-move.sh":
        continue
    if not (p.endswith((".am", ".ac", ".sh", ".c", ".h", ".md", ".py", ".1")) or
            os.path.basename(p) in ("HACKING", "README", "quickstart", "run")):
        continue
    try:
        text = open(p).read()
    except UnicodeDecodeError:
        continue
    new = paths(text)
    if p == "tests/fuzz/run.sh":
        # It builds every library file that needs no notmuch.
        new2 = new.replace('"$top"/src/lib/*.c "$top"/src/lib/bots/*.c', '"$top"/src/lib/*/*.c')
        new2 = new2.replace('"$top"/src/lib/*.h', '"$top"/src/lib/*/*.h')
        new2 = new2.replace('pattern="$pattern|include *\\"$h\\""',
                            'pattern="$pattern|include *\\"([^\\"]*/)?$h\\""')
        if new2.count("src/lib/*/*") != 2 or "([^" not in new2:
            print("layout-move: warning: tests/fuzz/run.sh changed shape; check its "
                  "globs over src/lib by hand")
        new = new2
    if new != text:
        open(p, "w").write(new)

# 5. READMEs and HACKING's map
def wrap(s, indent, width=72):
    out, line = [], ""
    for w in s.split():
        if line and len(indent) + len(line) + 1 + len(w) > width:
            out.append(indent + line)
            line = w
        else:
            line = (line + " " + w) if line else w
    if line:
        out.append(indent + line)
    return "\n".join(out)
for name, calls, owns in modules:
    files = sorted(os.path.relpath(p, f"src/lib/{name}") for p, mod in module_of.items()
                   if mod == name)
    readme = (f"src/lib/{name}/ -- the {name} module of libwinnow\n\n" + wrap(owns, "") +
              "\n\nIt may call: " + calls + ".  Its -private.h header is for its own\n"
              "files; the modules above reach it through its other headers and\n"
              "include/winnow/ (see HACKING, \"The layers\").\n\nFiles:\n" +
              wrap(" ".join(files), "    ") + "\n")
    open(f"src/lib/{name}/README", "w").write(readme)
    git("add", f"src/lib/{name}/README")
hack = open("HACKING").read()
start = hack.find("Inside src/lib, the same rule")
end = hack.find("Public headers live in include/winnow/")
if start < 0 or end < 0:
    die("HACKING: cannot find the src/lib map (between \"Inside src/lib, the same rule\" and "
        "\"Public headers live in include/winnow/\")")
m = ["Inside src/lib, the same rule: one folder per module, each calling only the\n"
     "modules below it (its README says what it owns and may call).  From the\n"
     "bottom up:\n\n"]
for name, calls, owns in modules:
    files = sorted(os.path.relpath(p, f"src/lib/{name}") for p, mod in module_of.items()
                   if mod == name)
    m.append(f"    {name}/" + " " * max(1, 10 - len(name)) + "calls: " + calls + "\n")
    m.append(wrap(owns, "                ") + "\n")
    m.append(wrap(" ".join(files), "                ") + "\n\n")
m.append("A module's private header (NAME-private.h) is included by its own\n"
         "files only.  Its other headers (core/str.h, index/props.h...) are what\n"
         "it offers the modules above it inside the library; what the front ends\n"
         "need goes into include/winnow/.  A new library file goes into its\n"
         "module's folder and that folder's NAME.am.\n\n")
hack = hack[:start] + "".join(m) + hack[end:]
open("HACKING", "w").write(hack)

# 6. what is left: private headers included across modules, and the
# module graph (private and public headers) with its circles.
pub = dict(l.split() for l in os.environ["PUBLIC"].splitlines() if l.strip())
# A module's private header ends in -private.h; its other headers are
# what it offers the modules above it inside the library.
private = {p: module_of[p] for p in module_of if p.endswith("-private.h")}
shared = {p: module_of[p] for p in module_of if p.endswith(".h") and p not in private}
edges, cross = {}, []
for p, mod in sorted(module_of.items()):
    for m2 in inc.finditer(open(p).read()):
        t = m2.group(2)
        cand = os.path.normpath(os.path.join(os.path.dirname(p), t))
        if cand in private:
            other = private[cand]
            if other != mod:
                cross.append(f"{p} includes {cand}")
        elif cand in shared:
            other = shared[cand]
        elif t.startswith("winnow/") and t[7:] in pub:
            other = pub[t[7:]]
        else:
            continue
        if other != mod:
            edges.setdefault(mod, set()).add(other)
print("layout-move: done.  Next: autoreconf -fi && ./configure && make && make check")
if cross:
    print("\nStill including another module's private header (work left for issue 22):")
    print("  " + "\n  ".join(cross))
print("\nModule graph (A -> B: a file of A includes a header of B):")
for a in names:
    print(f"  {a:8} -> {', '.join(sorted(edges.get(a, ()))) or '-'}")
rank = {n: i for i, n in enumerate(names)}
up = sorted(f"{a} -> {b}" for a in edges for b in edges[a] if rank[b] > rank[a])
if up:
    print("\nCalls up the layer order (each closes a circle or breaks the order):")
    print("  " + "\n  ".join(up))
PY
