#!/usr/bin/env python3
"""A small program of the Loebner Prize Protocol, written from the 2009
rules' text alone (section 2 and the appendix), for the tests of the
bridge (comprog lpp).

A key press is a sub-directory TIME.KEYNAME.judge or TIME.KEYNAME.other
of the communications directory, TIME 18 digits of milliseconds that only
grow; a program reads the other side's keys and deletes their
directories.

    lppbot.py entry DIR [SECONDS]
        An entry: waits for the judge; takes the judge's keys (BackSpace
        erases); when the judge's turn ends (a Return on an empty line,
        the 1996 convention) answers "You said: LINE" with a Return, the
        turn's lines joined by a space.
    lppbot.py judge DIR OUT TEXT [SECONDS]
        A judge: types TEXT (\\b is BackSpace, \\r Return), then writes to
        OUT what the other side typed, a Return a newline, when no key
        came for a second.
"""
import os
import sys
import time

# The appendix: names for the special characters.  Return is "\n" there.
NAMES = {
    "braceleft": "{", "braceright": "}", "bracketleft": "[",
    "bracketright": "]", "parenleft": "(", "parenright": ")",
    "space": " ", "comma": ",", "period": ".", "greater": ">",
    "less": "<", "slash": "/", "backslash": "\\", "bar": "|",
    "quotedbl": '"', "quoteright": "'", "Tab": "\t", "equal": "=",
    "underscore": "_", "plus": "+", "minus": "-", "exclam": "!",
    "at": "@", "numbersign": "#", "dollar": "$", "percent": "%",
    "asterisk": "*", "asciicircum": "^", "asciitilde": "~",
    "quoteleft": "`", "ampersand": "&", "Return": "\n", "colon": ":",
    "semicolon": ";", "question": "?",
}
# The judge's erase key, as the 2012 logs name it (not in the appendix).
NAMES["BackSpace"] = "\b"
KEYS = {v: k for k, v in NAMES.items()}

last = 0


def press(d, ch, ext):
    """Create the directory of a key press."""
    global last
    now = int(time.time() * 1000)
    last = max(now, last + 1)
    name = ch if ch.isalnum() else KEYS[ch]
    os.mkdir(os.path.join(d, "%018d.%s.%s" % (last, name, ext)))


def take(d, ext):
    """The other side's key presses, in order, their directories deleted."""
    out = []
    for n in sorted(os.listdir(d)):
        if not n.endswith("." + ext):
            continue
        t, _, rest = n.partition(".")
        key = rest[:-len(ext) - 1]
        os.rmdir(os.path.join(d, n))
        out.append(key if len(key) == 1 else NAMES.get(key, "?"))
    return out


def entry(d, secs):
    line, said = "", []
    end = time.time() + secs
    while time.time() < end:
        for k in take(d, "judge"):
            if k == "\b":
                line = line[:-1]
            elif k == "\n" and line:
                said.append(line)
                line = ""
            elif k == "\n":
                if said:
                    for ch in "You said: " + " ".join(said) + "\n":
                        press(d, ch, "other")
                said = []
            else:
                line += k
        time.sleep(0.05)


def judge(d, out, text, secs):
    text = text.replace("\\b", "\b").replace("\\r", "\n")
    for ch in text:
        press(d, ch, "judge")
        time.sleep(0.02)
    got, quiet, end = "", 0, time.time() + secs
    while time.time() < end and quiet < 20:
        keys = take(d, "other")
        quiet = 0 if keys else quiet + 1 if got else 0
        got += "".join(keys)
        time.sleep(0.05)
    with open(out, "w") as f:
        f.write(got)


if __name__ == "__main__":
    if sys.argv[1] == "entry":
        entry(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 30)
    else:
        judge(sys.argv[2], sys.argv[3], sys.argv[4],
              float(sys.argv[5]) if len(sys.argv) > 5 else 30)
