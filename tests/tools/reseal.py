#!/usr/bin/env python3
"""Seal a capture again after it was edited, as a forger would: recompute
the hash chain of its lines (stretches cut before each seal line, the head
at a cut BLAKE2b-256 of the head before and the stretch's bytes, from 32
zero bytes) and rewrite every seal marker to match, so that the capture's
own chain holds and only its manifest can tell.

usage: reseal.py CAPTURE
"""
import hashlib
import json
import re
import sys

SEAL = re.compile(rb'\[[0-9.]+, "m", "seal ')


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    tail = lines.pop()          # b"" after the last newline
    head = bytes(32)
    h = hashlib.blake2b(head, digest_size=32)
    fed = False
    out = []
    for line in lines:
        if SEAL.match(line):
            if fed:
                head = h.digest()
                h = hashlib.blake2b(head, digest_size=32)
            ev = json.loads(line)
            words = ev[2].split(" ")
            words[1] = str(len(out))
            words[2] = head.hex()
            ev[2] = " ".join(words)
            line = ("[%.6f, \"m\", %s]" % (ev[0], json.dumps(ev[2]))).encode()
        out.append(line)
        h.update(line + b"\n")
        fed = True
    with open(path, "wb") as f:
        f.write(b"\n".join(out) + b"\n" + tail)


if __name__ == "__main__":
    main()
