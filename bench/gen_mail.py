"""Mail of the benchmark corpus that people send (patches, cover
letters, replies), the generator's state, and the bytes of a mail."""
import base64
import binascii
import datetime
import random

import gen_text as T

START = datetime.datetime(2025, 9, 1, tzinfo=datetime.timezone.utc).timestamp()
SPAN = 365 * 86400


class Person:
    def __init__(self, name, email, tz):
        self.name, self.email, self.tz = name, email, tz
        self.first = name.split()[0]

    @property
    def addr(self):
        return f"{self.name} <{self.email}>"


class Patch:
    """One patch mail of one version of a series, with what a reviewer
    quotes from it."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


class Ctx:
    """The generator's state: the seeded random source, the clock, the
    people, and what later mails refer back to."""

    def __init__(self, n, seed):
        self.rng = random.Random(seed)
        self.n = n
        self.written = 0
        self.now = START
        self.serial = 0
        self.counts = {}
        self.truth = []
        self.mark_target = None
        self.people = self._people()
        self.maintainers = self.people[:24]
        self.net_maintainers = self.people[24:28]
        self.forwarder = self.people[28]  # forwards smatch reports
        self.subsystems = self._subsystems()
        self.applied = []  # patches a tree report can blame

    def _people(self):
        rng = self.rng
        seen, out = set(), []
        tzs = [-8, -7, -5, 0, 1, 2, 3, 5.5, 8, 9]
        while len(out) < 420:
            name = f"{rng.choice(T.FIRST)} {rng.choice(T.LAST)}"
            if name in seen:
                continue
            seen.add(name)
            local = name.lower().replace(" ", ".")
            out.append(Person(name, f"{local}@{rng.choice(T.DOMAINS)}", rng.choice(tzs)))
        return out

    def _subsystems(self):
        out = []
        for i, (key, lst, path, prefix, tree) in enumerate(T.SUBSYSTEMS):
            drivers = []
            while len(drivers) < 12:
                d = "".join(self.rng.choice(T.SYLLABLES) for _ in range(self.rng.choice((1, 2))))
                if d not in drivers and len(d) >= 3:
                    drivers.append(d)
            out.append(dict(key=key, list=lst, path=path, prefix=prefix, tree=tree,
                            drivers=drivers, maint=self.maintainers[i % len(self.maintainers)]))
        return out

    # --- time and identifiers -------------------------------------------

    def tick(self):
        """Advance the clock by one message's worth: the year spreads
        over N messages."""
        self.now += self.rng.expovariate(self.n / SPAN)
        return self.now

    def phase(self):
        """Where in the year we are, 0..1: bots change templates over it."""
        return min(1.0, (self.now - START) / SPAN)

    def date(self, tz):
        zone = datetime.timezone(datetime.timedelta(hours=tz))
        return datetime.datetime.fromtimestamp(self.now, zone).strftime("%a, %d %b %Y %H:%M:%S %z")

    def stamp(self, fmt="%Y%m%d%H%M%S"):
        return datetime.datetime.fromtimestamp(self.now, datetime.timezone.utc).strftime(fmt)

    def hexid(self, n):
        return "%0*x" % (n, self.rng.getrandbits(4 * n))

    def next_serial(self):
        self.serial += 1
        return self.serial

    def count(self, kind):
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def review(self, kind, msgid, findings):
        """A bot review: counted, and recorded with the number of
        findings its text holds, to check a parser against."""
        self.count("bot:" + kind)
        self.truth.append(dict(id=msgid.strip("<>"), kind=kind, findings=findings))


# --- mail bytes ---------------------------------------------------------

def fold(name, value):
    """Fold a header at spaces the way mailers do, so long subjects and
    Cc lists arrive folded."""
    line = f"{name}: {value}"
    if len(line) <= 78:
        return line + "\n"
    words = value.split(" ")
    out, cur = [], f"{name}: {words[0]}"
    for word in words[1:]:
        if len(cur) + 1 + len(word) > 76:
            out.append(cur)
            cur = " " + word
        else:
            cur = f"{cur} {word}"
    out.append(cur)
    return "\n".join(out) + "\n"


def encode(body, enc):
    data = body.encode("utf-8")
    if enc == "quoted-printable":
        return binascii.b2a_qp(data, istext=True)
    if enc == "base64":
        return base64.encodebytes(data)
    return data


def mail(headers, body, enc="8bit", multipart=False, boundary=None):
    """headers: list of (name, value), None values skipped."""
    head = "".join(fold(k, v) for k, v in headers if v is not None)
    head += "MIME-Version: 1.0\n"
    part = (f'Content-Type: text/plain; charset="utf-8"\n'
            f"Content-Transfer-Encoding: {enc}\n")
    if not multipart:
        return (head + part + "\n").encode() + encode(body, enc)
    top = f'Content-Type: multipart/mixed; boundary="{boundary}"\n\n'
    return ((head + top + f"--{boundary}\n" + part + "\n").encode() + encode(body, enc) +
            f"\n--{boundary}--\n".encode())


def list_headers(lst):
    return [("List-Id", f"<{lst}.vger.example.org>"),
            ("List-Subscribe", f"<mailto:{lst}+subscribe@vger.example.org>"),
            ("List-Unsubscribe", f"<mailto:{lst}+unsubscribe@vger.example.org>")]


# --- code and prose -------------------------------------------------------

def patch_vars(ctx, sub, d=None):
    """Names one patch talks about; a series keeps to one driver d."""
    rng = ctx.rng
    d = d or rng.choice(sub["drivers"])
    f, f2 = rng.sample(T.FIELDS, 2)
    v1, v2 = rng.sample(T.VERBS, 2)
    s = rng.choice(T.STRUCTS)
    return dict(d=d, D=d.upper(), s=s, f=f, f2=f2, F=f.upper(), v=v1, n=rng.choice((2, 4, 8, 16, 64, 256)),
                fn=f"{d}_{v1}", fn2=f"{d}_{v2}_{f}", arg=rng.choice(("pdev", "ndev", "hw", "data")),
                k=rng.randrange(12, 20), tree=sub["tree"])


def code_line(ctx, v):
    return ctx.rng.choice(T.CODE).format(**v)


def make_hunks(ctx, v, nfiles):
    """Files of hunks: [(path, [(header, [(op, text)])])]."""
    rng = ctx.rng
    sub_path = v["path"]
    files = []
    for i in range(nfiles):
        if "{d}" in v["path_t"]:
            path = f"{sub_path}/{v['d']}_{rng.choice(('main', 'core', 'hw', 'irq', 'dma', 'sysfs'))}.c"
        else:
            path = f"{sub_path}/{v['d']}{'' if i == 0 else '_' + str(i)}.c"
        hunks = []
        line = rng.randrange(30, 400)
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            line += rng.randrange(20, 200)
            fn = rng.choice((v["fn"], v["fn2"]))
            header = f"static int {fn}(struct {v['d']}_{v['s']} *{v['s']})"
            body = [(" ", code_line(ctx, v)) for _ in range(3)]
            for _ in range(rng.choice((1, 1, 2))):
                body += [("-", code_line(ctx, v)) for _ in range(rng.randrange(0, 3))]
                body += [("+", code_line(ctx, v)) for _ in range(rng.randrange(1, 6))]
                body += [(" ", code_line(ctx, v)) for _ in range(rng.randrange(1, 4))]
            hunks.append((line, header, body, fn))
        files.append((path, hunks))
    return files


def diff_text(files, quote=""):
    """The diff of a patch; quote="> " gives the reviewer's quoted form
    without the per-line comments (the bots add those)."""
    out = []
    for path, hunks in files:
        out += diff_file_head(path, quote)
        for h in hunks:
            out += diff_hunk(h, quote)
    return "".join(out)


def diff_file_head(path, quote=""):
    return [f"{quote}diff --git a/{path} b/{path}\n",
            # crc32, not hash(): str hashes change from run to run.
            f"{quote}index {binascii.crc32(path.encode()):08x}..{binascii.crc32(path[::-1].encode()):08x} 100644\n",
            f"{quote}--- a/{path}\n", f"{quote}+++ b/{path}\n"]


def diff_hunk(h, quote=""):
    line, header, body, _ = h
    old = sum(1 for op, _ in body if op != "+")
    new = sum(1 for op, _ in body if op != "-")
    out = [f"{quote}@@ -{line},{old} +{line},{new} @@ {header}\n"]
    out += [f"{quote}{op}{text}\n" for op, text in body]
    return out


def diffstat(files):
    rows, ins, dels = [], 0, 0
    for path, hunks in files:
        a = sum(1 for h in hunks for op, _ in h[2] if op == "+")
        r = sum(1 for h in hunks for op, _ in h[2] if op == "-")
        ins, dels = ins + a, dels + r
        rows.append(f" {path} | {a + r} {'+' * a}{'-' * r}\n")
    return "".join(rows) + (f" {len(files)} file{'s' if len(files) > 1 else ''} changed, "
                            f"{ins} insertions(+), {dels} deletions(-)\n")


def prose(ctx, v, pool, k=1):
    return " ".join(t.format(**v) for t in ctx.rng.sample(pool, k))


def wrap(text, width=72):
    out, cur = [], ""
    for word in text.split():
        if cur and len(cur) + 1 + len(word) > width:
            out.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    if cur:
        out.append(cur)
    return "\n".join(out)


def attribution(ctx):
    r = ctx.rng.random()
    if r < 0.60:
        return "none", None
    if r < 0.76:
        return "model", ctx.rng.choice(T.ATTR_MODEL)
    if r < 0.89:
        return "generic", ctx.rng.choice(T.ATTR_GENERIC)
    return "other", ctx.rng.choice(T.ATTR_OTHER)


# --- the mails people send ------------------------------------------------

def series_subject(series, k, version, resend):
    tag = series["tag"]
    parts = ["PATCH"]
    if resend:
        parts.append("RESEND")
    if tag:
        parts.append(tag)
    if version > 1:
        parts.append(f"v{version}")
    if series["n"] > 1:
        parts.append(f"{k}/{series['n']}")
    return f"[{' '.join(parts)}]"


def send_key(ctx, series, version):
    """What every Message-ID of one sending of a series shares: the
    date and b4's hash, or git send-email's time and process id."""
    if series["style"] == "b4":
        return f"{ctx.stamp('%Y%m%d')}-{series['slug']}-v{version}-", f"-{ctx.hexid(12)}"
    return f"{ctx.stamp()}.{series['pid'] + ctx.next_serial()}-", ""


def msgid_patch(series, key, k):
    head, tail = key
    author = series["author"]
    if series["style"] == "b4":
        return f"<{head}{k}{tail}@{author.email.split('@')[1]}>"
    return f"<{head}{k + 1}-{author.email}>"


def patch_mail(ctx, series, p, version, cover_id):
    author, sub = series["author"], series["sub"]
    v = p.vars
    trailers = []
    if ctx.rng.random() < 0.25:
        trailers.append(f"Fixes: {ctx.hexid(12)} (\"{sub['prefix'].format(d=v['d'])} add {v['f']} support\")")
    if ctx.rng.random() < 0.15:
        r = ctx.rng.choice(ctx.people)
        trailers.append(f"Reported-by: {r.addr}")
    if version > 1 and ctx.rng.random() < 0.4:
        trailers.append(f"Reviewed-by: {ctx.rng.choice(ctx.people).addr}")
    if series["attr_line"]:
        trailers.append(series["attr_line"])
    trailers.append(f"Signed-off-by: {author.addr}")
    body = (wrap(prose(ctx, v, T.WHY)) + "\n\n" + wrap(prose(ctx, v, T.HOW)) + "\n\n" +
            "\n".join(trailers) + "\n---\n" + diffstat(p.files) + "\n" + diff_text(p.files) +
            "-- \n2.51.0\n")
    headers = [("From", author.addr), ("To", sub["maint"].addr),
               ("Cc", f"{sub['list']}@vger.example.org, maintainer@example.org"),
               ("Subject", p.subject), ("Date", ctx.date(author.tz)), ("Message-ID", p.msgid),
               ("In-Reply-To", cover_id), ("References", cover_id),
               ("X-Mailer", "b4 0.15.0" if series["style"] == "b4" else "git-send-email 2.51.0")]
    ctx.count("patch")
    ctx.applied.append(p)
    if len(ctx.applied) > 3000:
        del ctx.applied[:1000]
    return mail(headers + list_headers(sub["list"]), body)


def cover_mail(ctx, series, version, subject, msgid, patches, prev_cover):
    author, sub = series["author"], series["sub"]
    v = patches[0].vars
    body = wrap(prose(ctx, v, T.WHY, 2)) + "\n\n"
    if version > 1:
        body += f"Changes in v{version}:\n- {T.HOW[version % len(T.HOW)].format(**v)}\n"
        if prev_cover:
            body += f"- Link to v{version - 1}: https://lore.example.org/r/{prev_cover.strip('<>')}\n"
        body += "\n"
    body += "---\n" + f"{author.name} ({len(patches)}):\n"
    body += "".join(f"      {p.title}\n" for p in patches)
    body += "\n" + diffstat([f for p in patches for f in p.files[:1]])
    body += f"---\nbase-commit: {ctx.hexid(40)}\n\nBest regards,\n-- \n{author.addr}\n"
    headers = [("From", author.addr), ("To", sub["maint"].addr),
               ("Cc", f"{sub['list']}@vger.example.org, maintainer@example.org"),
               ("Subject", subject), ("Date", ctx.date(author.tz)), ("Message-ID", msgid)]
    ctx.count("cover")
    return mail(headers + list_headers(sub["list"]), body)


def reply_mail(ctx, who, to, subject, parent, refs, body, lst):
    headers = [("From", who.addr), ("To", to), ("Cc", f"{lst}@vger.example.org" if lst else None),
               ("Subject", subject if subject.startswith("Re:") else "Re: " + subject),
               ("Date", ctx.date(who.tz)),
               ("Message-ID", f"<{ctx.stamp()}.GA{ctx.next_serial()}@{who.email.split('@')[1]}>"),
               ("In-Reply-To", parent), ("References", " ".join(refs) if refs else None)]
    return mail(headers + (list_headers(lst) if lst else []), body)


def quote_some(ctx, text, k=6):
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) > k:
        i = ctx.rng.randrange(0, len(lines) - k)
        lines = lines[i:i + k]
    return "".join(f"> {ln}\n" for ln in lines)


def human_reply_to_patch(ctx, p, series):
    who = ctx.rng.choice(ctx.people)
    rng = ctx.rng
    if rng.random() < 0.4:
        body = (f"On {ctx.date(who.tz)}, {series['author'].name} wrote:\n" +
                quote_some(ctx, diff_text(p.files)) + "\n" +
                wrap(rng.choice(T.HUMAN_COMMENTS).format(**p.vars)) + "\n\n" +
                f"Reviewed-by: {who.addr}\n")
    else:
        body = (quote_some(ctx, diff_text(p.files), 10) + "\n" +
                wrap(rng.choice(T.HUMAN_COMMENTS).format(**p.vars)) + "\n\n" +
                quote_some(ctx, diff_text(p.files), 4) + "\n" +
                wrap(rng.choice(T.HUMAN_COMMENTS).format(**p.vars)) + "\n\n" +
                f"Thanks,\n{who.first}\n")
    ctx.count("human")
    return reply_mail(ctx, who, series["author"].addr, p.subject, p.msgid, p.refs, body, series["sub"]["list"])


def human_reply_to_review(ctx, p, series, review_id, review_subject, quoted):
    body = (f"On {ctx.date(series['author'].tz)}, the bot wrote:\n" + quoted + "\n" +
            wrap(ctx.rng.choice(T.BOT_REPLIES).format(**p.vars)) + "\n\n" + series["author"].first + "\n")
    ctx.count("human")
    return reply_mail(ctx, series["author"], "maintainer@example.org", review_subject, review_id,
                      p.refs + [review_id], body, series["sub"]["list"])


def applied_mail(ctx, series, cover_id, subject, patches):
    m = series["sub"]["maint"]
    body = (f"On {ctx.date(series['author'].tz)}, {series['author'].name} wrote:\n> " +
            subject + "\n\nApplied to " + series["sub"]["tree"] + ", thanks!\n\n" +
            "".join(f"[{i + 1}/{len(patches)}] {p.title}\n      commit: {ctx.hexid(12)}\n"
                    for i, p in enumerate(patches)) + f"\n-- \n{m.name}\n")
    ctx.count("human")
    return reply_mail(ctx, m, series["author"].addr, subject, cover_id, [cover_id], body, series["sub"]["list"])
