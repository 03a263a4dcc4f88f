#!/usr/bin/env python3
"""measure.py: winnow against notmuch on prepared benchmark indexes.

    measure.py --winnow BIN --query Q [--reps N] [--json FILE] INDEX...

Each INDEX is a directory made by run.sh: notmuch-config, mail/ (the
notmuch database) and manifest.json.  For every figure in FIGURES the
winnow command and its notmuch reference run in turn in each repetition
(the order alternating), so machine noise hits both; the table shows
medians, the ratio winnow/notmuch (the median of the repetitions'
ratios), the target of issue 23 and winnow's peak resident set.  With
several indexes a growth line follows.

The figures after new mail (issue 42) run on a copy of the index, made
once per index in the scratch folder (never the cached one): winnow runs
once over the copy, then mail arrives (one unrelated mail, or 100 copies
of reviews under new Message-IDs) and `notmuch new` indexes it, then
winnow runs again, timed; the reference runs over the same copy.
"""
import argparse
import json
import os
import re
import select
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))

# The honest reference: notmuch printing the same reviews, bodies
# included, and nothing else.  Without --entire-thread=false, `notmuch
# show --format=json` prints every message of each matching thread (the
# patches and human replies too): about 3.7 times the work, which made
# the figures before issue 23 look better than they were.
NM_SHOW = ["notmuch", "show", "--format=json", "--body=true", "--entire-thread=false", "{query}"]

# "Now" for the queue's first screen (its 1/7/28/112/448-day windows): the
# end of the year bench/gen.py writes, so that a figure taken on any day
# means the same.  WINNOW_NOW is winnow's own (wn_now()).
sys.path.insert(0, HERE)
import gen_mail  # noqa: E402
CORPUS_NOW = int(gen_mail.START + gen_mail.SPAN)


class Figure:
    """One line of the table.  kind: "screen" (the TUI in tmux, timed
    until its first screen is drawn: a review row with its counts and
    badge, and the status line; memory after scrolling to the last
    review), "batch" (a command over every review), "verdict" (a write,
    the value alternating so that every call writes).  cache: "cold"
    (winnow's cache of parsed reviews removed before every run, so the
    run parses everything and writes the cache), "warm" (the cache the
    previous run left: the index unchanged since), None (as it is)."""

    def __init__(self, name, kind, winnow, reference, target, growth, cache=None, warm=None):
        self.name, self.kind, self.winnow, self.reference = name, kind, winnow, reference
        self.target, self.growth, self.cache, self.warm = target, growth, cache, warm


# name, kind, winnow command, reference command, target ratio (winnow /
# notmuch), growth target from the smallest to the largest index, cache.
# Stats cold's target is 1.0, not 0.8: bench/floor.c measured what
# libnotmuch alone must do for it at 0.50 (0.67 with the bots' parsers),
# which leaves 0.8 out of reach within the design (RESULTS.md).
LIST = ["{winnow}", "list", "--format=json"]
STATS = ["{winnow}", "stats"]
EXPORT = ["{winnow}", "export", "--format=sarif"]
FIGURES = [
    Figure("first screen", "screen", ["{winnow}"], ["notmuch", "search", "--limit=50", "{query}"], 1.0, "flat"),
    Figure("list cold", "batch", LIST, NM_SHOW, 0.8, "linear", "cold"),
    Figure("list warm", "batch", LIST, NM_SHOW, 0.2, "linear", "warm"),
    Figure("stats cold", "batch", STATS, NM_SHOW, 1.0, "linear", "cold"),
    Figure("stats warm", "batch", STATS, NM_SHOW, 0.2, "linear", "warm"),
    Figure("export cold", "batch", EXPORT, NM_SHOW, 0.8, "linear", "cold"),
    Figure("export warm", "batch", EXPORT, NM_SHOW, 0.2, "linear", "warm"),
    Figure("one verdict", "verdict", ["{winnow}", "mark", "{review}", "1", "{state}"],
           ["notmuch", "tag", "{tag}", "--", "id:{review}"], 2.0, "flat"),
    # After new mail (issue 42), on the copy: cache "mail" (one mail no
    # review answers) or "reviews" (100 new reviews); warm: what ran
    # before the mail came (the command itself, or for the queue's first
    # screen a list, which fills the same cache of parsed reviews).
    Figure("stats +1 mail", "newmail", STATS, NM_SHOW, 0.15, "linear", "mail"),
    Figure("stats +100 rev", "newmail", STATS, NM_SHOW, 0.25, "linear", "reviews"),
    Figure("list +1 mail", "newmail", LIST, NM_SHOW, 0.15, "linear", "mail"),
    Figure("list +100 rev", "newmail", LIST, NM_SHOW, 0.25, "linear", "reviews"),
    Figure("screen +100 rev", "newmail", ["{winnow}"], ["notmuch", "search", "--limit=50", "{query}"],
           1.0, "flat", "reviews", warm=LIST),
]
NEW_REVIEWS = 100
SCREEN_REPS = 9  # the first screen's repetitions, whatever --reps says
PEAK_MIB = 64  # every command and the TUI
FLAT = 1.5     # "flat" growth: at most this factor however big the index
STATES = ("valid", "false-positive")
TAGS = ("+winnow-bench", "-winnow-bench")

# A queue row: date, bot, highest severity, attribution badge, findings
# counted by verdict ("2026-11-04 Sashiko   High     [M]  2: 2u 0v 0f 0p").
ROW = re.compile(r"^\d{4}-\d\d-\d\d .{1,40}\[[A-Za-z?\- ]\] +\d+: *\d+u +\d+v +\d+f +\d+p")
# The status line, drawn below the rows: with it the whole first screen
# is there, as notmuch's 50 lines are when its marker follows them.
STATUS = re.compile(r"\[queue\] \d+/\d+")
DONE = "BENCH-DONE"


def first_screen(s):
    return any(ROW.match(x) for x in s) and any(STATUS.search(x) for x in s[-2:])


class Failed(Exception):
    pass


class TmuxGone(Failed):
    """The tmux server went away under a run: tmux's failure, not
    winnow's or notmuch's."""


def subst(argv, **kw):
    return [a.format(**kw) for a in argv]


# GNU time reports the peak resident set.  wait4() from here would not:
# a child forked from Python keeps Python's peak (about 16 MiB) as its
# own across exec, which hides anything smaller.
GNU_TIME = "/usr/bin/time"


def peak_kib(path):
    """GNU time's -o file: a line about a failed status, then %M."""
    with open(path) as f:
        return int(f.read().split()[-1])


def run_timed(argv, env, timeout=1800):
    """Run argv with stdout to /dev/null; (wall ms, peak KiB, CPU ms).
    CPU time, user and system, is what the command itself spent: other
    work on a shared machine slows the wall clock, much less this.
    wait4() gives it to the microsecond (GNU time only to 10 ms)."""
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile() as kib:
        t0 = time.perf_counter()
        p = subprocess.Popen([GNU_TIME, "-f", "%M", "-o", kib.name] + argv, env=env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        killer = threading.Timer(timeout, p.kill)
        killer.start()
        _, status, usage = os.wait4(p.pid, 0)
        ms = (time.perf_counter() - t0) * 1000
        killer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            msg = err.read().decode(errors="replace").strip().splitlines()
            raise Failed(f"exit {p.returncode}: {' '.join(argv)}: {msg[-1] if msg else ''}")
        return ms, peak_kib(kib.name), (usage.ru_utime + usage.ru_stime) * 1000


class Tmux:
    """A private tmux server with one 200x50 pane, driven through control
    mode: commands go down a pipe and tmux says when the pane got output,
    so the screen is captured right after each draw instead of on a
    timer, and every capture costs no process.

    One server per run, started before the clock and killed after it:
    tmux 3.3a (Debian 12's) was seen to die now and then, about one
    run in forty on a loaded machine, when respawn-pane -k replaced a
    pane that had just drawn a full screen for this control client.  A
    fresh server only ever replaces its idle sleep, never a drawing
    pane."""

    serial = 0

    def __init__(self, env, cols=200, rows=50):
        Tmux.serial += 1
        self.sock = f"winnow-bench-{os.getpid()}-{Tmux.serial}"
        self.env = env
        base = ["tmux", "-L", self.sock, "-f", "/dev/null"]
        subprocess.run(base + ["new-session", "-d", "-x", str(cols), "-y", str(rows), "-s", "b", "sleep 1000000"],
                       env=env, check=True)
        for opt in (["window-size", "manual"], ["automatic-rename", "off"], ["remain-on-exit", "on"]):
            subprocess.run(base + ["set", "-g"] + opt, env=env, check=True)
        # kill-server leaves the socket file behind: close() removes it.
        self.socket_path = subprocess.run(base + ["display", "-p", "#{socket_path}"], env=env, check=True,
                                          capture_output=True, text=True).stdout.strip()
        self.ctl = subprocess.Popen(base + ["-C", "attach", "-t", "b"], env=env,
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buf, self.block, self.blocks, self.output = b"", None, [], False
        self.cmd("display -p ok")  # past the attach's own reply

    def _pump(self, timeout):
        """Read what tmux has said within timeout seconds."""
        fd = self.ctl.stdout.fileno()
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            return
        data = os.read(fd, 1 << 16)
        if not data:
            raise TmuxGone("tmux control client went away")
        self.buf += data
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            self._line(line.decode("utf-8", "replace"))

    def _line(self, line):
        if self.block is not None:
            if line.startswith(("%end ", "%error ")):
                self.blocks.append((line.startswith("%end "), self.block))
                self.block = None
            else:
                self.block.append(line)
        elif line.startswith("%begin "):
            self.block = []
        elif line.startswith("%output "):
            self.output = True
        elif line.startswith("%exit"):
            raise TmuxGone(f"tmux went away ({line})")

    def cmd(self, text):
        self.ctl.stdin.write(text.encode() + b"\n")
        self.ctl.stdin.flush()
        deadline = time.perf_counter() + 10
        while not self.blocks:
            if time.perf_counter() > deadline:
                raise Failed(f"tmux did not answer: {text}")
            self._pump(0.5)
        ok, lines = self.blocks.pop(0)
        if not ok:
            raise Failed(f"tmux: {text}: {' '.join(lines)}")
        return lines

    def screen(self):
        return self.cmd("capture-pane -p -t b")

    def start(self, script):
        """Replace whatever runs in the pane by script; returns when
        tmux has started it."""
        self.cmd(f"respawn-pane -k -t b {script}")

    def keys(self, *keys):
        self.cmd("send-keys -t b " + " ".join(keys))

    def wait(self, pred, t0, timeout):
        """Capture after each burst of output until pred(screen); the
        seconds since t0 and the screen."""
        while True:
            self.output = False
            s = self.screen()
            if pred(s):
                return time.perf_counter() - t0, s
            if time.perf_counter() - t0 > timeout:
                raise Failed("timed out; the screen shows:\n  " + "\n  ".join(x for x in s if x.strip()))
            if not self.output:
                self._pump(0.02)

    def close(self):
        try:
            pid = int(self.cmd("display -p -t b '#{pane_pid}'")[0])
        except (Failed, OSError, ValueError, IndexError):
            pid = None
        try:
            self.ctl.stdin.close()
        except OSError:
            pass
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], env=self.env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.ctl.wait()
        # The pane's program ends on the hangup; the next run starts
        # once it has, so that it never shares the machine with it.
        deadline = time.perf_counter() + 10
        while pid and time.perf_counter() < deadline:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    # A zombie has ended: whether its new parent reaps
                    # it soon is not ours to wait for.
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        break
            except (OSError, IndexError):
                break
            time.sleep(0.01)
        if self.socket_path.endswith("/" + self.sock):
            try:
                os.unlink(self.socket_path)
            except FileNotFoundError:
                pass


def script(path, text):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + text)
    os.chmod(path, 0o755)
    return path


class Index:
    """One prepared index and everything measured on it."""

    def __init__(self, path, args):
        self.path = os.path.abspath(path)
        with open(os.path.join(self.path, "manifest.json")) as f:
            self.manifest = json.load(f)
        self.scratch = tempfile.mkdtemp(prefix="winnow-bench.")
        env = dict(os.environ)
        env.pop("NOTMUCH_PROFILE", None)
        env.pop("NOTMUCH_DATABASE", None)
        env.update(NOTMUCH_CONFIG=os.path.join(self.path, "notmuch-config"), HOME=self.scratch,
                   XDG_STATE_HOME=os.path.join(self.scratch, "state"),
                   XDG_CACHE_HOME=os.path.join(self.scratch, "cache"),
                   XDG_CONFIG_HOME=os.path.join(self.scratch, "config"), LC_ALL="C.UTF-8",
                   WINNOW_NOW=str(CORPUS_NOW))
        env.pop("TMUX", None)
        env.pop("WINNOW_NO_CACHE", None)
        self.env = env
        # A cold run's cache: its own folder, removed before each run.
        self.cold_cache = os.path.join(self.scratch, "cold-cache")
        self.cold_env = dict(env, XDG_CACHE_HOME=self.cold_cache)
        self.vars = dict(winnow=args.winnow, query=args.query, review=self.manifest["mark_target"])
        self.reviews = int(subprocess.run(["notmuch", "count", args.query], env=env, check=True,
                                          capture_output=True, text=True).stdout)
        self.samples = {f.name: {k: [] for k in ("wn", "nm", "wn_kib", "nm_kib", "wn_cpu", "nm_cpu")}
                        for f in FIGURES}
        self.status = {}
        self.copy_env, self.delivered = None, 0
        # Runs redone because tmux went away under them, by figure.
        self.tmux_retries = {}

    def close(self):
        shutil.rmtree(self.scratch, ignore_errors=True)


def built(fig, ix):
    """Whether winnow has the figure's subcommand: 'winnow CMD --help'
    succeeds only for a command that exists (without a terminal, an
    unknown word would be a query for the TUI, which then refuses)."""
    if len(fig.winnow) < 2:
        return True
    argv = subst(fig.winnow[:2], **ix.vars) + ["--help"]
    try:
        return subprocess.run(argv, env=ix.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=20).returncode == 0
    except subprocess.TimeoutExpired:
        return False


# --- one run of one side of one figure ------------------------------------

def in_tmux(ix, fig, run, env=None):
    """run(t) on a fresh tmux server; redone (twice at most) when tmux
    itself goes away, each redo counted in the figure's JSON."""
    for attempt in range(3):
        t = Tmux(env or ix.env)
        try:
            return run(t)
        except TmuxGone:
            if attempt == 2:
                raise
            ix.tmux_retries[fig.name] = ix.tmux_retries.get(fig.name, 0) + 1
        finally:
            t.close()


def screen_run(ix, fig, side, rep, env=None):
    return in_tmux(ix, fig, lambda t: screen_once(ix, fig, side, t), env)


def screen_once(ix, fig, side, t):
    if side == "wn":
        sh = script(os.path.join(ix.scratch, "wn.sh"), "exec " + shlex.join(subst(fig.winnow, **ix.vars)) + "\n")
        pred = first_screen
    else:
        sh = script(os.path.join(ix.scratch, "nm.sh"),
                    # The shell stays: tmux can drop the last output of a
                    # pane whose process is already gone.
                    shlex.join(subst(fig.reference, **ix.vars)) + f"\necho {DONE}\nexec sleep 1000000\n")
        pred = lambda s: any(x.startswith(DONE) for x in s)  # noqa: E731
    t0 = time.perf_counter()
    t.start(sh)
    secs, _ = t.wait(pred, t0, 120)
    return secs * 1000, None, pane_cpu_ms(t)


def pane_cpu_ms(t):
    """The CPU time (user + system) the pane's process has taken, its
    waited-for children's included (notmuch under the reference's
    shell; exec keeps both), read once the screen is there: to the
    clock tick (10 ms)."""
    try:
        # A capture's reply may still wait ahead of this one's.
        for _ in range(3):
            pid = [x[4:] for x in t.cmd("display -p -t b 'pid=#{pane_pid}'") if x.startswith("pid=")]
            if pid:
                break
        with open(f"/proc/{int(pid[0])}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # utime, stime, cutime, cstime: fields 14-17 of proc(5).
        return sum(int(x) for x in fields[11:15]) * 1000 / os.sysconf("SC_CLK_TCK")
    except (Failed, OSError, ValueError, IndexError):
        return None


def tui_peak(ix, fig):
    """The TUI's peak resident set after G (the last review), in KiB."""
    return in_tmux(ix, fig, lambda t: tui_peak_once(ix, fig, t))


def tui_peak_once(ix, fig, t):
    out = os.path.join(ix.scratch, "tui.maxrss")
    if os.path.exists(out):
        os.unlink(out)
    argv = [GNU_TIME, "-f", "%M", "-o", out] + subst(fig.winnow, **ix.vars)
    t.start(script(os.path.join(ix.scratch, "wn-mem.sh"), "exec " + shlex.join(argv) + "\n"))
    _, s = t.wait(first_screen, time.perf_counter(), 120)
    m = re.search(r"(\d+) reviews?\b", s[0])
    total = m.group(1) if m else r"\d+"
    t.keys("G")
    last = re.compile(r"\[queue\] (%s)/(%s)\b" % (total, total))
    t.wait(lambda s: any(last.search(x) for x in s), time.perf_counter(), 300)
    t.keys("Q")
    # GNU time fills its file once winnow has exited.  (Not "Pane is
    # dead": a child winnow leaves behind may hold the terminal longer.)
    deadline = time.perf_counter() + 60
    while True:
        try:
            return peak_kib(out)
        except (OSError, ValueError, IndexError):
            if time.perf_counter() > deadline:
                raise Failed("winnow did not exit within 60 s of Q; the screen shows:\n  " +
                             "\n  ".join(x for x in t.screen() if x.strip()))
            time.sleep(0.02)


def batch_run(ix, fig, side, rep):
    if side == "nm":
        return run_timed(subst(fig.reference, **ix.vars), ix.env)
    env = ix.env
    if fig.cache == "cold":
        shutil.rmtree(ix.cold_cache, ignore_errors=True)
        env = ix.cold_env
    elif fig.cache == "warm":
        # "The run before" over the index as it is now: the other
        # figures change it between two warm runs (one verdict marks a
        # review; a mark moves the index's revision too).
        run_timed(subst(fig.winnow, **ix.vars), env)
    return run_timed(subst(fig.winnow, **ix.vars), env)


def verdict_run(ix, fig, side, rep):
    # A new value every call, so every call writes.
    argv = fig.winnow if side == "wn" else fig.reference
    return run_timed(subst(argv, state=STATES[rep % 2], tag=TAGS[rep % 2], **ix.vars), ix.env)


def verdict_restore(ix):
    """Leave the cached index as it was made."""
    run_timed([ix.vars["winnow"], "mark", ix.vars["review"], "all", "untriaged"], ix.env)
    run_timed(["notmuch", "tag", TAGS[1], "--", "id:" + ix.vars["review"]], ix.env)


# --- after new mail, on a copy of the index ---------------------------------

def index_copy(ix):
    """The copy of ix's index the figures after new mail change, made
    at the first of them: its environment (the same caches)."""
    if ix.copy_env is None:
        copy = os.path.join(ix.scratch, "copy")
        shutil.copytree(os.path.join(ix.path, "mail"), os.path.join(copy, "mail"), symlinks=True)
        with open(os.path.join(ix.path, "notmuch-config")) as f:
            conf = re.sub(r"(?m)^path=.*$", lambda m: "path=" + os.path.join(copy, "mail"), f.read())
        with open(os.path.join(copy, "notmuch-config"), "w") as f:
            f.write(conf)
        # Its own caches: the copy has the database's uuid.
        ix.copy_env = dict(ix.env, NOTMUCH_CONFIG=os.path.join(copy, "notmuch-config"),
                           XDG_CACHE_HOME=os.path.join(copy, "cache"))
        ix.copy_mail = os.path.join(copy, "mail")
        # Every review's files (a review may have several), to copy
        # from: chosen the same way in every run.
        out = subprocess.run(["notmuch", "search", "--output=files", ix.vars["query"]], env=ix.copy_env,
                             check=True, capture_output=True, text=True).stdout
        ix.review_files = sorted(set(x for x in out.splitlines() if x))
    return ix.copy_env


MSGID = re.compile(rb"(?im)^message-id:[ \t]*<[^>\r\n]*>")


def deliver(ix, what, rep):
    """Mail arriving in the copy, indexed by `notmuch new`: one mail no
    review answers, or NEW_REVIEWS reviews copied under new Message-IDs
    (answering the patches they answered: their threads grow)."""
    env = index_copy(ix)
    folder = os.path.join(ix.copy_mail, "new")
    ix.delivered += 1
    tag = f"{os.getpid()}-{ix.delivered}"
    if what == "mail":
        date = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(CORPUS_NOW - 3600))
        with open(os.path.join(folder, f"bench-{tag}.mail"), "wb") as f:
            f.write((f"From: Bench Sender <sender@bench.invalid>\nTo: bench@bench.invalid\n"
                     f"Subject: unrelated mail {tag}\nDate: {date}\n"
                     f"Message-ID: <unrelated-{tag}@bench.invalid>\n\nNothing a review answers.\n").encode())
    else:
        rnd = __import__("random").Random(f"{rep}-{ix.delivered}")
        for k, src in enumerate(rnd.sample(ix.review_files, min(NEW_REVIEWS, len(ix.review_files)))):
            with open(src, "rb") as f:
                data = f.read()
            data, n = MSGID.subn(f"Message-ID: <review-{tag}-{k}@bench.invalid>".encode(), data, count=1)
            if n:
                with open(os.path.join(folder, f"bench-{tag}-{k}.mail"), "wb") as f:
                    f.write(data)
    subprocess.run(["notmuch", "new", "--quiet"], env=env, check=True,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def newmail_run(ix, fig, side, rep):
    env = index_copy(ix)
    if side == "nm":
        if fig.winnow == ["{winnow}"]:
            return screen_run(ix, fig, side, rep, env)
        return run_timed(subst(fig.reference, **ix.vars), env)
    # The run before the mail came, over the copy as it is.
    run_timed(subst(fig.warm or fig.winnow, **ix.vars), env)
    deliver(ix, fig.cache, rep)
    if fig.winnow == ["{winnow}"]:
        return screen_run(ix, fig, side, rep, env)
    return run_timed(subst(fig.winnow, **ix.vars), env)


RUNNERS = {"screen": screen_run, "batch": batch_run, "verdict": verdict_run, "newmail": newmail_run}


def measure(ix, reps, only=None):
    figs = []
    for fig in FIGURES:
        if only and not re.search(only, fig.name):
            ix.status[fig.name] = "not asked"
        elif built(fig, ix):
            figs.append(fig)
        else:
            ix.status[fig.name] = "not built yet"
    # One unmeasured round first: the page cache then holds the index
    # for both sides alike.  Then the measured rounds, the order of the
    # two sides alternating.  The first screen comes first, in rounds of
    # its own: the index as the run before left it, which is what "the
    # first screen" means.  Measured after the verdict figure's writes
    # (winnow mark, and notmuch tag for the reference) it was the screen
    # after another program changed the index, which searches by date
    # (README, "Speed"): that case is "screen +100 rev"'s.  The figures
    # after new mail come last, in rounds of their own: they run on a
    # copy of the index, and at a million messages the index and its
    # copy (10 GB each) no longer both fit in the page cache, so that
    # every figure measured after the copy was made read the index from
    # the disk again.
    for group in ([f for f in figs if f.kind == "screen"],
                  [f for f in figs if f.kind not in ("screen", "newmail")],
                  [f for f in figs if f.kind == "newmail"]):
        # A screen takes some 15-50 ms, within a few of tmux's own and
        # of the machine's hiccups: at least SCREEN_REPS of them.
        for rep in range(-1, max(reps, SCREEN_REPS) if group and group[0].kind == "screen" else reps):
            for fig in group:
                if fig.name in ix.status:
                    continue
                sides = ("nm", "wn") if rep % 2 else ("wn", "nm")
                try:
                    for side in sides:
                        ms, kib, cpu = RUNNERS[fig.kind](ix, fig, side, rep)
                        if rep >= 0:
                            ix.samples[fig.name][side].append(ms)
                            if kib is not None:
                                ix.samples[fig.name][side + "_kib"].append(kib)
                            if cpu is not None:
                                ix.samples[fig.name][side + "_cpu"].append(cpu)
                except Failed as e:
                    ix.status[fig.name] = f"failed: {e}"
    for fig in figs:
        try:
            if fig.kind == "screen" and fig.name not in ix.status:
                ix.samples[fig.name]["wn_kib"].append(tui_peak(ix, fig))
            if fig.kind == "verdict":
                verdict_restore(ix)
        except Failed as e:
            ix.status[fig.name] = f"failed: {e}"


# --- the report -----------------------------------------------------------

def median(xs):
    return statistics.median(xs) if xs else None


def result(ix, fig):
    s = ix.samples[fig.name]
    nm, wn = median(s["nm"]), median(s["wn"])
    peak = max(s["wn_kib"]) / 1024 if s["wn_kib"] else None
    nm_peak = max(s["nm_kib"]) / 1024 if s["nm_kib"] else None
    # Pair by pair, as the two ran back to back: a drift in the
    # machine's speed during the run then moves neither side alone.
    ratio = median([w / n for w, n in zip(s["wn"], s["nm"]) if n > 0])
    cpu_ratio = median([w / n for w, n in zip(s["wn_cpu"], s["nm_cpu"]) if n > 0])
    met = None
    if ratio is not None:
        met = ratio <= fig.target and (peak is None or peak <= PEAK_MIB)
    return dict(figure=fig.name, status=ix.status.get(fig.name, "ok"), notmuch_ms=nm, winnow_ms=wn,
                ratio=ratio, cpu_ratio=cpu_ratio, target=fig.target, winnow_peak_mib=peak, notmuch_peak_mib=nm_peak,
                peak_target_mib=PEAK_MIB, met=met, runs=len(s["wn"]),
                tmux_retries=ix.tmux_retries.get(fig.name, 0),
                winnow_runs_ms=s["wn"], notmuch_runs_ms=s["nm"],
                winnow_runs_cpu_ms=s["wn_cpu"], notmuch_runs_cpu_ms=s["nm_cpu"])


def fmt(x, spec):
    width = int(re.match(r"\d*", spec).group() or 0)
    return "-".rjust(width) if x is None else format(x, spec)


def table(ix, reps):
    m = ix.manifest
    print(f"\n{m['messages']} messages (seed {m['seed']}), {ix.reviews} matching winnow's query; "
          f"median of {reps} run{'s' if reps > 1 else ''}")
    print(f"  {'figure':<16}{'notmuch ms':>12}{'winnow ms':>11}{'ratio':>7}{'target':>8}"
          f"{'peak MiB':>10}{'nm MiB':>8}  {'met':<12}{'cpu ratio':>9}")
    rows = []
    for fig in FIGURES:
        r = result(ix, fig)
        rows.append(r)
        if r["status"] == "not asked":
            continue
        if r["status"] != "ok":
            print(f"  {fig.name:<16}{r['status']}")
            continue
        met = "yes" if r["met"] else "NO"
        if r["met"] is False and r["ratio"] <= fig.target:
            met = "NO (memory)"
        print(f"  {fig.name:<16}{fmt(r['notmuch_ms'], '12.1f')}{fmt(r['winnow_ms'], '11.1f')}"
              f"{fmt(r['ratio'], '7.2f')}{'<=' + format(fig.target, 'g'):>8}"
              f"{fmt(r['winnow_peak_mib'], '10.1f')}{fmt(r['notmuch_peak_mib'], '8.1f')}  {met:<12}"
              f"{fmt(r['cpu_ratio'], '9.2f')}")
        if r["tmux_retries"]:
            print(f"  {'':<16}(tmux went away under {r['tmux_retries']} run(s); each was run again)")
    print(f"  ratio: winnow / notmuch, the median of each repetition's, against issue 23's target;\n"
          f"  peak MiB: winnow's maximum resident set (for the first screen, the TUI's after G, on\n"
          f"  the last review), target <= {PEAK_MIB}; nm MiB: notmuch's; met: both targets; cpu ratio:\n"
          f"  the same ratio in user+system time, which others' load on the machine disturbs less;\n"
          f"  cold: winnow's cache of parsed reviews removed before each run; warm: the cache the\n"
          f"  run before left, the index unchanged; reference for both: notmuch show\n"
          f"  --format=json --body=true --entire-thread=false (the same reviews, nothing more);\n"
          f"  +1 mail, +100 rev: on a copy of the index, winnow run once, then one mail no review\n"
          f"  answers or {NEW_REVIEWS} new reviews and notmuch new, then winnow timed (the screen after\n"
          f"  a list); a screen's cpu: its process's, read at the first screen, to the clock tick;\n"
          f"  the first screen: {max(reps, SCREEN_REPS)} runs, before any figure that writes (the index\n"
          f"  as the run before left it)")
    return dict(messages=m["messages"], seed=m["seed"], reviews=ix.reviews, figures=rows)


def growth(results):
    """How each figure grows with the index: winnow's time at every size,
    then from the smallest to the largest, against the growth of the
    reviews (linear: at most 1.1 times theirs) or flat (at most FLAT);
    peak memory at every size against PEAK_MIB."""
    if len(results) < 2:
        return
    results = sorted(results, key=lambda r: r["messages"])
    a, b = results[0], results[-1]
    rev = b["reviews"] / a["reviews"] if a["reviews"] else None
    sizes = "".join(f"{r['messages']:>11}" for r in results)
    print(f"\ngrowth: winnow ms at each size (messages), and from {a['messages']} to {b['messages']}")
    print(f"  {'figure':<16}{sizes}   growth  cpu     notmuch  target          met")
    print(f"  {'reviews':<16}" + "".join(f"{r['reviews']:>11}" for r in results) + f"   x{fmt(rev, '<6.1f')}")
    for i, fig in enumerate(FIGURES):
        rows = [r["figures"][i] for r in results]
        cells = "".join(fmt(x["winnow_ms"], "11.1f") for x in rows)
        fa, fb = rows[0], rows[-1]
        if not all((fa["winnow_ms"], fb["winnow_ms"], fa["notmuch_ms"], fb["notmuch_ms"])):
            print(f"  {fig.name:<16}{cells}   -")
            continue
        g = fb["winnow_ms"] / fa["winnow_ms"]
        nm = fb["notmuch_ms"] / fa["notmuch_ms"]
        ca, cb = median(fa.get("winnow_runs_cpu_ms") or []), median(fb.get("winnow_runs_cpu_ms") or [])
        cpu = cb / ca if ca and cb else None
        limit = FLAT if fig.growth == "flat" else (rev or 0) * 1.1
        peaks = [x["winnow_peak_mib"] for x in rows if x["winnow_peak_mib"] is not None]
        ok = g <= limit and all(p <= PEAK_MIB for p in peaks)
        print(f"  {fig.name:<16}{cells}   x{g:<6.2f} {'x' + format(cpu, '.2f') if cpu else '-':<7} x{nm:<6.2f}  {fig.growth + ', <= x' + format(limit, '.1f'):<15} "
              f"{'yes' if ok else 'NO'}")
    print(f"  growth: winnow's wall clock, smallest to largest; cpu: its user+system time's;\n"
          f"  notmuch: its reference's wall clock; met: growth within\n"
          f"  the target and peak memory <= {PEAK_MIB} MiB at every size")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--winnow", required=True)
    ap.add_argument("--query", required=True)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--figures", help="measure only the figures whose names this regex finds")
    ap.add_argument("index", nargs="+")
    args = ap.parse_args()
    args.winnow = os.path.abspath(args.winnow)
    results, failed = [], False
    for path in args.index:
        ix = Index(path, args)
        try:
            measure(ix, args.reps, args.figures)
            results.append(table(ix, args.reps))
        finally:
            ix.close()
        failed |= any(s.startswith("failed") for s in ix.status.values())
    growth(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
