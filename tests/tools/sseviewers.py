#!/usr/bin/env python3
"""sseviewers: N browsers' event streams from muxweb, in one process.

Opens N connections to http://HOST:PORT/events, each a GET as a browser's
EventSource makes it, and reads every stream until the end.  Once every
connection has its reply's headers (or was refused) it writes READY (a
line "open N refused R"); each stream's text goes to no file, but the
streams that saw MARK in an event ("data:" line) are counted, and with
-m the program exits as soon as all open streams saw it, or after
TIMEOUT seconds, printing "saw K of N".  Without -m it reads until
muxweb closes the streams.

    python3 tests/tools/sseviewers.py [-m MARK [-t TIMEOUT]] PORT N READY
"""
import argparse
import os
import selectors
import socket
import time

ap = argparse.ArgumentParser()
ap.add_argument("-m", dest="mark")
ap.add_argument("-t", dest="timeout", type=float, default=30)
ap.add_argument("port", type=int)
ap.add_argument("n", type=int)
ap.add_argument("ready")
a = ap.parse_args()

# The room's token, when muxweb needs one (MUXWEB_TOKEN).
AUTH = ("Authorization: Bearer %s\r\n" % os.environ["MUXWEB_TOKEN"]
        ).encode() if os.environ.get("MUXWEB_TOKEN") else b""
REQ = (b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH +
       b"Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n")


class Stream:
    """One viewer: its socket, what it read, whether it saw the mark."""

    def __init__(self, s):
        self.s = s
        self.buf = b""
        self.head = None        # the status line, once the headers came
        self.saw = False


sel = selectors.DefaultSelector()
streams = []
for i in range(a.n):
    s = socket.create_connection(("127.0.0.1", a.port))
    s.sendall(REQ)
    s.setblocking(False)
    st = Stream(s)
    streams.append(st)
    sel.register(s, selectors.EVENT_READ, st)

mark = a.mark.encode() if a.mark else None
ready = False
deadline = None


def check_ready():
    """Write READY once every stream has its headers or is closed."""
    global ready
    if ready or any(st.head is None and st.s.fileno() >= 0 for st in streams):
        return
    good = sum(1 for st in streams if st.head and b" 200 " in st.head)
    with open(a.ready + ".tmp", "w") as f:
        f.write("open %d refused %d\n" % (good, a.n - good))
    os.rename(a.ready + ".tmp", a.ready)
    ready = True


def closed(st):
    """A stream ended: forget it."""
    sel.unregister(st.s)
    st.s.close()


while sel.get_map():
    for key, _ in sel.select(timeout=1):
        st = key.data
        try:
            data = st.s.recv(65536)
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            data = b""
        if not data:
            closed(st)
            continue
        if mark is None and st.head is not None:
            continue
        st.buf += data
        if st.head is None:
            if b"\r\n\r\n" not in st.buf:
                continue
            st.head, st.buf = st.buf.split(b"\r\n\r\n", 1)
            st.head = st.head.split(b"\r\n", 1)[0]
        if mark is not None and not st.saw:
            lines = st.buf.split(b"\n")
            st.buf = lines[-1]
            st.saw = any(l.startswith(b"data:") and mark in l
                         for l in lines[:-1])
    check_ready()
    now = time.monotonic()
    if mark is not None and ready:
        live = [st for st in streams if st.head and b" 200 " in st.head]
        if deadline is None:
            deadline = now + a.timeout
        if all(st.saw for st in live) or now > deadline:
            break
if mark is not None:
    print("saw %d of %d" % (sum(1 for st in streams if st.saw), a.n))
for st in streams:
    if st.s.fileno() >= 0:
        st.s.close()
