# muxweb lets in only those given the room's link.  Without the token
# every page, stream, file and command is 401, and the pages say how to
# come in; the login link sets a cookie (HttpOnly, SameSite=Strict) that
# opens them, and sends the browser on to a page of muxweb's only; a
# bearer header opens them too; a wrong token opens nothing.  Without a
# token file muxweb makes a token and prints the login link.  With -P the
# live page, its stream and the status are public, the audit and the
# commands are not.  Every reply says what a browser may do with it: a
# Content-Security-Policy naming the page's inline scripts by hash and
# nothing else, no framing, nosniff, no referrer.
# A connection that sends nothing, or a byte now and then, is closed
# after the idle time; an address gets so many connections and no more;
# under 3000 connections of one address and slowloris ones of another,
# the referee's request is answered.
# test: serial: it opens 3000 connections at once
. tests/integration/lib.sh

room1
muxd_start -f "$T/room.conf"
muxweb_start -a "$T/state/captures" -i 2
U=http://127.0.0.1:$W
wait_for "wcurl -sf $U/status >/dev/null" 5 || fail "muxweb does not answer"

# Without the token: nothing.
for p in / /status /events /audit /audit/list /audit/index \
    /audit/manifests /player/asciinema-player.min.js /nowhere; do
	code=$(curl -s -o "$T/body" -w '%{http_code}' --max-time 5 "$U$p")
	[ "$code" = 401 ] || fail "$p without the token: $code"
done
curl -s "$U/" | grep -q "login link" || fail "the page without the token does not say how to come in"
for p in "/round/start?n=1" /round/stop "/release?link=x"; do
	code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$U$p")
	[ "$code" = 401 ] || fail "POST $p without the token: $code"
done
[ "$(mctl -j status | jq -r .round.active)" = false ] || fail "a round started without the token"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer not-the-token-0123456789" "$U/status")
[ "$code" = 401 ] || fail "a wrong bearer token: $code"
code=$(curl -s -o /dev/null -w '%{http_code}' --cookie "muxweb=not-the-token-0123456789" "$U/status")
[ "$code" = 401 ] || fail "a wrong cookie: $code"

# The login link: a cookie, and on to the page asked for.
curl -s -D "$T/hdr" -o /dev/null -c "$T/jar" "$U/login?token=not-the-token-0123456789"
grep -q "^HTTP/1.1 403" "$T/hdr" || fail "a login with a wrong token: $(head -1 "$T/hdr")"
grep -qi "^set-cookie" "$T/hdr" && fail "a login with a wrong token set a cookie"
curl -s -D "$T/hdr" -o /dev/null -c "$T/jar" "$U/login?token=$WTOKEN&next=/audit"
grep -q "^HTTP/1.1 303" "$T/hdr" || fail "the login link: $(head -1 "$T/hdr")"
grep -qi "^location: /audit" "$T/hdr" || fail "the login link did not lead to /audit: $(cat "$T/hdr")"
grep -i "^set-cookie: muxweb=$WTOKEN" "$T/hdr" | grep -i "httponly" | grep -qi "samesite=strict" ||
	fail "the login's cookie: $(grep -i set-cookie "$T/hdr")"
curl -s -D "$T/hdr" -o /dev/null "$U/login?token=$WTOKEN&next=//evil.example/"
grep -qi "^location: /\s*$" "$T/hdr" || fail "the login link leads away from muxweb: $(grep -i location "$T/hdr")"
for p in / /status /audit /audit/list; do
	code=$(curl -s -o /dev/null -w '%{http_code}' -b "$T/jar" "$U$p")
	[ "$code" = 200 ] || fail "$p with the login's cookie: $code"
done
timeout 2 curl -sN -b "$T/jar" -D "$T/hdr" -o /dev/null "$U/events"
grep -q "^HTTP/1.1 200" "$T/hdr" || fail "the stream with the login's cookie: $(head -1 "$T/hdr")"

# What a browser may do: the page's own inline scripts, nothing else.
wcurl -s -D "$T/hdr" -o "$T/page" "$U/"
/usr/bin/python3 - "$T/hdr" "$T/page" <<'EOP' || fail "the live page's headers"
import base64, hashlib, re, sys
hdr = open(sys.argv[1]).read()
page = open(sys.argv[2], "rb").read()
h = {k.lower(): v.strip() for k, v in re.findall(r"^([^:\r\n]+):(.*)$", hdr, re.M)}
csp = h.get("content-security-policy", "")
want = ["'sha256-%s'" % base64.b64encode(hashlib.sha256(m).digest()).decode()
        for m in re.findall(rb"<script>(.*?)</script>", page, re.S)]
assert want, "the page has no inline script"
for w in want:
    assert w in csp, "the CSP lacks %s: %s" % (w, csp)
for w in ("default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"):
    assert w in csp, "the CSP lacks %s: %s" % (w, csp)
assert "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0], csp
assert h.get("x-content-type-options") == "nosniff", h
assert h.get("x-frame-options") == "DENY", h
assert h.get("referrer-policy") == "no-referrer", h
print("csp:", csp[:100], "...")
EOP
wcurl -s -D "$T/hdr" -o /dev/null "$U/status"
grep -qi "^content-security-policy: default-src 'none'; frame-ancestors 'none'" "$T/hdr" ||
	fail "the status's CSP: $(grep -i security "$T/hdr")"
grep -qi "^x-content-type-options: nosniff" "$T/hdr" || fail "the status is not nosniff"

# A made token: the link printed works.
W2=$(free_port)
bg "$ROOT/$B/muxweb/muxweb" -s "$SOCK" -l "$W2" 2>"$T/web2.err"
wait_for "grep -q 'login link' '$T/web2.err'" 5 || fail "muxweb without a token file printed no link: $(cat "$T/web2.err")"
link=$(sed -n 's/^muxweb: the referee.s login link: //p' "$T/web2.err")
case $link in
http://127.0.0.1:$W2/login?token=????????????????????????????????*) ;;
*) fail "the link printed: '$link'" ;;
esac
curl -s -o /dev/null -c "$T/jar2" "$link"
code=$(curl -s -o /dev/null -w '%{http_code}' -b "$T/jar2" "http://127.0.0.1:$W2/status")
[ "$code" = 200 ] || fail "the printed link's cookie: $code"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$W2/status")
[ "$code" = 401 ] || fail "muxweb with a made token let in a browser without it: $code"

# A public live page: the page, its stream and the status; no more.
W3=$(free_port)
bg "$ROOT/$B/muxweb/muxweb" -s "$SOCK" -l "$W3" -t "$T/web.token" -P \
    -a "$T/state/captures"
wait_for "curl -sf http://127.0.0.1:$W3/status >/dev/null" 5 || fail "a public muxweb does not answer"
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$W3/")
[ "$code" = 200 ] || fail "the public live page: $code"
timeout 2 curl -sN -D "$T/hdr" -o /dev/null "http://127.0.0.1:$W3/events"
grep -q "^HTTP/1.1 200" "$T/hdr" || fail "the public stream: $(head -1 "$T/hdr")"
for p in /audit /audit/list; do
	code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$W3$p")
	[ "$code" = 401 ] || fail "$p of a public room without the token: $code"
done
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$W3/round/start?n=1")
[ "$code" = 401 ] || fail "a command in a public room without the token: $code"

# Idle connections are closed: one that sends nothing, one that sends a
# byte at a time.
out=$(python3 tests/tools/webflood.py idle "$W" 20)
case $out in "closed after"*) ;; *) fail "a connection that sends nothing: $out" ;; esac
echo "idle: $out"
out=$(python3 tests/tools/webflood.py slowloris "$W" 20)
case $out in "closed after"*) ;; *) fail "a connection that sends a byte at a time: $out" ;; esac
echo "slowloris: $out"

# One address gets 20 connections; the rest are closed at once.
W4=$(free_port)
bg "$ROOT/$B/muxweb/muxweb" -s "$SOCK" -l "$W4" -t "$T/web.token" -c 20 -i 60
wait_for "wcurl -sf http://127.0.0.1:$W4/status >/dev/null" 5 || fail "muxweb -c 20 does not answer"
python3 tests/tools/webflood.py hold "$W4" 127.0.0.2 30 "$T/held" >/dev/null &
PIDS="$PIDS $!"
wait_for "[ -s '$T/held' ]" 20 || fail "the connections of one address were not counted"
[ "$(cat "$T/held")" = "kept 20 of 30" ] || fail "one address with -c 20: $(cat "$T/held")"
# A crowd of 3000 from one address, slowloris from another: the referee
# is answered.
SLOWLORIS=20 python3 tests/tools/webflood.py hold "$W4" 127.0.0.3 3000 "$T/crowd" >/dev/null &
PIDS="$PIDS $!"
wait_for "[ -s '$T/crowd' ]" 60 || fail "the crowd did not connect"
[ "$(cat "$T/crowd")" = "kept 20 of 3000" ] || fail "a crowd of one address: $(cat "$T/crowd")"
t0=$(date +%s%N)
code=$(wcurl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$W4/status")
t1=$(date +%s%N)
[ "$code" = 200 ] || fail "the referee under a crowd of 3000: $code"
echo "the referee under 3000 connections of one address: answered in $(( (t1 - t0) / 1000000 )) ms"
echo ok
