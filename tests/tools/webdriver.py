#!/usr/bin/env python3
"""webdriver: a few W3C WebDriver calls (chromedriver, headless Debian
chromium) for the browser scenarios, with the standard library alone.

    from webdriver import Browser
    b = Browser(port)            # a session on chromedriver at port
    b.go(url); b.js("return ..."); b.wait_js("return ...", secs)
    b.screenshot(path); b.quit()
    b.size(390, 844)             # the window's size (a phone's)
    b.axe(axe_js)                # axe-core's serious and critical findings
    b.key("Tab")                 # a key pressed in the page
"""
import base64
import json
import time
import urllib.request


class Browser:
    """A headless chromium session on a running chromedriver."""

    def __init__(self, port, width=1280, height=900):
        self.base = "http://127.0.0.1:%d" % port
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage",
                         "--window-size=%d,%d" % (width, height)]}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        """One WebDriver command: its value."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data,
                                     method=method)
        req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=60) as r:
            reply = json.loads(r.read().decode())
        return reply.get("value")

    def go(self, url):
        """Load a page."""
        self.call("POST", "/session/%s/url" % self.sid, {"url": url})

    def js(self, script, *args):
        """Run a script in the page: what it returns."""
        return self.call("POST", "/session/%s/execute/sync" % self.sid,
                         {"script": script, "args": list(args)})

    def wait_js(self, script, secs, *args):
        """Run a script until it returns something true, for up to secs:
        (the value, the seconds it took), or (None, secs)."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < secs:
            v = self.js(script, *args)
            if v:
                return v, time.monotonic() - t0
            time.sleep(0.02)
        return None, secs

    def screenshot(self, path):
        """Keep a PNG of the window."""
        png = self.call("GET", "/session/%s/screenshot" % self.sid)
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))

    def js_async(self, script, *args):
        """Run a script that calls its last argument when done: the value
        it passed."""
        return self.call("POST", "/session/%s/execute/async" % self.sid,
                         {"script": script, "args": list(args)})

    def size(self, width, height):
        """Set the window's size (the viewport follows)."""
        self.call("POST", "/session/%s/window/rect" % self.sid,
                  {"width": width, "height": height})

    def key(self, key):
        """Press a key in the page ("Tab", "Enter", or a character)."""
        code = {"Tab": "\ue004", "Enter": "\ue007", "Shift": "\ue008",
                "Space": " "}.get(key, key)
        self.call("POST", "/session/%s/actions" % self.sid, {"actions": [{
            "type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": code},
                {"type": "keyUp", "value": code}]}]})
        self.call("DELETE", "/session/%s/actions" % self.sid)

    def axe(self, path):
        """Run axe-core (the file at path) on the page: its violations of
        impact serious or critical, each as "id: help (n nodes: targets)"."""
        with open(path) as f:
            self.js(f.read() + "\n;return true;")
        res = self.js_async(
            "var done = arguments[arguments.length - 1];"
            "axe.run(document).then(function (r) { done(r.violations); },"
            " function (e) { done([{id: 'axe', impact: 'critical', "
            "help: String(e), nodes: []}]); });")
        return ["%s: %s (%d nodes: %s)" % (v["id"], v["help"],
                len(v["nodes"]), ", ".join(str(n.get("target"))
                                           for n in v["nodes"][:5]))
                for v in res if v.get("impact") in ("serious", "critical")]

    def quit(self):
        """End the session."""
        self.call("DELETE", "/session/%s" % self.sid)
