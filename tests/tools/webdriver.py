#!/usr/bin/env python3
"""webdriver: a few W3C WebDriver calls (chromedriver, headless Debian
chromium) for the browser scenarios, with the standard library alone.

    from webdriver import Browser
    b = Browser(port)            # a session on chromedriver at port
    b.go(url); b.js("return ..."); b.wait_js("return ...", secs)
    b.screenshot(path); b.quit()
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

    def quit(self):
        """End the session."""
        self.call("DELETE", "/session/%s" % self.sid)
