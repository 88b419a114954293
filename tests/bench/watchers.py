#!/usr/bin/env python3
"""watchers: attach N watchers to muxd's control socket, in one process
that reads every event of each and throws it away, until muxd closes
them; for the benchmark (tests/bench/watchers.sh, through fwd).

    python3 tests/bench/watchers.py SOCKET N
"""
import selectors
import socket
import sys

path, n = sys.argv[1], int(sys.argv[2])
sel = selectors.DefaultSelector()
for i in range(n):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(b'{"v":1,"id":1,"cmd":"watch"}\n')
    s.setblocking(False)
    sel.register(s, selectors.EVENT_READ)
open(path + ".watching", "w").close()
while sel.get_map():
    for key, _ in sel.select():
        try:
            data = key.fileobj.recv(65536)
        except BlockingIOError:
            continue
        if not data:
            sel.unregister(key.fileobj)
            key.fileobj.close()
