#!/usr/bin/env python3
"""Make a state directory's manifests again, as a forger would after
changing its files: in every manifest, each listed file whose first SIZE
bytes no longer hash as listed is listed again whole, as it is now; each
manifest names the one before it by its new hash and the forger's key;
and each is signed again, with minisign, by the forger's secret key.

usage: remanifest.py STATEDIR SECKEY PUBKEY
"""
import base64
import glob
import hashlib
import json
import os
import subprocess
import sys


def b2(data):
    return hashlib.blake2b(data, digest_size=32).hexdigest()


def main():
    state, seckey, pubkey = sys.argv[1:4]
    with open(pubkey) as f:
        raw = base64.b64decode(f.read().splitlines()[1])
    keyid = "%016X" % int.from_bytes(raw[2:10], "little")
    prev = None
    for path in sorted(glob.glob(os.path.join(state, "manifests",
                                              "manifest-*.json"))):
        with open(path) as f:
            m = json.load(f)
        for e in m.get("files", []):
            p = os.path.join(state, e["path"])
            with open(p, "rb") as f:
                data = f.read()
            if b2(data[:e["size"]]) != e["blake2b"]:
                e["size"] = len(data)
                e["blake2b"] = b2(data)
                e.pop("lines", None)
                e.pop("chain", None)
        if prev is not None and "previous" in m:
            with open(prev, "rb") as f:
                data = f.read()
            m["previous"]["size"] = len(data)
            m["previous"]["blake2b"] = b2(data)
        m["key"] = keyid
        with open(path, "w") as f:
            f.write(json.dumps(m, indent=1) + "\n")
        if os.path.exists(path + ".minisig"):
            os.unlink(path + ".minisig")
        subprocess.run(["minisign", "-S", "-s", seckey, "-m", path, "-t",
                        "muxd manifest %d: %s" % (m["sequence"], m["why"])],
                       check=True, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL)
        prev = path


if __name__ == "__main__":
    main()
