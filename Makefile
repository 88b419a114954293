# muxd: serial-line multiplexer for a Turing-test contest room.
# Targets: all check install deb demo rehearsal bench clean.  Honours PREFIX, DESTDIR,
# PKG_CONFIG, CC, CPPFLAGS, CFLAGS, LDFLAGS.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
SBINDIR = $(PREFIX)/sbin
MANDIR = $(PREFIX)/share/man
EXAMPLESDIR = $(PREFIX)/share/doc/muxd/examples
MUXWEB_PLAYERDIR = $(PREFIX)/share/muxweb/player
# System files go to the vendor directories under /usr, else to /etc.
ifeq ($(PREFIX),/usr)
SYSCONFDIR ?= /etc
SYSTEMDDIR ?= /usr/lib/systemd/system
SYSUSERSDIR ?= /usr/lib/sysusers.d
TMPFILESDIR ?= /usr/lib/tmpfiles.d
UDEVRULESDIR ?= /usr/lib/udev/rules.d
else
SYSCONFDIR ?= /etc
SYSTEMDDIR ?= /etc/systemd/system
SYSUSERSDIR ?= /etc/sysusers.d
TMPFILESDIR ?= /etc/tmpfiles.d
UDEVRULESDIR ?= /etc/udev/rules.d
endif
PKG_CONFIG ?= pkg-config
CC ?= cc

LIBS_PC = libevent jansson libserialport libconfig libpcre2-8 libftdi1 libsodium \
	libutf8proc
TEST_PC = cmocka

# The dependency check runs before anything is built; it installs missing
# Debian packages when run as root and names them otherwise.  The goals
# that build and drive the tests (cmocka, socat, tio...) check that set
# too, and bench its references (ser2net), before their prerequisites are
# made.
DEPS_SET := build
ifneq ($(filter check check-lab check-asan demo fuzz rehearsal,$(MAKECMDGOALS)),)
DEPS_SET := check
endif
ifneq ($(filter bench,$(MAKECMDGOALS)),)
DEPS_SET := bench
endif
ifneq ($(filter deb,$(MAKECMDGOALS)),)
DEPS_SET := deb
endif
DEPS_OK := $(shell sh mk/deps $(DEPS_SET) >&2 && echo ok)
ifneq ($(DEPS_OK),ok)
$(error missing Debian packages for $(DEPS_SET), see above)
endif

PC_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LIBS_PC))
# libgensio (rfc2217: lines): its .pc names the static link's libraries
# (libwrap, libnsl) that a shared link does not need, and Debian does not
# install with it.
PC_LIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_PC)) -lgensioosh -lgensio
WARN = -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	-Wpointer-arith -Wformat=2 -Wno-format-truncation
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CPPFLAGS) $(CFLAGS) $(PC_CFLAGS) -MMD -MP
VERSION = 0.1.0

B = build

# The layers, bottom up; each directory is a library or a program, and a
# directory's objects see the headers of the layers below it alone (the
# directories of one layer do not see each other):
#   text/         the 1996 convention, UTF-8, the judge's screen (libtext.a);
#                 it sees nothing of the project's
#   capture/      what muxd records with: captures, transcripts written,
#                 chains, signatures, manifests, the LPP logs
#                 (libcapture.a)
#   protocol/     the control protocol's tables, and what every program
#                 shares: its options, its allocations (libprotocol.a)
#   contest/      the contest's per-byte machines (libcontest.a)
#                 (these three are one layer, on text/)
#   score/        the ballots and the contests' scoring (libscore.a), on
#                 capture/
#   line/         addresses and ports, every kind of line (libline.a)
#                 (these two are one layer)
#   conf/         a room's configuration (libconf.a)
#   muxd/ muxctl/ muxweb/ comprog/ udev/ transcripts/   the programs
#                 (muxctl/ and muxweb/ see protocol/ alone: they speak the
#                 protocol; transcripts/ is the auditors' tool, its checks,
#                 libtranscripts.a, linked into it and into the tests alone)
# tests/integration/layers.sh checks it from the compiler's dependency files.
LIB_DIRS = text capture protocol contest score line conf
INC_text = -Itext
INC_capture = -Icapture -Itext
INC_protocol = -Iprotocol
INC_contest = -Icontest -Itext
INC_score = -Iscore -Icapture -Itext
INC_line = -Iline
INC_conf = -Iconf -Iline -Icontest -Iprotocol -Iscore -Icapture -Itext
INC_muxd = -Imuxd -Iline -Icontest -Iconf -Iprotocol -Iscore -Icapture -Itext
INC_muxctl = -Imuxctl -Iprotocol
INC_muxweb = -Imuxweb -Iprotocol
INC_comprog = -Icomprog -Iline -Icontest -Iconf -Iprotocol -Icapture -Itext
INC_udev = -Iudev -Iconf -Iline -Iprotocol
INC_transcripts = -Itranscripts -Iconf -Iline -Icontest -Iprotocol -Iscore \
	-Icapture -Itext
INC_ALL = -Iline -Icontest -Iconf -Iprotocol -Itranscripts -Iscore -Icapture \
	-Itext

LIB_TEXT := $(B)/text/libtext.a
LIB_CAPTURE := $(B)/capture/libcapture.a
LIB_SCORE := $(B)/score/libscore.a
LIB_PROTOCOL := $(B)/protocol/libprotocol.a
LIB_CONTEST := $(B)/contest/libcontest.a
LIB_LINE := $(B)/line/libline.a
LIB_CONF := $(B)/conf/libconf.a
# What links against conf: the configuration and the layers below it.
CONF_LIBS = $(LIB_CONF) $(LIB_LINE) $(LIB_CONTEST) $(LIB_PROTOCOL) \
	$(LIB_SCORE) $(LIB_CAPTURE) $(LIB_TEXT)

MUXD_SRCS := $(wildcard muxd/*.c)
MUXD_OBJS := $(MUXD_SRCS:%.c=$(B)/%.o)
MUXCTL_SRCS := $(wildcard muxctl/*.c)
# tests/tools/endpoint.c is linked into every test tool, not a tool itself;
# vtscreen (a terminal's screen, libvterm) and faultsim (system calls
# made to fail, LD_PRELOAD) are built for the tests alone.
TOOL_SRCS := $(filter-out tests/tools/endpoint.c tests/tools/vtscreen.c \
	tests/tools/faultsim.c,$(wildcard tests/tools/*.c)) \
	$(wildcard contrib/demo/*.c)
VTSCREEN := $(B)/tests/tools/vtscreen
FAULTSIM := $(B)/tests/tools/faultsim.so
TOOLS := $(TOOL_SRCS:%.c=$(B)/%)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNITS := $(UNIT_SRCS:%.c=$(B)/%)
# The text and capture libraries, the transcripts tool and its checks
# (every transcripts/*.c but the tool's own files, libtranscripts.a, for
# the tool and the tests); libFuzzer harnesses when clang is there.
TEXT_SRCS := $(wildcard text/*.c)
CAP_SRCS := $(wildcard capture/*.c)
TX_TOOL_SRCS := transcripts/transcripts.c $(wildcard transcripts/cmd-*.c)
TX_LIB_SRCS := $(filter-out $(TX_TOOL_SRCS),$(wildcard transcripts/*.c))
TX_LIB := $(B)/transcripts/libtranscripts.a
TX_PROG := $(B)/transcripts/transcripts
CLANG := $(shell command -v clang 2>/dev/null)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS := $(if $(CLANG),$(FUZZ_SRCS:%.c=$(B)/%))

PROGS = $(B)/muxd/muxd $(B)/muxctl/muxctl
# udev rules for the adapters, and muxd-udev, which writes a room's
# stable names from its configuration.
UDEV_PROG := $(B)/udev/muxd-udev
UDEV_RULES := udev/60-muxd.rules udev/63-muxd-spare.rules
PROGS += $(UDEV_PROG)
PROGS += $(TX_PROG)
# muxweb, the browser's view of the room: it speaks the protocol, serves
# HTTP with libmicrohttpd, and its page (muxweb/live.html) is built in.
MUXWEB_SRCS := $(wildcard muxweb/*.c)
MUXWEB := $(B)/muxweb/muxweb
PROGS += $(MUXWEB)
# comprog, the matching communications program: comprog/*.c with the line
# library, the contest's byte machines, the configuration's include
# reader (its profiles) and the capture library; curses draws its
# screen, and libcurl reaches the web entries of the 2003 rules.
CURSES_PC = ncursesw libcurl
COMPROG_SRCS := $(wildcard comprog/*.c)
COMPROG := $(B)/comprog/comprog
PROGS += $(COMPROG)

all: $(PROGS) $(TOOLS) web-player-try

# The directories the programs name (muxd its examples, muxctl the
# installed muxd, muxweb the player and transcripts) are compiled in from
# the variables above; $(B)/paths.stamp holds them and is rewritten when
# they change, so that "make install PREFIX=..." recompiles what names
# them, whatever was built before.
PATHS = $(SBINDIR) $(BINDIR) $(EXAMPLESDIR) $(MUXWEB_PLAYERDIR)
PATHS_STAMP = $(B)/paths.stamp
$(PATHS_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(PATHS)' | cmp -s - $@ || echo '$(PATHS)' >$@
FORCE:

# Every object sees its own directory's layer and those below it.
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_$(firstword $(subst /, ,$*))) \
		-DMUXD_VERSION='"$(VERSION)"' -c -o $@ $<

$(foreach d,$(LIB_DIRS),$(eval \
$(B)/$(d)/lib$(d).a: $$(patsubst %.c,$(B)/%.o,$$(wildcard $(d)/*.c)) ; \
	rm -f $$@ && $$(AR) rcs $$@ $$^))

# muxd syncs its recordings in a thread (muxd/record-sync.c).
# It tells systemd when it is ready, and its status (muxd/notify.c).
$(B)/muxd/muxd: $(MUXD_OBJS) $(CONF_LIBS)
	$(CC) $(LDFLAGS) -pthread -o $@ $^ $(PC_LIBS) \
		$(shell $(PKG_CONFIG) --libs libsystemd) -lutil

# muxd names the example rooms when there is no configuration.
$(B)/muxd/muxd.o: ALL_CFLAGS += -DMUXD_EXAMPLES='"$(EXAMPLESDIR)"'
$(B)/muxd/muxd.o: $(PATHS_STAMP)

# muxctl speaks the protocol and links nothing of the daemon; "ports
# --local" runs the installed muxd.  "witness" signs a manifest in
# minisign's format with libsodium itself (muxctl/muxctl-witness.c): the
# capture library's signing is below the daemon's layers, not muxctl's.
$(B)/muxctl/muxctl.o: ALL_CFLAGS += -DMUXCTL_MUXD='"$(SBINDIR)/muxd"'
$(B)/muxctl/muxctl.o: $(PATHS_STAMP)

$(B)/muxctl/muxctl: $(MUXCTL_SRCS:%.c=$(B)/%.o) $(LIB_PROTOCOL)
	$(CC) $(LDFLAGS) -o $@ $^ $(shell $(PKG_CONFIG) --libs jansson libsodium)

# The pages are built in: each muxweb/NAME.html as muxweb_page_NAME.
MUXWEB_PAGES := muxweb/live.html muxweb/audit.html
$(B)/muxweb/muxweb-page.c: $(MUXWEB_PAGES)
	@mkdir -p $(dir $@)
	{ echo '/* The pages of muxweb, from muxweb/NAME.html (make). */'; \
	  echo '#include "muxweb.h"'; \
	  for f in $(MUXWEB_PAGES); do \
	    n=$$(basename $$f .html); \
	    echo "const char muxweb_page_$$n[] ="; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' \
	      -e 's/$$/\\n"/' $$f; \
	    echo ';'; \
	  done; } >$@

# The audit page plays captures with asciinema-player, from the npm
# registry (make web-player), installed beside muxweb, never in the tree.
# "make" fetches it too when npm reaches the registry, and says so when
# not; NPM= leaves it out, PLAYER=DIR takes it from a directory.
PLAYER_VERSION = 3.17.0
PLAYER = $(B)/npm/node_modules/asciinema-player/dist/bundle
NPM = npm
PLAYER_MISSING = asciinema-player is missing: muxweb's audit page will \
	play no capture; add it with "make web-player" (npm, the npm \
	registry), then "make install" again
$(B)/muxweb/muxweb.o: ALL_CFLAGS += \
	-DMUXWEB_PLAYER='"$(MUXWEB_PLAYERDIR)"' \
	-DMUXWEB_TRANSCRIPTS='"$(BINDIR)/transcripts"'
$(B)/muxweb/muxweb.o: $(PATHS_STAMP)
$(B)/npm/node_modules/asciinema-player/dist/bundle/asciinema-player.min.js:
	@mkdir -p $(B)/npm
	npm install --no-audit --no-fund --silent --prefix $(B)/npm \
		asciinema-player@$(PLAYER_VERSION)
# The browser tests check the pages' accessibility with axe-core, from
# the npm registry too, into build/ alone; without the registry they say
# they skip that check.
AXE_VERSION = 4.10.2
AXE := $(B)/npm/node_modules/axe-core/axe.min.js
$(AXE):
	@mkdir -p $(B)/npm
	-npm install --no-audit --no-fund --silent --prefix $(B)/npm \
		axe-core@$(AXE_VERSION) || \
		echo "axe-core: not fetched; the browser tests skip its check"
web-player: $(PLAYER)/asciinema-player.min.js $(AXE)
# check needs no registry: it tries for the player (web-player-try, by
# all) and axe-core (axe-try) and goes on without them; the scenarios
# that need them skip, saying so.
check: axe-try
axe-try:
	@if [ -f $(AXE) ]; then :; \
	elif [ -z "$(NPM)" ] || ! command -v $(NPM) >/dev/null 2>&1; then \
		echo "make: axe-core is missing: the browser tests skip its check (npm is not installed)"; \
	elif ! $(NPM) install --no-audit --no-fund --silent \
	    --fetch-retries=0 --fetch-timeout=20000 --prefix $(B)/npm \
	    axe-core@$(AXE_VERSION) >/dev/null 2>&1 || [ ! -f $(AXE) ]; then \
		echo "make: axe-core is missing: the browser tests skip its check (npm did not reach the registry)"; \
	fi
web-player-try:
	@if [ -f $(PLAYER)/asciinema-player.min.js ]; then :; \
	elif [ -z "$(NPM)" ] || ! command -v $(NPM) >/dev/null 2>&1; then \
		echo "make: $(PLAYER_MISSING) (npm is not installed)"; \
	elif ! $(NPM) install --no-audit --no-fund --silent \
	    --fetch-retries=0 --fetch-timeout=20000 --prefix $(B)/npm \
	    asciinema-player@$(PLAYER_VERSION) >/dev/null 2>&1 || \
	    [ ! -f $(PLAYER)/asciinema-player.min.js ]; then \
		echo "make: $(PLAYER_MISSING) (npm did not reach the registry)"; \
	fi

$(B)/muxweb/muxweb-page.o: $(B)/muxweb/muxweb-page.c
	$(CC) $(ALL_CFLAGS) $(INC_muxweb) -c -o $@ $<

$(MUXWEB): $(MUXWEB_SRCS:%.c=$(B)/%.o) $(B)/muxweb/muxweb-page.o \
    $(LIB_PROTOCOL)
	$(CC) $(LDFLAGS) -pthread -o $@ $^ \
		$(shell $(PKG_CONFIG) --libs jansson libmicrohttpd libsodium)

$(VTSCREEN): $(B)/tests/tools/vtscreen.o
	$(CC) $(LDFLAGS) -o $@ $^ $(shell $(PKG_CONFIG) --libs vterm)

# Not under the sanitizers: it is preloaded into programs built without.
$(FAULTSIM): tests/tools/faultsim.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O1 -g -fPIC -shared -o $@ $< -ldl

$(B)/tests/tools/%: $(B)/tests/tools/%.o $(B)/tests/tools/endpoint.o
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lutil

$(B)/contrib/demo/%: $(B)/contrib/demo/%.o
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lutil

$(UDEV_PROG): $(B)/udev/muxd-udev.o $(CONF_LIBS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS)

$(COMPROG_SRCS:%.c=$(B)/%.o): ALL_CFLAGS += \
	$(shell $(PKG_CONFIG) --cflags $(CURSES_PC))
$(COMPROG): $(COMPROG_SRCS:%.c=$(B)/%.o) $(CONF_LIBS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS) \
		$(shell $(PKG_CONFIG) --libs $(CURSES_PC)) -lutil

$(TX_LIB): $(TX_LIB_SRCS:%.c=$(B)/%.o)
	rm -f $@ && $(AR) rcs $@ $^

$(TX_PROG): $(TX_TOOL_SRCS:%.c=$(B)/%.o) $(TX_LIB) $(CONF_LIBS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS)

# A fuzzer is built from its harness and the libraries' sources (text,
# capture and the transcripts tool's checks) with clang.
FUZZ_CC = $(CLANG) -std=c11 -D_GNU_SOURCE -g -O1 \
	-fsanitize=fuzzer,address,undefined $(INC_ALL) $(PC_CFLAGS)
$(B)/tests/fuzz/%: tests/fuzz/%.c $(TX_LIB_SRCS) $(CAP_SRCS) $(TEXT_SRCS) \
    transcripts/transcripts.h capture/capture.h capture/lpp.h text/text.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -o $@ $< $(TX_LIB_SRCS) $(CAP_SRCS) $(TEXT_SRCS) $(PC_LIBS)

# comprog's harness is built from its byte state machines and judgeterm.
$(B)/tests/fuzz/fuzz_comprog: tests/fuzz/fuzz_comprog.c comprog/echo.c \
    comprog/pane.c contest/judgeterm.c $(TEXT_SRCS) \
    comprog/comprog.h contest/contest.h text/text.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Icomprog -o $@ $(filter %.c,$^) $(PC_LIBS)

# The harnesses of the pure modules are built from the file each tests
# (addresses, the control filter, the opening assertion).
$(B)/tests/fuzz/fuzz_addr: tests/fuzz/fuzz_addr.c line/addr.c line/line.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -o $@ $(filter %.c,$^) $(PC_LIBS)
CONTEST_FUZZERS := $(patsubst %,$(B)/tests/fuzz/fuzz_%,assertion)
$(CONTEST_FUZZERS): $(B)/tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c contest/%.c \
    text/utf8.c contest/contest.h text/text.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -o $@ $(filter %.c,$^) $(PC_LIBS)

# The configuration's harness is built from the configuration and the
# layers below it, as the unit tests are (the capture library's key
# reading for witness_key).
$(B)/tests/fuzz/fuzz_conf: tests/fuzz/fuzz_conf.c $(wildcard conf/*.c) \
    line/addr.c $(wildcard contest/*.c) protocol/protocol.c $(TEXT_SRCS) \
    score/score.c score/score-check.c capture/finding.c capture/sign.c \
    capture/cap-error.c capture/cap-file.c $(wildcard conf/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -o $@ $(filter %.c,$^) $(PC_LIBS)

fuzz: $(FUZZERS)
	@sh tests/fuzz/run $(B) 20 $(FUZZERS)

# The tool's checks (libtranscripts.a) go before the libraries they use.
$(B)/tests/unit/%: tests/unit/%.c $(TX_LIB) $(CONF_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_ALL) -o $@ $(filter %.c %.o,$^) \
		$(filter %.a,$^) $(PC_LIBS) $(UNIT_LIBS) \
		$(shell $(PKG_CONFIG) --cflags --libs $(TEST_PC)) -lutil

# The line library's allocations are made to fail (calloc wrapped).
$(B)/tests/unit/test_port: UNIT_LIBS = -Wl,--wrap=calloc

# The judge's screen is checked against a terminal emulator (libvterm).
$(B)/tests/unit/test_view: UNIT_LIBS = $(shell $(PKG_CONFIG) --cflags --libs vterm)

# Fixtures shared by unit tests (tests/unit/fixture-*.c), each linked
# into the tests that use it.
$(B)/tests/unit/fixture-%.o: ALL_CFLAGS += $(INC_ALL) \
	$(shell $(PKG_CONFIG) --cflags $(TEST_PC))
$(patsubst %,$(B)/tests/unit/test_%,conf conf_schedule conf_rules uids): \
    $(B)/tests/unit/fixture-conf.o
$(patsubst %,$(B)/tests/unit/test_%,cap txrender): \
    $(B)/tests/unit/fixture-cap.o
$(patsubst %,$(B)/tests/unit/test_%,convention lpp): \
    $(B)/tests/unit/fixture-lpp.o

# muxd's files but muxd.c (its main), for the unit test of its rules,
# hold and verdicts, which links them with the configuration's fixture.
MUXD_LIB := $(B)/muxd/libmuxd.a
$(MUXD_LIB): $(filter-out $(B)/muxd/muxd.o,$(MUXD_OBJS))
	rm -f $@ && $(AR) rcs $@ $^
$(B)/tests/unit/test_rules: tests/unit/test_rules.c $(MUXD_LIB) \
    $(B)/tests/unit/fixture-conf.o $(CONF_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_muxd) -o $@ $(filter %.c %.o,$^) \
		$(filter %.a,$^) -pthread $(PC_LIBS) \
		$(shell $(PKG_CONFIG) --libs libsystemd) \
		$(shell $(PKG_CONFIG) --cflags --libs $(TEST_PC)) -lutil

# comprog's pure modules (pane, echo) have their own unit test.
COMPROG_UNIT_OBJS := $(patsubst %,$(B)/comprog/%.o,pane echo)
$(B)/tests/unit/test_comprog: tests/unit/test_comprog.c $(COMPROG_UNIT_OBJS) \
    $(CONF_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(INC_ALL) -Icomprog -o $@ \
		$(filter %.c %.o,$^) $(filter %.a,$^) $(PC_LIBS) \
		$(shell $(PKG_CONFIG) --cflags --libs $(TEST_PC)) -lutil

# The scenarios run side by side: J at a time (make check J=4), else as
# many as make -jN says, else twice the CPUs (tests/run).
check: all $(UNITS) $(FUZZERS) $(VTSCREEN) $(FAULTSIM)
	@[ -n "$(FUZZERS)" ] || echo "fuzz: skipped: clang not installed (apt-get install clang)"
	@LAB=$(LAB) sh tests/run $(if $(J),-j $(J)) B=$(B) $(UNITS)

# The qemu serial lab (tests/lab): real tty drivers, FTDI adapters, udev.
# Part of check where the host can run it (LAB=0 leaves it out).
LAB ?= 1
check-lab: all
	@sh tests/lab/run B=$(B)

# The unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer
# (and the lab: muxd under the sanitizers on real tty drivers and libusb).
check-asan:
	$(MAKE) B=build-asan CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer' \
		LDFLAGS='-fsanitize=address,undefined' check

demo: all
	@sh contrib/demo/run $(B)

# A full-dress rehearsal, rehearse(8): a whole 2004 contest on ptys,
# checked, a one-page report; ROUNDS=N, SPEED=X and KEEP=1 pass on.
rehearsal: all
	@python3 contrib/rehearsal/rehearse -B $(B) $(if $(ROUNDS),-r $(ROUNDS)) \
		$(if $(SPEED),-s $(SPEED)) $(if $(KEEP),-k)

# Benchmark programs: each tests/bench/*.c is a program of its own, but
# for the parts of ptybench (tests/bench/ptybench-*.c), linked into it.
PTYBENCH_PARTS := $(wildcard tests/bench/ptybench-*.c)
BENCH_SRCS := $(filter-out $(PTYBENCH_PARTS),$(wildcard tests/bench/*.c))
BENCHES := $(BENCH_SRCS:%.c=$(B)/%)
$(B)/tests/bench/ptybench: $(PTYBENCH_PARTS:%.c=$(B)/%.o)

$(B)/tests/bench/%: $(B)/tests/bench/%.o
	$(CC) $(LDFLAGS) -o $@ $^ -lutil

# It first runs the scenario bench-smoke (the benchmark at its smallest
# sizes: every forwarder in every table, the flame graph, the footprint),
# which measures, and so is no part of check.
bench: all $(BENCHES)
	-@sh tests/run B=$(B) -- bench-smoke
	@sh tests/bench/run $(B)

# The scenario bench-harness checks the benchmark's harness (no figures).
check: $(BENCHES)

# The unit and its drop-in name the installed programs and the room.
SUBST_DIRS = sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@BINDIR@|$(BINDIR)|g' \
	-e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' -e 's|@EXAMPLESDIR@|$(EXAMPLESDIR)|g'

install: $(PROGS) web-player-try
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 755 $(B)/muxd/muxd $(DESTDIR)$(SBINDIR)/muxd
	install -m 755 $(B)/muxctl/muxctl $(DESTDIR)$(BINDIR)/muxctl
	install -m 755 $(MUXWEB) $(DESTDIR)$(BINDIR)/muxweb
	@if [ -f $(PLAYER)/asciinema-player.min.js ]; then \
		echo install -m 644 asciinema-player $(DESTDIR)$(MUXWEB_PLAYERDIR); \
		install -d $(DESTDIR)$(MUXWEB_PLAYERDIR) && \
		install -m 644 $(PLAYER)/asciinema-player.min.js \
			$(PLAYER)/asciinema-player.css $(DESTDIR)$(MUXWEB_PLAYERDIR)/; \
	else \
		echo "make install: $(PLAYER_MISSING)" >&2; \
	fi
	install -m 644 muxd/muxd.8 muxctl/muxctl.8 muxweb/muxweb.8 \
		$(DESTDIR)$(MANDIR)/man8/
	install -m 644 muxd/muxd.conf.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 755 $(TX_PROG) $(DESTDIR)$(BINDIR)/transcripts
	install -m 644 transcripts/transcripts.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 transcripts/transcripts.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 755 $(COMPROG) $(DESTDIR)$(BINDIR)/comprog
	install -m 644 comprog/comprog.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 755 $(UDEV_PROG) $(DESTDIR)$(SBINDIR)/muxd-udev
	install -m 644 udev/muxd-udev.8 $(DESTDIR)$(MANDIR)/man8/
	install -d $(DESTDIR)$(UDEVRULESDIR)
	install -m 644 $(UDEV_RULES) $(DESTDIR)$(UDEVRULESDIR)/
	install -d $(DESTDIR)$(SYSTEMDDIR) $(DESTDIR)$(SYSUSERSDIR) \
		$(DESTDIR)$(TMPFILESDIR) $(DESTDIR)$(EXAMPLESDIR)
	$(SUBST_DIRS) contrib/systemd/muxd.service.in \
		>$(DESTDIR)$(SYSTEMDDIR)/muxd.service
	chmod 644 $(DESTDIR)$(SYSTEMDDIR)/muxd.service
	install -d $(DESTDIR)$(EXAMPLESDIR)/systemd
	$(SUBST_DIRS) contrib/systemd/exec-entries.conf \
		>$(DESTDIR)$(EXAMPLESDIR)/systemd/exec-entries.conf
	chmod 644 $(DESTDIR)$(EXAMPLESDIR)/systemd/exec-entries.conf
	install -m 644 contrib/systemd/muxd.sysusers \
		$(DESTDIR)$(SYSUSERSDIR)/muxd.conf
	install -m 644 contrib/systemd/muxd.tmpfiles \
		$(DESTDIR)$(TMPFILESDIR)/muxd.conf
	install -m 644 contrib/examples/*.conf $(DESTDIR)$(EXAMPLESDIR)/

# The Debian packages (debian/), built by dpkg-buildpackage from a copy
# of the tree in $(B)/deb/muxd-$(VERSION) (the files git knows, or the
# tree but its builds), with the player when this build has one: the
# .deb files land in $(B)/deb.
DEB_SRC = $(B)/deb/muxd-$(VERSION)
deb:
	rm -rf $(B)/deb && mkdir -p $(DEB_SRC)
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files -co --exclude-standard -z | \
		    tar --null -T - -cf - | tar -xf - -C $(DEB_SRC); \
	else \
		tar --exclude='./build*' -cf - . | tar -xf - -C $(DEB_SRC); \
	fi
	@if [ -f $(PLAYER)/asciinema-player.min.js ]; then \
		mkdir -p $(DEB_SRC)/player && cp $(PLAYER)/asciinema-player.min.js \
		    $(PLAYER)/asciinema-player.css $(DEB_SRC)/player/; \
	else \
		echo "make deb: asciinema-player is missing: muxweb's audit" \
		    "page will play no capture; add it with \"make web-player\"" \
		    "(npm, the npm registry), then \"make deb\" again"; \
	fi
	cd $(DEB_SRC) && dpkg-buildpackage -us -uc -b
	@ls $(B)/deb/*.deb

clean:
	rm -rf build build-asan

.PHONY: all check check-lab check-asan demo rehearsal bench install clean \
	fuzz web-player web-player-try axe-try deb FORCE
.SECONDARY:

-include $(shell find $(B) -name '*.d' -type f 2>/dev/null)
