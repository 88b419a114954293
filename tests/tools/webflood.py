#!/usr/bin/python3
"""webflood: what one machine can do to muxweb's connections.

  webflood.py idle PORT SECS
      one connection that sends nothing: prints "closed after S" when
      muxweb closes it, "open after SECS" when it is still open
  webflood.py slowloris PORT SECS
      one connection that sends a request a byte every 0.25 s: prints
      "closed after S sent N" (N bytes sent) or "open after SECS"
  webflood.py hold PORT FROM N
      N connections from the address FROM that send nothing: prints "kept
      K of N" (those muxweb did not close at once), then holds them, and
      the slowloris ones (a byte every second from FROM) if SLOWLORIS=N,
      until killed; writes READY to the file READY when given
"""

import os
import resource
import socket
import sys
import time


def idle(port, secs):
    """One connection that sends nothing."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(secs)
    t0 = time.monotonic()
    try:
        while s.recv(4096):
            pass
        print("closed after %.1f" % (time.monotonic() - t0))
    except socket.timeout:
        print("open after %d" % secs)
    except ConnectionResetError:
        print("closed after %.1f" % (time.monotonic() - t0))


def slowloris(port, secs):
    """One connection that sends its request a byte at a time."""
    req = (b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\n"
           + b"X-Padding: " + b"x" * 400 + b"\r\n\r\n")
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(0.25)
    t0 = time.monotonic()
    sent = 0
    while time.monotonic() - t0 < secs:
        try:
            if s.recv(4096) == b"":
                break
        except socket.timeout:
            pass
        except ConnectionResetError:
            break
        try:
            s.send(req[sent % len(req):sent % len(req) + 1])
            sent += 1
        except OSError:
            break
    else:
        print("open after %d" % secs)
        return
    print("closed after %.1f sent %d" % (time.monotonic() - t0, sent))


def connect_from(src, port):
    """A connection from the address src, or None when refused."""
    c = socket.socket()
    c.bind((src, 0))
    try:
        c.connect(("127.0.0.1", port))
    except OSError:
        c.close()
        return None
    return c


def alive(c):
    """Whether muxweb keeps the connection c open."""
    try:
        if c.recv(1) == b"":
            c.close()
            return False
    except BlockingIOError:
        return True
    except OSError:
        c.close()
        return False
    return True


def hold(port, src, n, ready):
    """n idle connections (and slowloris ones) from src, held."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = n + 256
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    kept = [c for c in (connect_from(src, port) for _ in range(n)) if c]
    for c in kept:
        c.setblocking(False)
    # Those closed at once: counted when two looks agree.
    last = -1
    while len(kept) != last:
        last = len(kept)
        time.sleep(0.5)
        kept = [c for c in kept if alive(c)]
    slow = [c for c in (connect_from(src, port) for _ in
                        range(int(os.environ.get("SLOWLORIS", "0")))) if c]
    print("kept %d of %d" % (len(kept), n), flush=True)
    if ready:
        with open(ready, "w") as f:
            f.write("kept %d of %d\n" % (len(kept), n))
    i = 0
    while True:
        for c in slow:
            try:
                c.send(b"GET /status HTTP/1.1\r\n"[i % 22:i % 22 + 1])
            except OSError:
                pass
        i += 1
        time.sleep(1)


def main():
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "idle":
        idle(port, int(sys.argv[3]))
    elif mode == "slowloris":
        slowloris(port, int(sys.argv[3]))
    elif mode == "hold":
        hold(port, sys.argv[3], int(sys.argv[4]),
             sys.argv[5] if len(sys.argv) > 5 else None)
    else:
        sys.exit("webflood: no such mode: " + mode)


main()
