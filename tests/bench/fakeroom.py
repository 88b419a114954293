#!/usr/bin/env python3
"""fakeroom: a forwarder that draws a judge's screen as a room does, for
the probe's own test (tests/integration/bench-screen.sh).

Between each pair of pty slaves a b it forwards every byte, and on a, the
judge's terminal, it echoes the judge's keys with the 1996 convention as
text/view.c documents it, in its simplest form: a prompt ">" at the start
and after each line end (CR, echoed CR LF); when the entity writes while
the judge's line has text, the line is taken off (CUB to the prompt's
column, EL) and drawn again below (CR LF, ">", the line) with the judge's
next key; a prompt alone is taken back with BS SP BS.  Lines longer than
a row, and the rows a long line hands out, are not drawn: the test keeps
its lines short.

FAULT makes it draw what no room draws:
    redraw   the judge's line drawn again with its first letter changed
    csi      SGR (ESC [ 1 m) before the entity's text

    python3 tests/bench/fakeroom.py [-f FAULT] a1 b1 [a2 b2 ...]
"""
import argparse
import os
import select
import tty


class Link:
    """One judge's terminal a and its entity b."""

    def __init__(self, a, b, fault):
        self.a, self.b, self.fault = a, b, fault
        self.line = b""
        self.hidden = False
        self.shown = True
        os.write(a, b">")

    def judge(self, data):
        out = b""
        for c in data:
            if c == 0x0d:
                out += b"\r\n>"
                self.line = b""
                self.hidden = False
                self.shown = True
                continue
            if self.hidden:
                line = self.line
                if self.fault == "redraw" and line:
                    line = bytes([ord("a") + (line[0] - ord("a") + 1) % 26]) + line[1:]
                out += b"\r\n>" + line
                self.hidden = False
                self.shown = True
            out += bytes([c])
            self.line += bytes([c])
        os.write(self.a, out)
        os.write(self.b, data)

    def entity(self, data):
        out = b""
        if self.shown:
            if self.line:
                out += b"\x1b[%dD\x1b[K" % (len(self.line) + 1)
            else:
                out += b"\b \b"
            self.shown = False
            self.hidden = True
        if self.fault == "csi":
            out += b"\x1b[1m"
        os.write(self.a, out + data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-f", dest="fault", choices=["redraw", "csi"])
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    fds = [os.open(p, os.O_RDWR | os.O_NOCTTY) for p in args.paths]
    for fd in fds:
        tty.setraw(fd)
    links = [Link(fds[i], fds[i + 1], args.fault) for i in range(0, len(fds) - 1, 2)]
    ends = {}
    for link in links:
        ends[link.a] = link.judge
        ends[link.b] = link.entity
    while True:
        ready, _, _ = select.select(list(ends), [], [])
        for fd in ready:
            data = os.read(fd, 4096)
            if not data:
                return
            ends[fd](data)


if __name__ == "__main__":
    main()
