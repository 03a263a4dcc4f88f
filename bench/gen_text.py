"""Vocabulary of the benchmark corpus: people, subsystems, drivers, C
code and commit-message prose.  Everything is invented; every choice is
drawn from the generator's seeded random.Random, never from the clock.
"""

FIRST = """Ada Aiko Alba Amir Anja Arne Bea Bruno Carla Chen Dara Dario Elif
Emil Erik Femi Freya Gita Goran Hana Hugo Ines Ivo Jana Jonas Kai Karin
Lars Lea Lin Luca Maja Marek Mei Nadia Nils Noor Ola Oren Paz Petra Quinn
Rafa Rhea Sami Sanne Tariq Teo Uma Vera Wen Yara Yusuf Zofia""".split()

LAST = """Aalto Abara Berg Brenner Castro Conti Dahl Demir Eklund Ferraz Fischer
Garcia Gupta Haas Holm Iwata Jensen Kaur Kimura Kovac Lindqvist Marin Menon
Moreau Nagy Novak Ortiz Park Quist Rahman Rossi Ruiz Sato Schulz Silva Soto
Tanaka Uddin Varga Vogel Weber Wilk Xu Yilmaz Zielinski""".split()

DOMAINS = ["example.org", "example.com", "mail.example.net", "corp.example.com"]

# name, list, path, prefix, tree; drivers are invented per subsystem.
SUBSYSTEMS = [
    ("net", "netdev", "drivers/net/ethernet/{d}", "net: {d}:", "net-next"),
    ("net", "netdev", "net/{d}", "net: {d}:", "net"),
    ("bpf", "bpf", "kernel/bpf", "bpf:", "bpf-next"),
    ("bpf", "bpf", "tools/lib/bpf", "libbpf:", "bpf-next"),
    ("block", "linux-block", "drivers/block/{d}", "{d}:", "block"),
    ("mm", "linux-mm", "mm", "mm/{d}:", "mm-unstable"),
    ("fs", "linux-fsdevel", "fs/{d}", "{d}:", "vfs"),
    ("usb", "linux-usb", "drivers/usb/host/{d}", "usb: {d}:", "usb-next"),
    ("iio", "linux-iio", "drivers/iio/adc/{d}", "iio: adc: {d}:", "iio"),
    ("hwmon", "linux-hwmon", "drivers/hwmon/{d}", "hwmon: ({d})", "hwmon-next"),
    ("pci", "linux-pci", "drivers/pci/controller/{d}", "PCI: {d}:", "pci"),
    ("drm", "dri-devel", "drivers/gpu/drm/{d}", "drm/{d}:", "drm-misc-next"),
    ("sound", "linux-sound", "sound/soc/codecs/{d}", "ASoC: {d}:", "sound"),
    ("spi", "linux-spi", "drivers/spi/{d}", "spi: {d}:", "spi"),
    ("i2c", "linux-i2c", "drivers/i2c/busses/{d}", "i2c: {d}:", "i2c"),
    ("gpio", "linux-gpio", "drivers/gpio/{d}", "gpio: {d}:", "gpio"),
    ("rtc", "linux-rtc", "drivers/rtc/{d}", "rtc: {d}:", "rtc"),
    ("crypto", "linux-crypto", "drivers/crypto/{d}", "crypto: {d} -", "cryptodev"),
    ("wireless", "linux-wireless", "drivers/net/wireless/{d}", "wifi: {d}:", "wireless-next"),
]

SYLLABLES = "ka ro mi tu ne sa lo vi da qu xe zo bri fen gal hos lum nar pix tor vex wyn".split()

FIELDS = """lock state regs irq dev ring buf len count flags refcnt work timer
queue pool list node index size mask base cfg stats desc tag""".split()
VERBS = "init probe remove reset setup start stop flush alloc free enable disable poll xmit refill suspend resume read write update".split()
STRUCTS = "priv dev ctx ring queue port chip host".split()

SUBJECT_TEMPLATES = [
    "fix the teardown order in {fn}()",
    "avoid a use-after-free in {fn}()",
    "take {f} lock in {fn}()",
    "check the return value of {fn2}()",
    "drop the unused {f} field",
    "convert to devm_* helpers",
    "use READ_ONCE() for {s}->{f}",
    "add support for the {D}-{n} variant",
    "do not leak {f} on the error path",
    "clamp {f} to the hardware limit",
    "remove a redundant NULL check",
    "release {f} under the {f2} lock",
    "report {f} through ethtool",
    "handle a zero {f} in {fn}()",
    "switch {fn}() to guard(mutex)",
    "rework {f} accounting",
    "split {fn}() into helpers",
    "fix a race between {fn}() and {fn2}()",
    "reject an oversized {f}",
    "simplify the {f} state machine",
]

WHY = [
    "{fn}() reads {s}->{f} without holding {s}->lock, while {fn2}() updates it "
    "from the interrupt handler, so the two can see a half-written value.",
    "When {fn2}() fails, {fn}() returns without undoing the earlier setup and "
    "the {f} stays allocated until the module is unloaded.",
    "The hardware limits {f} to {n} entries but nothing stops user space from "
    "asking for more, and the driver then writes past the end of the table.",
    "{fn}() frees {s}->{f} before the work that uses it is cancelled, so a "
    "late run of the work item touches freed memory.",
    "Since the {f} handling moved into {fn2}(), the field in struct {d}_{s} "
    "is set but never read.",
    "The error code of {fn2}() is ignored, so a failed {f} setup is reported "
    "as success and the device is left half initialised.",
]

HOW = [
    "Move the call so that {f} is released only after {fn2}() has returned.",
    "Take the lock around both accesses and document why it is needed.",
    "Check the value once in {fn}() and return -EINVAL when it is out of range.",
    "Return the error and unwind through the existing labels.",
    "Remove the field and the code that only existed to fill it in.",
    "Use the devres helpers so the cleanup happens in the right order by "
    "construction.",
]

CODE = [
    "\tstruct {d}_{s} *{s} = {arg}->{s};",
    "\tunsigned long flags;",
    "\tint ret;",
    "\tu32 val;",
    "\tmutex_lock(&{s}->lock);",
    "\tmutex_unlock(&{s}->lock);",
    "\tspin_lock_irqsave(&{s}->{f}_lock, flags);",
    "\tspin_unlock_irqrestore(&{s}->{f}_lock, flags);",
    "\tif (!{s}->{f})",
    "\t\treturn -ENODEV;",
    "\tret = {d}_{v}_{f}({s}, {n});",
    "\tif (ret)",
    "\t\tgoto err_{f2};",
    "\tval = readl({s}->regs + {D}_REG_{F});",
    "\twritel(val | {D}_{F}_EN, {s}->regs + {D}_REG_{F});",
    "\t{s}->{f} = READ_ONCE({s}->{f2});",
    "\tkfree({s}->{f});",
    "\t{s}->{f} = kcalloc({n}, sizeof(*{s}->{f}), GFP_KERNEL);",
    "\tif (!{s}->{f})",
    "\t\treturn -ENOMEM;",
    "\tcancel_work_sync(&{s}->{f}_work);",
    "\tdev_err({s}->dev, \"{f} setup failed: %d\\n\", ret);",
    "\treturn 0;",
    "\treturn ret;",
    "\tfor (i = 0; i < {s}->{f2}_count; i++)",
    "\t\t{d}_{v}_one({s}, i);",
    "\t{s}->{f}_count = min_t(u32, val, {D}_MAX_{F});",
    "\tif (val > {D}_MAX_{F})",
    "\t\treturn -EINVAL;",
    "\tnetif_stop_queue({s}->ndev);",
    "\tpm_runtime_put({s}->dev);",
    "",
]

# (summary entry, inline comment): the comment shares the entry's
# words, as real reviews do, so a parser can attach one to the other.
PROBLEMS = [
    ("{fn}() dereferences {s}->{f} before the NULL check this patch adds.",
     "Can {s}->{f} be NULL here? The check was added below this line, so\n"
     "{fn}() dereferences {s}->{f} before it is tested."),
    ("The error path in {fn}() returns without releasing {s}->lock.",
     "Does this error path leave {s}->lock held? {fn}() returns ret here\n"
     "without the mutex_unlock() that the other exits have."),
    ("{fn}() can sleep in {fn2}() while {s}->{f}_lock, a spinlock, is held.",
     "Is it safe to call {fn2}() with {s}->{f}_lock held? It allocates with\n"
     "GFP_KERNEL and can sleep, and the spinlock was taken with interrupts\n"
     "disabled just above."),
    ("The reference taken on {s}->{f} in {fn}() is never dropped on the -ENOMEM path.",
     "What drops the reference on {s}->{f} when the allocation below fails?\n"
     "The -ENOMEM return skips the put that the success path relies on."),
    ("{s}->{f} is read without READ_ONCE() while {fn2}() writes it concurrently.",
     "{fn2}() writes {s}->{f} from the interrupt handler. Should this read\n"
     "use READ_ONCE(), or be done under {s}->lock, so the compiler cannot\n"
     "tear or reload it?"),
    ("The multiplication {s}->{f}_count * sizeof(*{s}->{f}) can overflow before the allocation.",
     "{s}->{f}_count comes from the device. Could the multiplication here\n"
     "overflow on 32-bit builds? kcalloc() or array_size() would catch it."),
    ("The loop in {fn}() runs past the end of {s}->{f} when {f2}_count is zero.",
     "If {f2}_count is zero, does the loop still index {s}->{f}[0]? The\n"
     "array is only allocated when the count is non-zero."),
    ("{fn}() can run after {fn2}() freed {s}, a use-after-free.",
     "Can {fn}() still run at this point? {fn2}() frees {s} while the\n"
     "work item that calls {fn}() may be queued, and nothing cancels it\n"
     "first."),
    ("The commit message says {f} is now bounded, but the new code never checks it.",
     "The commit message says {f} is now bounded by the hardware limit, but\n"
     "nothing in the diff checks the value. Is a hunk missing?"),
    ("The return value of {fn2}() is ignored, so a failure leaves {s}->{f} stale.",
     "{fn2}() can fail with -ETIMEDOUT. If it does, {s}->{f} keeps the old\n"
     "value and {fn}() carries on as if the update had happened."),
    ("ret is still zero when {fn2}() fails, so {fn}() reports success.",
     "When {fn2}() fails, ret is still zero from the earlier call, so the\n"
     "goto below makes {fn}() return success with nothing set up."),
    ("{s}->{f} is used uninitialised when {fn}() takes the early exit.",
     "On the early exit above, {s}->{f} has not been set yet, but the\n"
     "cleanup code reads it. Should it be initialised first?"),
    ("The lock order {s}->lock then {s}->{f}_lock is the reverse of the one in {fn2}().",
     "{fn2}() takes {s}->{f}_lock and then {s}->lock; this takes them in\n"
     "the opposite order. Could the two deadlock against each other?"),
    ("{fn}() leaks the DMA mapping of {s}->{f} when {fn2}() fails.",
     "If {fn2}() fails, who unmaps {s}->{f}? The mapping made above is\n"
     "not undone on this path."),
]

PREEXISTING = [
    "This problem wasn't introduced by this patch, but ",
    "This isn't a bug introduced by this patch, but ",
    "This is a pre-existing issue, but ",
]

SEVERITIES = ["Critical", "High", "Medium", "Low"]
SEVERITY_WEIGHTS = [5, 30, 35, 30]

# Attribution classes of the Assisted-by trailer (FORMATS.md).
ATTR_MODEL = [
    "Assisted-by: Claude:claude-opus-4-5 coccinelle sparse",
    "Assisted-by: Claude:claude-sonnet-4-5 checkpatch",
    "Assisted-by: claude-code:claude-sonnet-4-5 [coccinelle] [sparse]",
    "Assisted-by: Codex:gpt-5-codex smatch",
    "Assisted-by: Gemini:gemini-2.5-pro",
]
ATTR_GENERIC = [
    "Assisted-by: LLM sparse",
    "Assisted-by: LLM smatch checkpatch",
    "Assisted-by: LLM",
    "Assisted-by: Coding Assistant coccinelle",
]
ATTR_OTHER = [
    "Assisted-by: Claude",
    "assisted-by: Gemini",
    "Assisted-by:",
    "Assisted-by: GPT-5 (gpt-5-codex)",
    "assisted-by: gpt (o3)",
]

HUMAN_COMMENTS = [
    "Looks right to me.",
    "Nit: the comment above still talks about the old behaviour.",
    "Why not do this in {fn2}() instead, where the other checks live?",
    "This changes the user-visible behaviour; please say so in the commit\nmessage.",
    "Please split the cleanup from the fix so the fix can go to stable.",
    "I tested this on my board and the warning is gone.",
    "Does this need a Fixes: tag?",
    "{f} can also be changed through sysfs; is that path covered?",
]

BOT_REPLIES = [
    "This one is a false positive: {s}->{f} is only written before the\n"
    "device is registered.",
    "Good catch, I will fix it in the next version.",
    "The bot is right, but this predates my patch; I will send a separate\n"
    "fix.",
    "Not an issue: the caller holds the lock, see {fn2}().",
]

NOISE_SUBJECTS = [
    "regression: {d} stops working after resume since 6.{k}",
    "[GIT PULL] {tree} fixes for 6.{k}",
    "[ANNOUNCE] {tree} tree moving to a new host",
    "question about {f} handling in {d}",
    "[RFC] rethinking {f} accounting in {d}",
    "[PATCH 6.{k} {n:03d}/{m}] {d}: {subj}",
    "Re: {d} hangs on shutdown",
]
