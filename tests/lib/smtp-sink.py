#!/usr/bin/env python3
"""smtp-sink.py DIR: an SMTP server on 127.0.0.1 that delivers nowhere.

For the tests only.  It listens on a free port of 127.0.0.1, prints
"port N" on stdout once it does, and for every mail it accepts writes
DIR/N.eml (the message, dot-unstuffed, CRLF turned into LF) and
DIR/N.env (the envelope: "from ADDR", then "to ADDR" per recipient).
It stops on SIGTERM.  Python's standard library only (asyncio): the
old smtpd module is gone from newer Pythons.
"""
import asyncio
import os
import re
import signal
import sys

ADDR = re.compile(rb"<([^>]*)>")


class Session:
    def __init__(self, outdir):
        self.outdir = outdir
        self.reset()

    def reset(self):
        self.sender = None
        self.rcpts = []

    def deliver(self, data):
        n = len([f for f in os.listdir(self.outdir) if f.endswith(".eml")]) + 1
        base = os.path.join(self.outdir, str(n))
        with open(base + ".env.tmp", "w") as f:
            f.write("from %s\n" % self.sender)
            for r in self.rcpts:
                f.write("to %s\n" % r)
        with open(base + ".eml", "wb") as f:
            f.write(data)
        # The envelope last: a test waiting for it sees the whole mail.
        os.rename(base + ".env.tmp", base + ".env")


async def handle(reader, writer, outdir):
    s = Session(outdir)

    async def say(line):
        writer.write(line.encode() + b"\r\n")
        await writer.drain()

    await say("220 sink.example.org ESMTP test sink")
    while True:
        line = await reader.readline()
        if not line:
            break
        cmd = line.strip().upper()
        if cmd.startswith(b"EHLO"):
            await say("250-sink.example.org")
            await say("250-8BITMIME")
            await say("250 SIZE 10485760")
        elif cmd.startswith(b"HELO"):
            await say("250 sink.example.org")
        elif cmd.startswith(b"MAIL FROM:"):
            m = ADDR.search(line)
            s.sender = m.group(1).decode() if m else ""
            await say("250 OK")
        elif cmd.startswith(b"RCPT TO:"):
            m = ADDR.search(line)
            s.rcpts.append(m.group(1).decode() if m else "")
            await say("250 OK")
        elif cmd == b"DATA":
            await say("354 end with <CRLF>.<CRLF>")
            lines = []
            while True:
                l = await reader.readline()
                if not l or l in (b".\r\n", b".\n"):
                    break
                if l.startswith(b"."):
                    l = l[1:]
                lines.append(l.replace(b"\r\n", b"\n"))
            s.deliver(b"".join(lines))
            s.reset()
            await say("250 OK queued")
        elif cmd == b"RSET":
            s.reset()
            await say("250 OK")
        elif cmd == b"NOOP":
            await say("250 OK")
        elif cmd == b"QUIT":
            await say("221 bye")
            break
        else:
            await say("502 not implemented")
    writer.close()


async def main(outdir):
    server = await asyncio.start_server(
        lambda r, w: handle(r, w, outdir), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    print("port %d" % port, flush=True)
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    async with server:
        await stop


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: smtp-sink.py DIR")
    asyncio.run(main(sys.argv[1]))
