#!/usr/bin/env python3
"""winnow benchmark corpus: a synthetic kernel mailing-list maildir.

    gen.py [--seed S] N MAILDIR

writes exactly N messages into MAILDIR/cur (MAILDIR/new and tmp are
created empty) and a summary, MAILDIR/../manifest.json: how many mails of
each kind, and the Message-ID of a review the benchmark marks.

The mail imitates a maintainer's inbox over one year, whatever N is (so
every template generation of every bot appears at every size): patch
series with cover letters, v2/v3 and resends with the same subject,
Assisted-by trailers of every attribution class, bot reviews of every
supported kind (about one message in five), human replies and list noise.
The text is written from the formats in FORMATS.md; nothing is copied
from real mail.  The same N and seed always give the same bytes.
"""
import argparse
import functools
import json
import os
import queue
import sys
import threading

sys.dont_write_bytecode = True  # never litter the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_bots  # noqa: E402
from gen_mail import (Ctx, Patch, applied_mail, attribution, cover_mail, human_reply_to_patch,  # noqa: E402
                      list_headers, mail, make_hunks, msgid_patch, patch_mail, patch_vars, prose,
                      quote_some, send_key, series_subject, wrap)
import gen_text as T  # noqa: E402


# Threads in flight at once: how far replies trail their patch.  Fewer
# for small corpora, whose year has fewer mails a day.
def active_topics(n):
    return max(4, min(40, n // 2500))


# --- topics: each a generator of mails, advanced a mail at a time ---------

def series_topic(ctx):
    rng = ctx.rng
    sub = rng.choice(ctx.subsystems)
    author = rng.choice(ctx.people[30:])
    n = rng.choice((1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6, 8))
    tag = {"net-next": "net-next", "net": "net", "bpf-next": "bpf-next"}.get(sub["tree"])
    if tag and rng.random() < 0.3:
        tag = None
    attr_class, attr_line = attribution(ctx)
    series = dict(sub=sub, author=author, n=n, tag=tag, attr=attr_class, attr_line=attr_line,
                  style=rng.choice(("b4", "gse")), pid=rng.randrange(1000, 90000))
    driver = rng.choice(sub["drivers"])
    base = [patch_vars(ctx, sub, driver) for _ in range(n)]
    for v in base:
        v["path_t"] = sub["path"]
        v["path"] = sub["path"].format(d=v["d"])
    titles = [sub["prefix"].format(d=v["d"]) + " " + rng.choice(T.SUBJECT_TEMPLATES).format(**v) for v in base]
    cover_title = sub["prefix"].format(d=base[0]["d"]) + " " + rng.choice(T.SUBJECT_TEMPLATES).format(**base[0])
    series["slug"] = base[0]["d"] + "-" + base[0]["f"]
    versions = rng.choice((1, 1, 1, 1, 2, 2, 3, 4))
    prev_cover = None
    for version in range(1, versions + 1):
        sends = 2 if rng.random() < 0.05 else 1
        for send in range(sends):
            resend = send > 0 and rng.random() < 0.5  # else the very same subject again
            key = send_key(ctx, series, version)
            cover_id = msgid_patch(series, key, 0) if n > 1 else None
            patches = []
            for k in range(1, n + 1):
                v = base[k - 1]
                p = Patch(k=k, n=n, vars=v, title=titles[k - 1], author=author,
                          files=make_hunks(ctx, v, rng.choice((1, 1, 1, 2))),
                          subject=f"{series_subject(series, k, version, resend)} {titles[k - 1]}",
                          msgid=msgid_patch(series, key, k), cover=cover_id,
                          version=version, attr=attr_class, sub=sub)
                p.refs = [cover_id, p.msgid] if cover_id else [p.msgid]
                patches.append(p)
            cover_subject = f"{series_subject(series, 0, version, resend)} {cover_title}"
            if cover_id:
                ctx.tick()
                yield cover_mail(ctx, series, version, cover_subject, cover_id, patches, prev_cover)
            for p in patches:
                ctx.tick()
                yield patch_mail(ctx, series, p, version, cover_id)
        yield from followups(ctx, series, patches, cover_id, cover_subject)
        prev_cover = cover_id


def followups(ctx, series, patches, cover_id, cover_subject):
    """Bot reviews and human replies to one version of a series, in a
    random order, each mail stamped when it is produced."""
    rng = ctx.rng
    key = series["sub"]["key"]
    jobs = []
    for p in patches:
        if rng.random() < 0.4:
            jobs.append(functools.partial(gen_bots.sashiko, ctx, p, series))
        if key == "bpf" and rng.random() < 0.5:
            jobs.append(functools.partial(gen_bots.bpf_ci, ctx, p, series))
        if rng.random() < 0.3:
            jobs.append(functools.partial(one, human_reply_to_patch, ctx, p, series))
    if key == "net" and rng.random() < 0.35:
        jobs.append(functools.partial(gen_bots.netdev_ai, ctx, rng.choice(patches), series))
    if rng.random() < 0.12:
        jobs.append(functools.partial(gen_bots.lkp_reply, ctx, rng.choice(patches), series))
    if cover_id and rng.random() < 0.08:
        jobs.append(functools.partial(gen_bots.syzbot_ci, ctx, patches, series, cover_id, cover_subject))
    if cover_id and rng.random() < 0.3:
        jobs.append(functools.partial(one, applied_mail, ctx, series, cover_id, cover_subject, patches))
    rng.shuffle(jobs)
    for job in jobs:
        for msg in job():
            yield msg


def one(fn, ctx, *args):
    ctx.tick()
    yield fn(ctx, *args)


def discussion_topic(ctx):
    rng = ctx.rng
    sub = rng.choice(ctx.subsystems)
    v = patch_vars(ctx, sub)
    v.update(m=rng.randrange(100, 400), subj=rng.choice(T.SUBJECT_TEMPLATES).format(**v))
    subject = rng.choice(T.NOISE_SUBJECTS).format(**v)
    who = rng.choice(ctx.people)
    refs, parent, text = [], None, wrap(prose(ctx, v, T.WHY, 2))
    for i in range(rng.choice((1, 1, 2, 3, 4, 6))):
        ctx.tick()
        msgid = f"<{ctx.stamp()}.{ctx.hexid(6)}.{ctx.next_serial()}@{who.email.split('@')[1]}>"
        body = (quote_some(ctx, text, 4) + "\n" if parent else "") + wrap(
            prose(ctx, v, T.WHY + T.HOW + T.HUMAN_COMMENTS, 2)) + f"\n\n{who.first}\n"
        headers = [("From", who.addr), ("To", f"{sub['list']}@vger.example.org"),
                   ("Cc", rng.choice(ctx.people).addr), ("Subject", ("Re: " if parent else "") + subject),
                   ("Date", ctx.date(who.tz)), ("Message-ID", msgid), ("In-Reply-To", parent),
                   ("References", " ".join(refs) if refs else None)]
        ctx.count("noise")
        yield mail(headers + list_headers(sub["list"]), body)
        refs, parent, text = refs + [msgid], msgid, body
        who = rng.choice(ctx.people)


TOPICS = [(series_topic, 70), (discussion_topic, 19), (gen_bots.syzbot_topic, 4),
          (gen_bots.lkp_tree_topic, 4), (gen_bots.lkp_noise_topic, 3)]


def generate(ctx, maildir):
    rng = ctx.rng
    for d in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(maildir, d), exist_ok=True)
    fns, weights = zip(*TOPICS)
    active = []
    with Writer(os.path.join(maildir, "cur")) as out:
        while ctx.written < ctx.n:
            while len(active) < active_topics(ctx.n):
                active.append(rng.choices(fns, weights)[0](ctx))
            i = rng.randrange(len(active))
            try:
                data = next(active[i])
            except StopIteration:
                active.pop(i)
                continue
            ctx.written += 1
            out.put((f"{ctx.written:07d}.bench:2,S", data))


class Writer:
    """Writes files from a second thread: file creation is mostly system
    time, which then overlaps with making the next mails."""

    def __init__(self, folder):
        self.folder, self.q, self.error = folder, queue.Queue(maxsize=512), None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def put(self, item):
        if self.error:
            raise self.error
        self.q.put(item)

    def _run(self):
        while (item := self.q.get()) is not None:
            try:
                with open(os.path.join(self.folder, item[0]), "wb") as f:
                    f.write(item[1])
            except OSError as e:
                self.error = e

    def __exit__(self, *exc):
        self.q.put(None)
        self.thread.join()
        if self.error and not exc[0]:
            raise self.error


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("n", type=int)
    ap.add_argument("maildir")
    a = ap.parse_args()
    if a.n < 1:
        ap.error("N must be at least 1")
    ctx = Ctx(a.n, a.seed)
    generate(ctx, a.maildir)
    reviews = sum(v for k, v in ctx.counts.items() if k.startswith("bot:"))
    manifest = dict(messages=ctx.written, seed=a.seed, bot_reviews=reviews, kinds=dict(sorted(ctx.counts.items())),
                    mark_target=ctx.mark_target)
    top = os.path.dirname(os.path.abspath(a.maildir))
    with open(os.path.join(top, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    # What each review holds, to check winnow's parsers against.
    with open(os.path.join(top, "truth.jsonl"), "w") as f:
        f.writelines(json.dumps(t) + "\n" for t in ctx.truth)


if __name__ == "__main__":
    main()
