# Shared helpers for the integration scenarios (POSIX sh, sourced), and
# the common part of the lab's (tests/lab/lib.sh sources this file).
# Each scenario gets a private directory $T (named after $T_NAME), and
# every process it starts in the background is stopped when it exits.
set -u
B=${B:-build}
ROOT=$(pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/${T_NAME:-muxd-test}.XXXXXX")
# Programs on exec: ports run as the entries' own user (muxd-entry, or
# nobody), never as root: the scripts a scenario writes for them must be
# theirs to read and run.
[ "$(id -u)" = 0 ] && chmod 755 "$T"
PIDS=
MUXD_PID=
TOOLS=$ROOT/$B/tests/tools
MUXD=$ROOT/$B/muxd/muxd
MUXCTL=$ROOT/$B/muxctl/muxctl
SOCK=$T/ctl.sock
# tmux: a server of the scenario's own (under $T), which another
# scenario run alongside, killing its server, cannot take down.
export TMUX_TMPDIR="$T"
unset TMUX

# Stop every background process and remove the scenario's directory.
cleanup() {
	for p in $PIDS $MUXD_PID; do kill "$p" 2>/dev/null; done
	sleep 0.1
	for p in $PIDS $MUXD_PID; do kill -9 "$p" 2>/dev/null; done
	[ -S "$T/tmux-$(id -u)/default" ] && tmux kill-server 2>/dev/null
	_sanitized=0
	if sanitizer_said; then
		echo "FAIL: a sanitizer reported errors:" >&2
		sanitizer_said show >&2
		_sanitized=1
	fi
	if [ -n "${KEEP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi
	[ "$_sanitized" = 0 ] || exit 1
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Whether a sanitizer reported errors in any file of the scenario so far
# (muxd's log, the output of a muxd run apart, muxweb's, comprog's): an
# AddressSanitizer "==PID==ERROR: ...Sanitizer" or an UBSan "FILE.c:LINE:
# COL: runtime error: " (neither pattern matches its own text, so a copy
# of this file in the scenario's directory is no report); with "show",
# print the reports, each file's name first.
SANITIZER_RE='==[0-9]+==ERROR: [A-Za-z]+Sanitizer|\.[ch]:[0-9]+:[0-9]+: runtime error: '
sanitizer_said() {
	_files=$(grep -rIlE --exclude-dir='org.chromium.*' "$SANITIZER_RE" "$T" 2>/dev/null)
	[ -n "$_files" ] || return 1
	[ "${1:-}" = show ] || return 0
	for _f in $_files; do
		echo "$_f:"
		grep -A20 -E "$SANITIZER_RE" "$_f" | head -60
	done
}

# Start muxd's log afresh (for a muxd started again), first failing the
# scenario if a sanitizer reported errors in the ones before.
log_reset() {
	sanitizer_said && fail "a sanitizer reported errors: $(sanitizer_said show)"
	: >"$T/muxd.log"
}

# Fail the scenario with a message saying what was expected, then what
# muxd logged; a library sourcing this one may name a function in
# FAIL_REPORT that tells more.
fail() {
	echo "FAIL: $*" >&2
	if [ -f "$T/muxd.log" ]; then
		echo "--- muxd log (last 30 lines):" >&2
		tail -30 "$T/muxd.log" >&2
	fi
	${FAIL_REPORT:-:}
	exit 1
}

# Run a command in the background, remembering it for cleanup.
bg() {
	"$@" &
	PIDS="$PIDS $!"
	LAST_PID=$!
}

# Wait until a shell condition holds, up to $2 seconds (default 10).
wait_for() {
	_n=$(( ${2:-10} * 20 ))
	while [ "$_n" -gt 0 ]; do
		eval "$1" >/dev/null 2>&1 && return 0
		sleep 0.05
		_n=$((_n - 1))
	done
	return 1
}

# Make a cable: a pty pair, muxd's end at $T/NAME.dev, the test's at $T/NAME.
cable() {
	bg socat pty,raw,echo=0,link="$T/$1.dev" pty,raw,echo=0,link="$T/$1"
	eval "CABLE_$(echo "$1" | tr -c 'A-Za-z0-9\n' _)=$LAST_PID"
	wait_for "[ -e '$T/$1.dev' ] && [ -e '$T/$1' ]" 5 ||
		fail "socat did not create the pty pair $1"
}

# Pull a cable out: its socat ends and both ends vanish.
unplug() {
	eval "_p=\$CABLE_$(echo "$1" | tr -c 'A-Za-z0-9\n' _)"
	kill "$_p"
	wait_for "[ ! -e '$T/$1' ]" 5 || fail "cable $1 did not go away"
}

# Start muxd with arguments in the background, logging to $T/muxd.log,
# without waiting for it to be ready.  With MUXD_WRAP, muxd runs as the
# child of that command (such as strace -o FILE); muxd_stop waits for the
# command once muxd is gone.  With MUXD_WRAP, or MUXD_TRACED=1 (a tracer
# attaches later, strace -p), muxd runs without LeakSanitizer, which
# cannot work under ptrace.
WRAP_PID=
muxd_spawn() {
	_asan=${ASAN_OPTIONS-}
	[ -n "${MUXD_WRAP:-}${MUXD_TRACED:-}" ] &&
		_asan="${_asan:+$_asan:}detect_leaks=0"
	if [ -z "${MUXD_WRAP:-}" ]; then
		ASAN_OPTIONS=$_asan "$MUXD" -v "$@" >>"$T/muxd.log" 2>&1 &
		MUXD_PID=$!
		return
	fi
	# shellcheck disable=SC2086
	ASAN_OPTIONS=$_asan $MUXD_WRAP "$MUXD" -v "$@" >>"$T/muxd.log" 2>&1 &
	WRAP_PID=$!
	PIDS="$PIDS $WRAP_PID"
	wait_for "pgrep -P $WRAP_PID" 10 || fail "no muxd under $MUXD_WRAP"
	MUXD_PID=$(pgrep -P "$WRAP_PID")
}

# Start muxd with arguments, as muxd_spawn does, and wait until it runs.
muxd_start() {
	_runs=$(grep -c ' running, ' "$T/muxd.log" 2>/dev/null || true)
	muxd_spawn "$@"
	wait_for "[ \$(grep -c ' running, ' '$T/muxd.log') -gt ${_runs:-0} ]" 20 ||
		fail "muxd did not start"
	kill -0 "$MUXD_PID" 2>/dev/null || fail "muxd exited at start-up"
}

# Stop muxd with a signal (default TERM) and wait until it is gone.
muxd_stop() {
	kill "-${1:-TERM}" "$MUXD_PID" 2>/dev/null
	wait_for "! kill -0 $MUXD_PID" 10 || fail "muxd did not stop"
	wait "${WRAP_PID:-$MUXD_PID}" 2>/dev/null
	MUXD_PID= WRAP_PID=
}

# Send text at one terminal and expect it at another, or fail with why
# (default: that it did not get there).
relay() {
	tty "$1" "send:$3" >/dev/null
	tty "$2" "expect:$3" >/dev/null || fail "${4:-"$3" did not go from $1 to $2}"
}

# Fault injection (tests/tools/faultsim.so): set SO to the library, to
# preload with FAULTSIM=..., and let a muxd built with AddressSanitizer
# take a preloaded library after it.
faultsim_use() {
	SO=$ROOT/$B/tests/tools/faultsim.so
	[ -f "$SO" ] || fail "faultsim.so is not built (make $B/tests/tools/faultsim.so)"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
}

# sd_notify to a socket of ours, $T/notify.sock (muxd's NOTIFY_SOCKET):
# its datagrams are kept end to end in $T/notify.
notify_listen() {
	bg socat -u "UNIX-RECV:$T/notify.sock" "OPEN:$T/notify,creat,append"
	wait_for "[ -S '$T/notify.sock' ]" 5 || fail "no notify socket"
}

# The last status line muxd sent to $T/notify.
notify_last() {
	sed 's/\(READY=1\|RELOADING=1\|STOPPING=1\|STATUS=\)/\n\1/g' "$T/notify" |
	    grep -a '^STATUS=' | tail -1
}

# Make every save of the room's state ($T/state) fail, or work again: a
# directory where its temporary file goes.
state_block() {
	mkdir -p "$T/state/state.json.tmp"
	touch "$T/state/state.json.tmp/keep"
}
state_unblock() { rm -r "$T/state/state.json.tmp"; }

# Thirty long lines each way between the judge's terminal $J and the
# entry's line e1, each forwarded, or fail saying so after the prefix
# $1: lines enough to need the recordings' next pages (a tmpfs file
# writes into the page it has, full or not), to meet a full disk.
talk_long() {
	_long=$(printf '%060d' 0 | tr 0 x) _i=0
	while [ "$_i" -lt 30 ]; do
		_i=$((_i + 1))
		relay "$J" "$T/e1" "FULL judge $_i $_long\\r" "${1:-}line $_i not forwarded"
		relay "$T/e1" "$J" "FULL entry $_i $_long\\r\\n" "${1:-}line $_i not forwarded"
	done
}

# Run muxctl against the scenario's daemon.
mctl() {
	"$MUXCTL" -s "$SOCK" "$@"
}

# Print a field of a port's status (jq path after the port object).
port_field() {
	mctl -j status | jq -r ".ports[] | select(.name == \"$1\") | .$2"
}

# Wait until a port is in a state.
wait_port() {
	wait_for "[ \"\$(port_field '$1' state)\" = '$2' ]" "${3:-10}" ||
		fail "port $1 not $2 (it is $(port_field "$1" state))"
}

# Write a room configuration to $T/room.conf from standard input.
room() {
	cat >"$T/room.conf"
}

# Play a terminal end: ttyio with a timeout.
tty() {
	"$TOOLS/ttyio" -t "${TTY_TIMEOUT:-5000}" "$@"
}

# Print a TCP port on loopback that no socket uses, below the kernel's
# range for outgoing connections (32768 up), which may take one meanwhile.
# Under tests/run, which runs scenarios side by side, each scenario has
# its own range of 100 ports from TEST_PORTS, so that two scenarios never
# pick the same one; alone, it starts at a random port.
free_port() {
	if [ -n "${TEST_PORTS:-}" ]; then
		_p=$TEST_PORTS
	else
		_p=$(( 20000 + ($$ * 7 + $(date +%N | sed 's/^0*//;s/^$/0/') ) % 12000 ))
	fi
	while ss -Hatn "sport = :$_p" 2>/dev/null | grep -q . ||
	    [ -e "$T/port.$_p" ]; do
		_p=$((_p + 1))
	done
	[ -z "${TEST_PORTS:-}" ] || [ "$_p" -lt $((TEST_PORTS + 100)) ] ||
		fail "no free port left in $TEST_PORTS-$((TEST_PORTS + 99))"
	: >"$T/port.$_p"
	echo "$_p"
}

# Write the 2004 Final Four room, every line a pty muxd creates under $T:
# terminals j1l j1r ... j4r, entries e1..e4, confederates c1..c4.  The
# stations, entities and ports are listed in the order $ROOM_ORDER (of
# 1 2 3 4); the schedule is the loebner2004 preset, or $SCHEDULE.
room2004() {
	_order=${ROOM_ORDER:-1 2 3 4}
	_last=${_order##* }
	{
	echo "control = \"$SOCK\"; state = \"$T/state\";"
	echo "ports = ("
	for i in $_order; do
		echo "{ name = \"j${i}l\"; address = \"pty:$T/j${i}l\"; },"
		echo "{ name = \"j${i}r\"; address = \"pty:$T/j${i}r\"; },"
		echo "{ name = \"e$i\"; address = \"pty:$T/e$i\"; },"
		[ $i = "$_last" ] && sep= || sep=,
		echo "{ name = \"c$i\"; address = \"pty:$T/c$i\"; }$sep"
	done
	echo "); stations = ("
	for i in $_order; do
		[ $i = "$_last" ] && sep= || sep=,
		echo "{ name = \"J$i\"; judge = $i; left = \"j${i}l\"; right = \"j${i}r\"; }$sep"
	done
	echo "); entities = ("
	for i in $_order; do
		echo "{ name = \"E$i\"; kind = \"entry\"; port = \"e$i\"; approved = \"Entry$i\"; },"
		[ $i = "$_last" ] && sep= || sep=,
		echo "{ name = \"C$i\"; kind = \"confederate\"; port = \"c$i\"; approved = \"Human$i\"; }$sep"
	done
	echo ");"
	if [ -n "${SCHEDULE:-}" ]; then
		echo "$SCHEDULE"
	else
		echo "schedule = { preset = \"loebner2004\"; seed = ${SEED:-2004}; duration = ${DURATION:-0}; };"
	fi
	} >"$T/room.conf"
}

# Send each of the ptys $T/PORT about 40 KB of text (base64 of random
# bytes), all at once, and wait until every one was written.
send_bulk() {
	_w=
	for _p; do
		head -c 30000 /dev/urandom | base64 >"$T/$_p" &
		_w="$_w $!"
	done
	# shellcheck disable=SC2086
	wait $_w
}

# Print the port of an entity (E1 -> e1) or of a station's side (J1 left -> j1l).
eport() { echo "$1" | tr 'EC' 'ec'; }
sport() { echo "j$(echo "$1" | tr -d 'J')$(echo "$2" | cut -c1)"; }

# Write a one-station room: J1 (judge 7, terminals j1l and j1r) compares
# E1 (entry, approved "Ada") with C1 (confederate, approved "Bob"), every
# line a pty muxd creates (with CABLES=1, the cables $T/NAME.dev: make
# them with cable); rounds 1 and 2 both meet them.  Extra settings:
# $STATION (in J1), $ENTRY (in E1), $CONFED (in C1), $RULES (top level),
# $SCHEDULE_EXTRA (in the schedule).
room1() {
	_a() { [ -n "${CABLES:-}" ] && echo "$T/$1.dev" || echo "pty:$T/$1"; }
	cat >"$T/room.conf" <<EOC
control = "$SOCK"; state = "$T/state";
${RULES:-}
ports = (
  { name = "j1l"; address = "$(_a j1l)"; },
  { name = "j1r"; address = "$(_a j1r)"; },
  { name = "e1"; address = "$(_a e1)"; },
  { name = "c1"; address = "$(_a c1)"; }
);
stations = ( { name = "J1"; judge = 7; left = "j1l"; right = "j1r"; ${STATION:-} } );
entities = ( { name = "E1"; kind = "entry"; port = "e1"; approved = "Ada"; ${ENTRY:-} },
             { name = "C1"; kind = "confederate"; port = "c1"; approved = "Bob"; ${CONFED:-} } );
schedule = { rounds = ( { round = 1; pairs = ( ("J1", "E1", "C1") ); },
                        { round = 2; pairs = ( ("J1", "E1", "C1") ); } ); seed = 5;
             ${SCHEDULE_EXTRA:-} };
EOC
}

# After round 1, the screen (vtscreen) of "transcripts export --screen" of
# the capture of an entity's conversation at J1 into FILE; the capture's
# path in $cap.
export_screen() {
	cap=$(ls "$T"/state/captures/round01-J1-*.cast | while read -r c; do
		grep -q "\"$1\"" "$c" && echo "$c"; done)
	[ -n "$cap" ] || fail "no capture of $1's conversation"
	"$ROOT/$B/transcripts/transcripts" export --screen -o "$T/export.cast" \
	    "$cap" || fail "export --screen failed"
	tail -n +2 "$T/export.cast" | jq -rj 'select(.[1] == "o") | .[2]' \
	    >"$T/export.bytes"
	"$TOOLS/vtscreen" "$T/export.bytes" >"$2" || fail "vtscreen failed"
}

# After a round started, the judge terminal facing an entity (E1 -> $T/j1l).
facing() {
	echo "$T/j1$(mctl -j status | jq -r ".links[] | select(.entity == \"$1\") | .side" | cut -c1)"
}

# Stream muxd's events into $T/events (muxctl -j watch) from now on.
watch_events() {
	mctl -j watch >"$T/events" &
	PIDS="$PIDS $!"
	wait_for "[ -e '$T/events' ]" 5
	sleep 0.3
}

# Start a round of the room, failing the scenario if it does not start.
round_start() {
	mctl round start "$1" >/dev/null || fail "round $1 did not start"
}

# comprog in tmux.  cp_run NAME COMMAND... runs COMMAND in a new 80x24
# tmux session NAME-$$, killed when the scenario ends; when the command
# ends, "comprog-exit=STATUS" is written on the pane.
COMPROG=$ROOT/$B/comprog/comprog
CP_SESSIONS=
cp_run() {
	_s=$1-$$; shift
	tmux kill-session -t "$_s" 2>/dev/null
	tmux new-session -d -s "$_s" -x 80 -y 24 "$*; echo comprog-exit=\$?; sleep 300" ||
		fail "tmux could not start session $_s"
	CP_SESSIONS="$CP_SESSIONS $_s"
	trap 'for _s in $CP_SESSIONS; do tmux kill-session -t "$_s" 2>/dev/null; done; cleanup' EXIT
}

# Print the screen of a session; type text in it; press keys (Enter, C-]).
cp_screen() { tmux capture-pane -p -t "$1-$$"; }
cp_type() { tmux send-keys -t "$1-$$" -l "$2"; }
cp_key() { _s=$1-$$; shift; tmux send-keys -t "$_s" "$@"; }

# Wait until a session's screen matches an extended regular expression
# (up to $3 seconds, default 5), or fail with $4 and the screen.
cp_wait() {
	wait_for "cp_screen '$1' | grep -qE -- '$2'" "${3:-5}" ||
		fail "${4:-session $1 does not show '$2'}; it shows:
$(cp_screen "$1")"
}

# muxweb on the room's socket and a free loopback port ($W, its pid
# $WEB), with the room's token ($WTOKEN, in $T/web.token) and ARGS;
# wcurl is curl with the token.
muxweb_start() {
	W=$(free_port)
	WTOKEN=a-token-for-the-tests-0123456789
	printf '%s\n' "$WTOKEN" >"$T/web.token"
	bg "$ROOT/$B/muxweb/muxweb" -s "$SOCK" -l "$W" -t "$T/web.token" "$@"
	WEB=$LAST_PID
}
wcurl() { curl -H "Authorization: Bearer $WTOKEN" "$@"; }

# A browser test: chromedriver (headless Debian chromium) is started,
# and the Python program on standard input runs with the arguments: the
# driver's port, the screenshot's path (build/test-logs/NAME.png), then
# ARGS; its output is shown, and the scenario fails if it fails or keeps
# no screenshot.  tests/tools/webdriver.py gives it a Browser.
#   browser_run NAME ARGS... <<'EOP'
browser_run() {
	_name=$1; shift
	for _c in chromium chromedriver python3; do
		command -v $_c >/dev/null 2>&1 ||
			fail "$_c is not installed (apt-get install chromium chromium-driver python3)"
	done
	if [ -z "${BROWSER_PORT:-}" ]; then
		BROWSER_PORT=$(free_port)
		TMPDIR=$T chromedriver --port="$BROWSER_PORT" >>"$T/chromedriver.log" 2>&1 &
		PIDS="$PIDS $!"
		wait_for "curl -sf http://127.0.0.1:$BROWSER_PORT/status >/dev/null" 10 ||
			fail "chromedriver did not start: $(cat "$T/chromedriver.log")"
	fi
	mkdir -p "$ROOT/$B/test-logs"
	rm -f "$ROOT/$B/test-logs/$_name.png"
	PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$ROOT/tests/tools python3 - \
	    "$BROWSER_PORT" \
	    "$ROOT/$B/test-logs/$_name.png" "$@" >"$T/browser.out" 2>&1 ||
		fail "the browser test failed: $(cat "$T/browser.out")"
	cat "$T/browser.out"
	[ -s "$ROOT/$B/test-logs/$_name.png" ] || fail "no screenshot kept"
}
