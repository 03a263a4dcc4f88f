"""Bot mail of the benchmark corpus, one generator per bot: each yields
the bot's mail (and sometimes a human answer to it) when advanced.  The
layouts follow FORMATS.md; the words are invented."""
import gen_mail as gen
import gen_text as T

SASHIKO_LISTS = {"net": "netdev-ai-reviews@lists.example.org"}


def lower_first(s):
    return s[:1].lower() + s[1:]


# --- findings and the quoted diff they sit in -----------------------------

def findings(ctx, p, m, pre_ok, twice_ok=False):
    """m findings on patch p: severity, pre-existing, summary entry,
    inline comment, and where in the diff the comment goes."""
    rng = ctx.rng
    out = []
    # Distinct lines: two comments under one line read as one block.
    spots = [(fi, hi, li) for fi, (_, hunks) in enumerate(p.files) for hi, h in enumerate(hunks)
             for li, (op, _) in enumerate(h[2]) if op == "+"]
    spots = rng.sample(spots, min(m, len(spots)))
    for at, tmpl in zip(spots, rng.sample(T.PROBLEMS, len(spots))):
        pre = pre_ok and rng.random() < 0.2
        summary = tmpl[0].format(**p.vars)
        comment = tmpl[1].format(**p.vars)
        if pre:
            comment = rng.choice(T.PREEXISTING) + lower_first(summary) + " " + comment
        comment = gen.wrap(comment.replace("\n", " "))
        out.append(dict(sev=rng.choices(T.SEVERITIES, T.SEVERITY_WEIGHTS)[0], pre=pre, summary=summary,
                        comment=comment, at=at, twice=twice_ok and rng.random() < 0.1))
    order = {s: i for i, s in enumerate(T.SEVERITIES)}
    out.sort(key=lambda f: (f["pre"], order[f["sev"]]))
    return out


def inline(ctx, p, fs, tags, quote="> "):
    """The quoted diff with each finding's comment under the line it
    discusses; hunks nobody comments on become a snip, as the bots do."""
    rng = ctx.rng
    at = {}
    for f in fs:
        at.setdefault(f["at"], []).append(f)
    out = []
    for fi, (path, hunks) in enumerate(p.files):
        if not any(k[0] == fi for k in at):
            continue
        out += gen.diff_file_head(path, quote)
        for hi, h in enumerate(hunks):
            here = sorted(k[2] for k in at if k[:2] == (fi, hi))
            if not here:
                if not out[-1].endswith("[ ... ]\n\n"):
                    out.append("\n[ ... ]\n\n")
                continue
            lines = gen.diff_hunk(h, quote)
            last = 0
            for li in here:
                out += lines[last:li + 2]
                last = li + 2
                for f in at[(fi, hi, li)]:
                    out.append("\n" + tag_line(f, tags) + f["comment"] + "\n\n")
                    if f["twice"]:
                        out.append(tag_line(f, tags) + "Following on from the above, the same applies\n"
                                   f"to the other caller of {p.vars['fn2']}().\n\n")
            tail = lines[last:last + rng.randrange(0, 3)]
            out += tail
    return "".join(out)


def tag_line(f, tags):
    if tags == "severity":
        return f"[Severity: {f['sev']}]\n"
    if tags == "bare":
        return f"[{f['sev']}]\n"
    return ""


def entries(fs):
    return "".join(f"- [{f['sev']}] {f['summary']}\n" for f in fs)


def commit_head(ctx, p):
    return (f"commit {ctx.hexid(40)}\nAuthor: {p.author.addr}\n\n{p.title}\n\n" +
            gen.wrap(f"This commit reworks {p.vars['fn']}(). {gen.prose(ctx, p.vars, T.HOW)}") + "\n\n")


def nfindings(ctx):
    return ctx.rng.choices((1, 2, 3, 4, 5), (35, 30, 20, 10, 5))[0]


# --- Sashiko --------------------------------------------------------------

def sashiko_generation(ctx):
    """The template in use at this point of the year; copies and
    stragglers of every generation keep turning up."""
    rng = ctx.rng
    if rng.random() < 0.1:
        return "noissues"
    if rng.random() < 0.15:
        return rng.choice(("gen1", "gen2", "gen3", "gen4"))
    ph = ctx.phase()
    return "gen1" if ph < 0.1 else "gen2" if ph < 0.3 else "gen3" if ph < 0.6 else "gen4"


def sashiko_summary(gen_, fs):
    if gen_ == "gen2":
        return f"Sashiko AI review found {len(fs)} potential issue(s):\n" + entries(fs) + "--\n\n"
    head = f"Thank you for your contribution! Sashiko AI review found {len(fs)} potential issue(s) to consider:\n"
    new = [f for f in fs if not f["pre"]]
    pre = [f for f in fs if f["pre"]]
    if not pre:
        return head + entries(new) + "--\n\n"
    if not new:
        return head + "\nPre-existing issues:\n" + entries(pre) + "--\n\n"
    return head + "\nNew issues:\n" + entries(new) + "\nPre-existing issues:\n" + entries(pre) + "--\n\n"


def sashiko_body(ctx, p, gen_, bare):
    rng = ctx.rng
    link = f"https://sashiko.dev/#/patchset/{(p.cover or p.msgid).strip('<>')}?part={p.k}"
    footer = f"-- \nSashiko AI review \u00b7 {link}\n"
    if gen_ == "noissues":
        if rng.random() < 0.5:
            return ("Thank you for your contribution! Sashiko AI review found 0 potential issue(s) to consider.\n"
                    "--\n\n" + commit_head(ctx, p) + footer), []
        return ("Thank you for your contribution! Sashiko has reviewed this patch and found no issues. "
                "It looks great!\n\n" + commit_head(ctx, p) + footer), []
    fs = findings(ctx, p, nfindings(ctx), gen_ != "gen2", gen_ != "gen1")
    tags = "bare" if bare else "severity" if gen_ in ("gen3", "gen4") else None
    body = "" if gen_ == "gen1" else sashiko_summary(gen_, fs)
    if gen_ == "gen4":
        body += f"--- Patch [{p.k}]: {p.subject} ---\n"
    body += commit_head(ctx, p) + inline(ctx, p, fs, tags) + footer
    return body, fs


def sashiko(ctx, p, series):
    rng = ctx.rng
    ctx.tick()
    gen_ = sashiko_generation(ctx)
    bare = series["sub"]["key"] == "net" and gen_ in ("gen3", "gen4") and rng.random() < 0.4
    body, fs = sashiko_body(ctx, p, gen_, bare)
    archived = rng.random() < 0.03  # a list-archive copy: no threading
    msgid = f"<{ctx.stamp()}.{ctx.hexid(5).upper()}C4CE{ctx.next_serial():X}@smtp.kernel.org>"
    headers = [("From", "sashiko-bot@kernel.org"), ("To", p.author.email),
               ("Cc", f"{p.sub['list']}@vger.example.org, maintainer@example.org"),
               ("Reply-To", SASHIKO_LISTS.get(p.sub["key"], "sashiko-reviews@lists.example.org")),
               ("Subject", "Re: " + p.subject), ("Date", ctx.date(0)), ("Message-ID", msgid),
               ("In-Reply-To", None if archived else p.msgid),
               ("References", None if archived else " ".join(p.refs))]
    ctx.review("sashiko-" + gen_ + ("-bare" if bare else ""), msgid, len(fs))
    if fs and gen_ != "gen1" and ctx.mark_target is None:
        ctx.mark_target = msgid.strip("<>")
    yield gen.mail(headers, body, "quoted-printable" if rng.random() < 0.6 else "8bit")
    if fs and rng.random() < 0.15:
        ctx.tick()
        yield gen.human_reply_to_review(ctx, p, series, msgid, "Re: " + p.subject,
                                        f"> - [{fs[0]['sev']}] {fs[0]['summary']}\n")


# --- BPF CI ---------------------------------------------------------------

def bpf_ci(ctx, p, series):
    rng = ctx.rng
    ctx.tick()
    fs = findings(ctx, p, rng.choice((1, 1, 2, 3)), False)
    ph = ctx.phase()
    footer = ("\n---\nAI reviewed your patch. Please fix the bug or email reply why it's not a bug.\n"
              "See: https://ci.example.org/kernel-patches/vmtest/ai-review/README.md\n\n")
    if ph < 0.2:  # the October template: fenced, with the commit header
        body = ("\n```\n" + commit_head(ctx, p) + inline(ctx, p, fs, None) + "\n```\n" + footer +
                f"In-Reply-To-Subject: `{p.title}`\n")
        kind = "old"
    else:
        body = inline(ctx, p, fs, None) + footer
        kind = "new"
    body += f"CI run summary: https://ci.example.org/kernel-patches/bpf/runs/{rng.randrange(10**9, 10**10)}\n"
    if ph >= 0.5:
        kind = "scored"
        body += (f"\nAI-authorship-score: {rng.choice(('low', 'medium', 'high'))}\n"
                 f"AI-authorship-explanation: the commit message and the code read like {rng.choice(('a person', 'a model'))} wrote them.\n"
                 f"issues-found: {len(fs)}\nissue-severity-score: {rng.choice(('low', 'medium', 'high'))}\n"
                 "issue-severity-explanation: the problem is reachable from a loaded program.\n")
    archived = rng.random() < 0.03
    headers = [("From", "bot+bpf-ci@kernel.org"), ("To", f"{p.author.email},bpf@vger.example.org"),
               ("Cc", "maintainer@example.org,ast@example.org,daniel@example.org,andrii@example.org"),
               ("Subject", "Re: " + p.subject), ("Date", ctx.date(0)),
               ("Message-ID", f"<{ctx.hexid(32)}@mail.kernel.org>"),
               ("In-Reply-To", None if archived else p.msgid), ("References", None if archived else p.msgid)]
    ctx.review("bpf-ci-" + kind, dict(headers)["Message-ID"], len(fs))
    yield gen.mail(headers, body, "base64" if rng.random() < 0.3 else "8bit", multipart=True,
                   boundary=f"===============%019d==" % rng.randrange(10**18))


# --- netdev AI reviews, forwarded by a maintainer ---------------------------

def netdev_ai(ctx, p, series):
    rng = ctx.rng
    ctx.tick()
    who = rng.choice(ctx.net_maintainers)
    fs = findings(ctx, p, rng.choice((1, 1, 2, 3)), True)
    body = ""
    if rng.random() < 0.2:
        body += "In case you need to respin, please also fix the typo in the subject.\n\n"
    body += "This is an AI-generated review of your patch. The human sending this\n"
    body += rng.choice(("email has considered the AI review valid, or at least plausible.\n",
                        "email has considered the AI review valid, or at least plausable.\n",
                        'email says "FYI"\n'))
    if rng.random() < 0.6:
        body += "\nFor local reproduction steps see https://netdev-ai.example.org/ai-local.html\n"
    if rng.random() < 0.3:
        body += "\nThe first point looks real to me, please take a look before the next version.\n"
    body += "---\n"
    if rng.random() < 0.5:
        body += f"From: {p.author.addr}\n\n"
    if rng.random() < 0.3:
        body += "Now I have enough context to write the review. Let me put it together.\n\n"
    body += p.title + "\n\n" + gen.wrap(f"This patch reworks {p.vars['fn']}(). {gen.prose(ctx, p.vars, T.HOW)}") + "\n\n"
    body += inline(ctx, p, fs, "bare" if rng.random() < 0.5 else None)
    if rng.random() < 0.5:
        body += "pw-bot: cr\n"
    headers = [("From", who.addr), ("To", p.author.email),
               ("Cc", "netdev@vger.example.org, maintainer@example.org"),
               ("Subject", "Re: " + p.subject), ("Date", ctx.date(who.tz)),
               ("Message-ID", f"<{ctx.stamp()}.{ctx.next_serial()}-1-{who.email}>"),
               ("In-Reply-To", p.msgid), ("References", " ".join(p.refs)),
               ("X-Mailer", "git-send-email 2.51.0")]
    ctx.review("netdev-ai", dict(headers)["Message-ID"], len(fs))
    yield gen.mail(headers + gen.list_headers("netdev"), body)


# --- kernel test robot ----------------------------------------------------

DIAG = [
    ("warning", "variable '{f}' set but not used [-Wunused-but-set-variable]"),
    ("warning", "no previous prototype for '{fn2}' [-Wmissing-prototypes]"),
    ("error", "implicit declaration of function '{fn2}' [-Werror=implicit-function-declaration]"),
    ("warning", "unused variable 'flags' [-Wunused-variable]"),
    ("error", "'struct {d}_{s}' has no member named '{f2}'"),
    ("warning", "'{f}' may be used uninitialized [-Wmaybe-uninitialized]"),
]


def lkp_diags(ctx, p, k):
    rng = ctx.rng
    out = []
    for kind, msg in rng.sample(DIAG, k):
        path, hunks = rng.choice(p.files)
        line = rng.choice(hunks)[0] + rng.randrange(1, 12)
        out.append((kind, f"{path}:{line}:{rng.randrange(2, 30)}: {kind}: {msg.format(**p.vars)}", path, line))
    return out


def lkp_key_values(ctx, p, rid, patch_reply):
    v = p.vars
    arch = ctx.rng.choice(("x86_64-allmodconfig", "arm64-randconfig-002", "riscv-randconfig-r112", "i386-defconfig"))
    s = ""
    if patch_reply:
        slug = p.title.replace(":", "").replace(" ", "-")[:60]
        s += (f"url:    https://ci.example.org/lkp/linux/commits/{p.author.name.replace(' ', '-')}/{slug}/{ctx.stamp('%Y%m%d-%H%M%S')}\n"
              f"base:   {v['tree']}/main\n"
              f"patch link:    https://lore.example.org/r/{p.msgid.strip('<>').replace('@', '%40')}\n"
              f"patch subject: {p.subject}\n")
    s += (f"config: {arch}-{ctx.stamp('%Y%m%d')} (https://download.example.org/0day-ci/archive/{ctx.stamp('%Y%m%d')}/{rid}/config)\n"
          f"compiler: {ctx.rng.choice(('gcc-14 (Debian 14.2.0-19) 14.2.0', 'clang version 20.1.8'))}\n"
          f"reproduce (this is a W=1 build): (https://download.example.org/0day-ci/archive/{ctx.stamp('%Y%m%d')}/{rid}/reproduce)\n\n"
          "If you fix the issue in a separate patch/commit (i.e. not just a new version of\n"
          "the same patch/commit), kindly add following tags\n"
          "| Reported-by: kernel test robot <lkp@intel.com>\n"
          f"| Closes: https://lore.example.org/oe-kbuild-all/{rid}/\n\n")
    return s


def lkp_sections(ctx, p, diags):
    errors = any(k == "error" for k, *_ in diags)
    s = f"All {'errors' if errors else 'warnings'} (new ones prefixed by >>):\n\n"
    for kind, text, path, line in diags:
        s += f"   {path}: In function '{p.vars['fn']}':\n>> {text}\n"
        if ctx.rng.random() < 0.3:  # the same diagnostic through another include chain
            s += (f"   In file included from {path.rsplit('/', 1)[0]}/{p.vars['d']}.h:12,\n"
                  f"                    from {path}:9:\n   {path}: In function '{p.vars['fn']}':\n>> {text}\n")
    kind, text, path, line = diags[0]
    s += f"\n\nvim +{line} {path}\n\n"
    s += "".join(f"  {'>' if i == line else ' '} {i:4d}\t{gen.code_line(ctx, p.vars).strip()}\n"
                 for i in range(line - 3, line + 3))
    return s + "\n-- \n0-DAY CI Kernel Test Service\nhttps://ci.example.org/lkp-tests/wiki\n"


def lkp_reply(ctx, p, series):
    rng = ctx.rng
    ctx.tick()
    rid = f"{ctx.stamp('%Y%m%d%H%M')}.{ctx.hexid(8)}-lkp@intel.com"
    diags = lkp_diags(ctx, p, rng.choice((1, 1, 2, 3)))
    word = "errors" if any(k == "error" for k, *_ in diags) else "warnings"
    old = ctx.phase() < 0.1 and rng.random() < 0.5
    body = f"Hi {p.author.first},\n\n"
    body += ("Thank you for the patch! Yet something to improve:\n\n" if old else
             f"kernel test robot noticed the following build {word}:\n\n")
    body += (f"[auto build test {'ERROR' if word == 'errors' else 'WARNING'} on {p.vars['tree']}/main]\n"
             f"[also build test {'ERROR' if word == 'errors' else 'WARNING'} on linus/master v6.18 next-{ctx.stamp('%Y%m%d')}]\n"
             "[If your patch is applied to the wrong git tree, kindly drop us a note.\n"
             "And when submitting patch, we suggest to use '--base' as documented in\n"
             "https://git-scm.com/docs/git-format-patch#_base_tree_information]\n\n")
    body += lkp_key_values(ctx, p, rid, True) + lkp_sections(ctx, p, diags)
    headers = [("From", "kernel test robot <lkp@intel.com>"), ("To", p.author.addr),
               ("Cc", "oe-kbuild-all@lists.example.org, maintainer@example.org"),
               ("Subject", "Re: " + p.subject), ("Date", ctx.date(8)), ("Message-ID", f"<{rid}>"),
               ("In-Reply-To", p.msgid), ("References", p.msgid)]
    ctx.review("lkp-patch-reply", rid, len(diags))
    yield gen.mail(headers, body)


def lkp_tree_topic(ctx):
    """A report on a tree the patch was applied to, linked back by the
    commit's title; sometimes a smatch report forwarded by a person."""
    rng = ctx.rng
    if not ctx.applied:
        return
    p = rng.choice(ctx.applied)
    ctx.tick()
    rid = f"{ctx.stamp('%Y%m%d%H%M')}.{ctx.hexid(8)}-lkp@intel.com"
    path, hunks = rng.choice(p.files)
    line = rng.choice(hunks)[0] + rng.randrange(1, 12)
    head = (f"tree:   https://git.example.org/pub/scm/linux/kernel/git/{p.vars['tree']}.git master\n"
            f"head:   {ctx.hexid(40)}\ncommit: {ctx.hexid(40)} {p.title}\n")
    if rng.random() < 0.3:
        who = ctx.forwarder
        subject = f"{path}:{line} {p.vars['fn']}() warn: missing error code 'ret'"
        second = rng.random() < 0.5
        nfind = 3 if second else 2  # the new warnings and the old one
        body = (head + lkp_key_values(ctx, p, rid, False) + "New smatch warnings:\n" + subject + "\n" +
                (f"{path}:{line + 9} {p.vars['fn2']}() error: we previously assumed '{p.vars['s']}->{p.vars['f']}' could be null (see line {line})\n"
                 if second else "") +
                f"\nOld smatch warnings:\n{path}:{line - 40} {p.vars['fn2']}() warn: inconsistent indenting\n\n"
                f"vim +{line} {path}\n\n" +
                "".join(f"{ctx.hexid(14)} {p.author.name} {ctx.stamp('%Y-%m-%d')} {i:4d}{'@' if i == line else ' '} "
                        f"{gen.code_line(ctx, p.vars)}\n" for i in range(line - 3, line + 3)) +
                "\nret is still zero on this path, so the function returns success.\n\n"
                "-- \n0-DAY CI Kernel Test Service\nhttps://ci.example.org/lkp-tests/wiki\n")
        frm, to, tz, kind = who.addr, f"oe-kbuild@lists.example.org, {p.author.addr}", who.tz, "smatch"
    else:
        diags = lkp_diags(ctx, p, rng.choice((1, 2)))
        nfind = len(diags)
        subject = f"[{p.vars['tree']}:master {rng.randrange(1, 40)}/{rng.randrange(40, 90)}] {diags[0][1]}"
        body = head + lkp_key_values(ctx, p, rid, False) + lkp_sections(ctx, p, diags)
        frm, to, tz, kind = "kernel test robot <lkp@intel.com>", p.author.addr, 8, "gcc"
    headers = [("From", frm), ("To", to), ("Cc", "lkp@intel.com, oe-kbuild-all@lists.example.org, maintainer@example.org"),
               ("Subject", subject), ("Date", ctx.date(tz)), ("Message-ID", f"<{rid}>")]
    ctx.review("lkp-tree-" + kind, rid, nfind)
    yield gen.mail(headers, body)


def lkp_noise_topic(ctx):
    """Branch summaries from the robot: matched by from:lkp, not reviews."""
    rng = ctx.rng
    sub = rng.choice(ctx.subsystems)
    ctx.tick()
    ok = rng.random() < 0.7
    sha = ctx.hexid(40)
    configs = "".join(f"{a}-{c}    gcc-14\n" for a in ("arm", "arm64", "i386", "riscv", "x86_64")
                      for c in ("allmodconfig", "allnoconfig", "defconfig", "randconfig-001"))
    body = (f"tree/branch: https://git.example.org/pub/scm/linux/kernel/git/{sub['tree']}.git master\n"
            f"branch HEAD: {sha}  Merge branch 'for-next'\n\n")
    if ok:
        body += "elapsed time: 1442m\n\nconfigs tested: 20\nconfigs skipped: 0\n\n" + configs
    else:
        body += ("Error/Warning ids grouped by kconfigs:\n\nrecent_errors\n`-- x86_64-allmodconfig\n"
                 "    `-- drivers-misc-foo.c:error:implicit-declaration-of-function\n\n" + configs)
    headers = [("From", "kernel test robot <lkp@intel.com>"), ("To", "maintainer@example.org"),
               ("Cc", "oe-kbuild-all@lists.example.org"),
               ("Subject", f"[{sub['tree']}:master] BUILD {'SUCCESS' if ok else 'REGRESSION'} {sha}"),
               ("Date", ctx.date(8)), ("Message-ID", f"<{ctx.stamp('%Y%m%d%H%M')}.{ctx.hexid(8)}-lkp@intel.com>")]
    ctx.count("botnoise:lkp-build")
    yield gen.mail(headers, body)


# --- syzbot ---------------------------------------------------------------

CRASHES = [
    ("KASAN: slab-use-after-free Read in {fn}",
     "BUG: KASAN: slab-use-after-free in {fn}+0x1a2/0x4c0 {path}:{line}\nRead of size 8 at addr ffff88807c1d2e18 by task syz.2.17/6012\n"),
    ("WARNING in {fn2}",
     "WARNING: CPU: 1 PID: 5890 at {path}:{line} {fn2}+0x2b1/0x6e0 {path}:{line}\nModules linked in:\n"),
    ("INFO: task hung in {fn}",
     "INFO: task kworker/0:2:1043 blocked for more than 143 seconds.\n      Not tainted syzkaller #0\n"),
    ("general protection fault in {fn2}",
     "Oops: general protection fault, probably for non-canonical address 0xdffffc0000000003: 0000 [#1] SMP KASAN PTI\n"
     "RIP: 0010:{fn2}+0x2b1/0x6e0 {path}:{line}\n"),
    ("KCSAN: data-race in {fn} / {fn2}",
     "BUG: KCSAN: data-race in {fn} / {fn2}\n\nwrite to 0xffff888104a3c5d0 of 4 bytes by task 3312 on cpu 0:\n"),
]


def crash_text(ctx, v, path, line, tmpl):
    trace = "".join(f" {fn}+0x{ctx.rng.randrange(16, 900):x}/0x{ctx.rng.randrange(900, 4000):x} {path}:{line + i * 7}\n"
                    for i, fn in enumerate((v["fn"], v["fn2"], f"{v['d']}_{v['v']}_work", "process_one_work")))
    return (tmpl.format(**{**v, "path": path, "line": line}) + "\nCPU: 1 UID: 0 PID: 6012 Comm: syz.2.17 Not tainted syzkaller #0 PREEMPT(full)\n"
            "Hardware name: Google Compute Engine/Google Compute Engine, BIOS Google 10/02/2025\nCall Trace:\n <TASK>\n" +
            trace + " </TASK>\n")


def syzbot_from(ext):
    return f"syzbot <syzbot+{ext}@syzkaller.appspotmail.com>"


def syzbot_topic(ctx):
    rng = ctx.rng
    sub = rng.choice(ctx.subsystems)
    v = gen.patch_vars(ctx, sub)
    path = sub["path"].format(d=v["d"]) + f"/{v['d']}.c"
    line = rng.randrange(50, 900)
    ext = ctx.hexid(20)
    ctx.tick()
    if rng.random() < 0.15:
        month = ctx.stamp("%b %Y")
        body = (f"Hello {sub['key']} maintainers/developers,\n\nThis is a 31-day syzbot report for the {sub['key']} subsystem.\n"
                "All related reports/information can be found at:\nhttps://syzkaller.example.org/upstream/s/" + sub["key"] +
                "\n\nDuring the period, 3 new issues were detected and 1 were fixed.\n\nSome of the still happening issues:\n\n"
                "Ref Crashes Repro Title\n" +
                "".join(f"<{i}> {rng.randrange(1, 9000):<7} Yes   {t[0].format(**v)}\n" for i, t in enumerate(CRASHES[:3], 1)))
        headers = [("From", syzbot_from(ctx.hexid(20))), ("To", f"{sub['list']}@vger.example.org"),
                   ("Subject", f"[syzbot] Monthly {sub['key']} report ({month})"), ("Date", ctx.date(-8)),
                   ("Message-ID", f"<{ctx.hexid(8)}.050a0220.{ctx.hexid(6)}.{ctx.next_serial():04x}.GAE@google.example.com>")]
        ctx.count("botnoise:syzbot-monthly")
        yield gen.mail(headers, body)
        return
    title_t, tmpl = rng.choice(CRASHES)
    title = title_t.format(**v)
    report_id = f"<{ctx.hexid(8)}.050a0220.{ctx.hexid(6)}.{ctx.next_serial():04x}.GAE@google.example.com>"
    subject = f"[syzbot] [{sub['key']}?] {title}"
    body = ("Hello,\n\nsyzbot found the following issue on:\n\n"
            f"HEAD commit:    {ctx.hexid(12)} Merge tag '{sub['key']}-6.19-rc2.fixes'\n"
            "git tree:       upstream\n"
            f"console output: https://syzkaller.example.org/x/log.txt?x={ctx.hexid(16)}\n"
            f"kernel config:  https://syzkaller.example.org/x/.config?x={ctx.hexid(16)}\n"
            f"dashboard link: https://syzkaller.example.org/bug?extid={ext}\n"
            "compiler:       Debian clang version 20.1.8, Debian LLD 20.1.8\n\n"
            "Downloadable assets:\n"
            f"disk image: https://storage.example.org/syzbot-assets/{ctx.hexid(12)}/disk.raw.xz\n\n"
            "Unfortunately, I don't have any reproducer for this issue yet.\n\n"
            "IMPORTANT: if you fix the issue, please add the following tag to the commit:\n"
            f"Reported-by: syzbot+{ext}@syzkaller.appspotmail.com\n\n"
            "==================================================================\n" +
            crash_text(ctx, v, path, line, tmpl) +
            "==================================================================\n\n\n---\n"
            "This report is generated by a bot. It may contain errors.\n"
            "See https://goo.example.org/tpsmEJ for more information about syzbot.\n"
            "syzbot engineers can be reached at syzkaller@lists.example.org.\n\n"
            "If the report is already addressed, let syzbot know by replying with:\n#syz fix: exact-commit-title\n")
    headers = [("From", syzbot_from(ext)),
               ("To", f"{sub['list']}@vger.example.org, maintainer@example.org, syzkaller-bugs@lists.example.org"),
               ("Subject", subject), ("Date", ctx.date(-8)), ("Message-ID", report_id)]
    ctx.review("syzbot-report", report_id, 1)
    yield gen.mail(headers, body)
    refs = [report_id]
    if rng.random() < 0.5:
        ctx.tick()
        rep = f"<{ctx.hexid(8)}.050a0220.{ctx.hexid(6)}.{ctx.next_serial():04x}.GAE@google.example.com>"
        body = ("syzbot has found a reproducer for the following issue on:\n\n"
                f"HEAD commit:    {ctx.hexid(12)} Merge tag 'net-6.19-rc3'\ngit tree:       upstream\n"
                f"syz repro:      https://syzkaller.example.org/x/repro.syz?x={ctx.hexid(16)}\n\n"
                f"Reported-by: syzbot+{ext}@syzkaller.appspotmail.com\n\n" + crash_text(ctx, v, path, line, tmpl))
        headers = [("From", syzbot_from(ext)), ("To", f"{sub['list']}@vger.example.org, maintainer@example.org"),
                   ("Subject", "Re: " + subject), ("Date", ctx.date(-8)), ("Message-ID", rep),
                   ("In-Reply-To", report_id), ("References", report_id)]
        ctx.count("botnoise:syzbot-followup")
        yield gen.mail(headers, body)
        refs.append(rep)
    if rng.random() < 0.4:
        who = rng.choice(ctx.people)
        ctx.tick()
        test = f"<{ctx.stamp()}.GA{ctx.next_serial()}@{who.email.split('@')[1]}>"
        body = (f"#syz test\n\n--- a/{path}\n+++ b/{path}\n@@ -{line},3 +{line},4 @@\n"
                f" {gen.code_line(ctx, v)}\n+{gen.code_line(ctx, v)}\n {gen.code_line(ctx, v)}\n")
        headers = [("From", who.addr), ("To", syzbot_from(ext)), ("Cc", f"{sub['list']}@vger.example.org"),
                   ("Subject", "Re: " + subject), ("Date", ctx.date(who.tz)), ("Message-ID", test),
                   ("In-Reply-To", refs[-1]), ("References", " ".join(refs))]
        ctx.count("human")
        yield gen.mail(headers, body)
        ctx.tick()
        good = rng.random() < 0.7
        body = ("Hello,\n\nsyzbot has tested the proposed patch and the reproducer did not trigger any issue:\n\n"
                if good else "Hello,\n\nsyzbot has tested the proposed patch but the reproducer is still triggering an issue:\n" +
                title + "\n\n" + crash_text(ctx, v, path, line, tmpl) + "\n")
        body += (f"Reported-by: syzbot+{ext}@syzkaller.appspotmail.com\nTested-by: syzbot+{ext}@syzkaller.appspotmail.com\n\n"
                 f"Tested on:\n\ncommit:         {ctx.hexid(8)} Merge tag 'net-6.19-rc3'\ngit tree:       upstream\n"
                 f"patch:          https://syzkaller.example.org/x/patch.diff?x={ctx.hexid(16)}\n\n"
                 "Note: testing is done by a robot and is best-effort only.\n")
        headers = [("From", syzbot_from(ext)), ("To", f"{who.email}, syzkaller-bugs@lists.example.org"),
                   ("Subject", "Re: " + subject), ("Date", ctx.date(-8)),
                   ("Message-ID", f"<{ctx.hexid(8)}.050a0220.{ctx.hexid(6)}.{ctx.next_serial():04x}.GAE@google.example.com>"),
                   ("In-Reply-To", test), ("References", " ".join(refs + [test]))]
        ctx.count("botnoise:syzbot-followup")
        yield gen.mail(headers, body)


def syzbot_ci(ctx, patches, series, cover_id, cover_subject):
    rng = ctx.rng
    ctx.tick()
    p0 = patches[0]
    v = p0.vars
    title = cover_subject.split("] ", 1)[-1]
    path, hunks = p0.files[0]
    issues = rng.sample(CRASHES, rng.choice((1, 1, 2)))
    build = rng.random() < 0.3
    names = [t.format(**v) for t, _ in issues] + (["kernel build error"] if build else [])
    body = (f"syzbot ci has tested the following series\n\n[v{p0.version}] {title}\n"
            f"https://lore.example.org/all/{cover_id.strip('<>')}\n" +
            "".join(f"* {p.subject}\n" for p in patches) +
            ("\nand found the following issue:\n" if len(names) == 1 else "\nand found the following issues:\n") +
            "".join(f"* {n}\n" for n in names) +
            f"\nFull report is available here:\nhttps://ci.syzkaller.example.org/series/{ctx.hexid(32)}\n\n***\n\n")
    base = (f"tree:      {v['tree']}\nURL:       https://git.example.org/pub/scm/linux/kernel/git/{v['tree']}.git\n"
            f"base:      {ctx.hexid(40)}\narch:      amd64\ncompiler:  Debian clang version 20.1.8, Debian LLD 20.1.8\n"
            f"config:    https://ci.syzkaller.example.org/builds/{ctx.hexid(32)}/config\n")
    line = hunks[0][0] + 4
    for (t, tmpl), n in zip(issues, names):
        body += f"{n}\n\n{base}syz repro: https://ci.syzkaller.example.org/findings/{ctx.hexid(32)}/syz_repro\n\n"
        body += crash_text(ctx, v, path, line, tmpl) + "\n\n***\n\n"
    if build:
        body += (f"kernel build error\n\n{base}\n{path}:{line}:2: error: use of undeclared identifier '{v['f']}'\n"
                 f"{path}:{line + 1}:9: error: use of undeclared identifier '{v['f']}'\n\n\n***\n\n")
    body += ("If these findings have caused you to resend the series or submit a\n"
             "separate fix, please add the following tag to your commit message:\n"
             "  Tested-by: syzbot@syzkaller.appspotmail.com\n\n---\n"
             "This report is generated by a bot. It may contain errors.\n"
             "syzbot ci engineers can be reached at syzkaller@lists.example.org.\n")
    headers = [("From", f"syzbot ci <syzbot+ci{ctx.hexid(16)}@syzkaller.appspotmail.com>"),
               ("To", f"{p0.author.email}, {p0.sub['list']}@vger.example.org, maintainer@example.org"),
               ("Cc", "syzbot@lists.example.org, syzkaller-bugs@lists.example.org"),
               ("Subject", f"[syzbot ci] Re: {title}"), ("Date", ctx.date(-8)),
               ("Message-ID", f"<{ctx.hexid(8)}.a70a0220.{ctx.hexid(6)}.{ctx.next_serial():04x}.GAE@google.example.com>"),
               ("In-Reply-To", cover_id)]
    ctx.review("syzbot-ci", dict(headers)["Message-ID"], len(names))
    yield gen.mail(headers, body)
