#!/usr/bin/env python3
"""A web entry of the 2003 rules, for the tests of comprog web: an HTTP
server on 127.0.0.1 that takes a form post (field "input"), waits DELAY
seconds and answers with a page whose element id="reply" holds the
answer, counting the turns of each session (a cookie).

usage: webentry.py PORTFILE DELAY
(it binds a free port and writes its number to PORTFILE)
"""
import html
import http.server
import sys
import time
import urllib.parse

turns = {}


class Entry(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        form = urllib.parse.parse_qs(self.rfile.read(n).decode("utf-8"))
        said = form.get("input", [""])[0]
        sid = (self.headers.get("Cookie") or "").partition("sid=")[2]
        cookie = None
        if not sid:
            sid = str(len(turns) + 1)
            cookie = "sid=" + sid
        turns[sid] = turns.get(sid, 0) + 1
        time.sleep(float(sys.argv[2]))
        page = ("<html><head><title>Entry</title><style>p {}</style>"
                "</head><body><p>You wrote: %s</p>"
                "<div id=\"reply\">Echo: %s &amp; more (turn %d)</div>"
                "</body></html>" % (html.escape(said), html.escape(said),
                                    turns[sid]))
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        if cookie:
            self.send_header("Set-Cookie", cookie)
        self.end_headers()
        self.wfile.write(page.encode("utf-8"))

    def log_message(self, fmt, *args):
        pass


srv = http.server.HTTPServer(("127.0.0.1", 0), Entry)
with open(sys.argv[1], "w") as f:
    f.write(str(srv.server_address[1]))
srv.serve_forever()
