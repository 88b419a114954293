# muxd: serial-line multiplexer for a Turing-test contest room.
# Targets: all check install demo bench clean.  Honours PREFIX, DESTDIR,
# PKG_CONFIG, CC, CFLAGS, LDFLAGS.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
SBINDIR = $(PREFIX)/sbin
MANDIR = $(PREFIX)/share/man
PKG_CONFIG ?= pkg-config
CC ?= cc

LIBS_PC = libevent jansson libserialport libconfig libpcre2-8 libftdi1
TEST_PC = cmocka

# The dependency check runs before anything is built; it installs missing
# Debian packages when run as root and names them otherwise.  The goals
# that build and drive the tests (cmocka, socat, tio...) check that set
# too, and bench its references (ser2net), before their prerequisites are
# made.
DEPS_SET := build
ifneq ($(filter check check-lab check-asan demo fuzz,$(MAKECMDGOALS)),)
DEPS_SET := check
endif
ifneq ($(filter bench,$(MAKECMDGOALS)),)
DEPS_SET := bench
endif
DEPS_OK := $(shell sh mk/deps $(DEPS_SET) >&2 && echo ok)
ifneq ($(DEPS_OK),ok)
$(error missing Debian packages for $(DEPS_SET), see above)
endif

PC_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LIBS_PC))
PC_LIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_PC))
WARN = -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	-Wpointer-arith -Wformat=2 -Wno-format-truncation
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(PC_CFLAGS) -MMD -MP
VERSION = 0.1.0

B = build
# muxctl is built from muxd/muxctl*.c alone; muxd from the other files.
MUXCTL_SRCS := $(wildcard muxd/muxctl*.c)
MUXD_SRCS := $(filter-out $(MUXCTL_SRCS),$(wildcard muxd/*.c))
MUXD_OBJS := $(MUXD_SRCS:%.c=$(B)/%.o)
# The pure modules (no event loop) that unit tests link against.
UNIT_LIB_OBJS := $(B)/muxd/addr.o $(B)/muxd/conf.o $(B)/muxd/conf-include.o \
	$(B)/muxd/conf-rules.o $(B)/muxd/conf-room.o \
	$(B)/muxd/conf-schedule.o $(B)/muxd/schedule.o \
	$(B)/muxd/filter.o $(B)/muxd/assertion.o $(B)/muxd/judgeterm.o \
	$(B)/muxd/typing.o $(B)/muxd/hold.o
# tests/tools/endpoint.c is linked into every test tool, not a tool itself.
TOOL_SRCS := $(filter-out tests/tools/endpoint.c,$(wildcard tests/tools/*.c)) \
	$(wildcard contrib/demo/*.c)
TOOLS := $(TOOL_SRCS:%.c=$(B)/%)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNITS := $(UNIT_SRCS:%.c=$(B)/%)
# The transcripts library (every transcripts/*.c but the tool's own files)
# and the transcripts tool; libFuzzer harnesses when clang is there.
TX_TOOL_SRCS := transcripts/transcripts.c $(wildcard transcripts/cmd-*.c)
TX_LIB_SRCS := $(filter-out $(TX_TOOL_SRCS),$(wildcard transcripts/*.c))
TX_LIB := $(B)/transcripts/libtranscripts.a
TX_PROG := $(B)/transcripts/transcripts
CLANG := $(shell command -v clang 2>/dev/null)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS := $(if $(CLANG),$(FUZZ_SRCS:%.c=$(B)/%))

PROGS = $(B)/muxd/muxd $(B)/muxd/muxctl
# udev rules for the adapters, and muxd-udev, which writes a room's
# stable names from its configuration (the pure conf modules).
UDEV_PROG := $(B)/udev/muxd-udev
UDEV_RULES := udev/60-muxd.rules udev/61-muxd-access.rules
UDEVRULESDIR ?= /etc/udev/rules.d
PROGS += $(UDEV_PROG)
PROGS += $(TX_PROG)
# comprog, the matching communications program: comprog/*.c with muxd's
# line code (addresses, every port kind), its judge terminal, filter and
# assertion checker, and the transcripts library; curses draws its screen.
CURSES_PC = ncursesw
COMPROG_SRCS := $(wildcard comprog/*.c)
COMPROG_SHARED := $(patsubst %,$(B)/muxd/%.o,port port-serial port-tty \
	port-pty port-exec port-tcp port-ftdi addr log judgeterm filter assertion \
	conf-include \
	typing)
COMPROG := $(B)/comprog/comprog
PROGS += $(COMPROG)

all: $(PROGS) $(TOOLS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DMUXD_VERSION='"$(VERSION)"' -c -o $@ $<

# muxd syncs its recordings in a thread (muxd/record-sync.c).
$(B)/muxd/muxd: $(MUXD_OBJS) $(TX_LIB)
	$(CC) $(LDFLAGS) -pthread -o $@ $^ $(PC_LIBS) -lutil

# muxctl also lists serial ports itself ("ports --local").
$(B)/muxd/muxctl: $(MUXCTL_SRCS:%.c=$(B)/%.o) $(B)/muxd/serialscan.o
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS)

$(B)/tests/tools/%: $(B)/tests/tools/%.o $(B)/tests/tools/endpoint.o
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lutil

$(B)/contrib/demo/%: $(B)/contrib/demo/%.o
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lutil

$(B)/udev/muxd-udev.o: ALL_CFLAGS += -Imuxd
$(UDEV_PROG): $(B)/udev/muxd-udev.o $(UNIT_LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS)

$(COMPROG_SRCS:%.c=$(B)/%.o): ALL_CFLAGS += -Imuxd -Itranscripts \
	$(shell $(PKG_CONFIG) --cflags $(CURSES_PC))
$(COMPROG): $(COMPROG_SRCS:%.c=$(B)/%.o) $(COMPROG_SHARED) $(TX_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS) \
		$(shell $(PKG_CONFIG) --libs $(CURSES_PC)) -lutil

$(TX_LIB): $(TX_LIB_SRCS:%.c=$(B)/%.o)
	$(AR) rcs $@ $^

$(TX_PROG): $(TX_TOOL_SRCS:%.c=$(B)/%.o) $(TX_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS)

# A fuzzer is built from its harness and the library's sources with clang.
$(B)/tests/fuzz/%: tests/fuzz/%.c $(TX_LIB_SRCS) transcripts/transcripts.h
	@mkdir -p $(dir $@)
	$(CLANG) -std=c11 -D_GNU_SOURCE -g -O1 \
		-fsanitize=fuzzer,address,undefined -Itranscripts $(PC_CFLAGS) \
		-o $@ $< $(TX_LIB_SRCS) $(PC_LIBS)

# comprog's harness is built from its byte state machines and judgeterm.
$(B)/tests/fuzz/fuzz_comprog: tests/fuzz/fuzz_comprog.c comprog/echo.c \
    comprog/pane.c muxd/judgeterm.c comprog/comprog.h muxd/muxd.h
	@mkdir -p $(dir $@)
	$(CLANG) -std=c11 -D_GNU_SOURCE -g -O1 \
		-fsanitize=fuzzer,address,undefined -Imuxd -Itranscripts \
		-Icomprog $(PC_CFLAGS) -o $@ $(filter %.c,$^)

# The harnesses of muxd's pure modules are built from the file each
# tests (addresses, the control filter, the opening assertion).
MUXD_FUZZERS := $(patsubst %,$(B)/tests/fuzz/fuzz_%,addr filter assertion)
$(MUXD_FUZZERS): $(B)/tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c muxd/%.c \
    muxd/muxd.h
	@mkdir -p $(dir $@)
	$(CLANG) -std=c11 -D_GNU_SOURCE -g -O1 \
		-fsanitize=fuzzer,address,undefined -Imuxd -Itranscripts \
		$(PC_CFLAGS) -o $@ $(filter %.c,$^) $(PC_LIBS)

# The configuration's harness is built from the pure modules, as the
# unit tests are.
$(B)/tests/fuzz/fuzz_conf: tests/fuzz/fuzz_conf.c \
    $(UNIT_LIB_OBJS:$(B)/%.o=%.c) muxd/muxd.h
	@mkdir -p $(dir $@)
	$(CLANG) -std=c11 -D_GNU_SOURCE -g -O1 \
		-fsanitize=fuzzer,address,undefined -Imuxd -Itranscripts \
		$(PC_CFLAGS) -o $@ $(filter %.c,$^) $(PC_LIBS)

fuzz: $(FUZZERS)
	@sh tests/fuzz/run $(B) 20 $(FUZZERS)

$(B)/tests/unit/%: tests/unit/%.c $(UNIT_LIB_OBJS) $(TX_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Imuxd -Itranscripts -o $@ $(filter %.c %.o,$^) \
		$(filter %.a,$^) $(PC_LIBS) \
		$(shell $(PKG_CONFIG) --cflags --libs $(TEST_PC)) -lutil

# Fixtures shared by unit tests (tests/unit/fixture-*.c), each linked
# into the tests that use it.
$(B)/tests/unit/fixture-%.o: ALL_CFLAGS += -Imuxd -Itranscripts \
	$(shell $(PKG_CONFIG) --cflags $(TEST_PC))
$(patsubst %,$(B)/tests/unit/test_%,conf conf_schedule conf_rules): \
    $(B)/tests/unit/fixture-conf.o
$(patsubst %,$(B)/tests/unit/test_%,cap txrender): \
    $(B)/tests/unit/fixture-cap.o

# comprog's pure modules (pane, echo) have their own unit test.
COMPROG_UNIT_OBJS := $(patsubst %,$(B)/comprog/%.o,pane echo)
$(B)/tests/unit/test_comprog: tests/unit/test_comprog.c $(COMPROG_UNIT_OBJS) \
    $(UNIT_LIB_OBJS) $(TX_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Imuxd -Itranscripts -Icomprog -o $@ \
		$(filter %.c %.o %.a,$^) $(PC_LIBS) \
		$(shell $(PKG_CONFIG) --cflags --libs $(TEST_PC)) -lutil

check: all $(UNITS) $(FUZZERS)
	@[ -n "$(FUZZERS)" ] || echo "fuzz: skipped: clang not installed (apt-get install clang)"
	@LAB=$(LAB) sh tests/run B=$(B) $(UNITS)

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

# Benchmark programs: each tests/bench/*.c is a program of its own, but
# for the parts of ptybench (tests/bench/ptybench-*.c), linked into it.
PTYBENCH_PARTS := $(wildcard tests/bench/ptybench-*.c)
BENCH_SRCS := $(filter-out $(PTYBENCH_PARTS),$(wildcard tests/bench/*.c))
BENCHES := $(BENCH_SRCS:%.c=$(B)/%)
$(B)/tests/bench/ptybench: $(PTYBENCH_PARTS:%.c=$(B)/%.o)

$(B)/tests/bench/%: $(B)/tests/bench/%.o
	$(CC) $(LDFLAGS) -o $@ $^ -lutil

bench: all $(BENCHES)
	@sh tests/bench/run $(B)

# The scenario bench-harness runs the benchmark at its smallest sizes.
check: $(BENCHES)

install: $(PROGS)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 755 $(B)/muxd/muxd $(DESTDIR)$(SBINDIR)/muxd
	install -m 755 $(B)/muxd/muxctl $(DESTDIR)$(BINDIR)/muxctl
	install -m 644 muxd/muxd.8 muxd/muxctl.8 $(DESTDIR)$(MANDIR)/man8/
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

clean:
	rm -rf build build-asan

.PHONY: all check check-lab check-asan demo bench install clean fuzz
.SECONDARY:

-include $(shell find $(B) -name '*.d' -type f 2>/dev/null)
