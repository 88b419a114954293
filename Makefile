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

LIBS_PC = libevent jansson libserialport libconfig
TEST_PC = cmocka

# The dependency check runs before anything is built; it installs missing
# Debian packages when run as root and names them otherwise.
DEPS_OK := $(shell sh mk/deps build >&2 && echo ok)
ifneq ($(DEPS_OK),ok)
$(error missing build dependencies, see above)
endif

PC_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LIBS_PC))
PC_LIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_PC))
WARN = -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	-Wpointer-arith -Wformat=2 -Wno-format-truncation
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(PC_CFLAGS) -MMD -MP
VERSION = 0.1.0

B = build
MUXD_SRCS := $(filter-out muxd/muxctl.c,$(wildcard muxd/*.c))
MUXD_OBJS := $(MUXD_SRCS:%.c=$(B)/%.o)
# The pure modules (no event loop) that unit tests link against.
UNIT_LIB_OBJS := $(B)/muxd/addr.o $(B)/muxd/conf.o $(B)/muxd/schedule.o
# tests/tools/endpoint.c is linked into every test tool, not a tool itself.
TOOL_SRCS := $(filter-out tests/tools/endpoint.c,$(wildcard tests/tools/*.c)) \
	$(wildcard contrib/demo/*.c)
TOOLS := $(TOOL_SRCS:%.c=$(B)/%)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNITS := $(UNIT_SRCS:%.c=$(B)/%)

PROGS = $(B)/muxd/muxd $(B)/muxd/muxctl

all: $(PROGS) $(TOOLS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DMUXD_VERSION='"$(VERSION)"' -c -o $@ $<

$(B)/muxd/muxd: $(MUXD_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lutil

$(B)/muxd/muxctl: $(B)/muxd/muxctl.o
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS)

$(B)/tests/tools/%: $(B)/tests/tools/%.o $(B)/tests/tools/endpoint.o
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lutil

$(B)/contrib/demo/%: $(B)/contrib/demo/%.o
	$(CC) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lutil

$(B)/tests/unit/%: tests/unit/%.c $(UNIT_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Imuxd -o $@ $(filter %.c %.o %.a,$^) $(PC_LIBS) \
		$(shell $(PKG_CONFIG) --cflags --libs $(TEST_PC)) -lutil

check: all $(UNITS)
	@sh mk/deps check >&2
	@sh tests/run B=$(B) $(UNITS)

# The unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
check-asan:
	$(MAKE) B=build-asan CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer' \
		LDFLAGS='-fsanitize=address,undefined' check

demo: all
	@sh mk/deps check >&2
	@sh contrib/demo/run $(B)

bench: all
	@sh tests/bench/run $(B)

install: $(PROGS)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 755 $(B)/muxd/muxd $(DESTDIR)$(SBINDIR)/muxd
	install -m 755 $(B)/muxd/muxctl $(DESTDIR)$(BINDIR)/muxctl
	install -m 644 muxd/muxd.8 muxd/muxctl.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 muxd/muxd.conf.5 $(DESTDIR)$(MANDIR)/man5/

clean:
	rm -rf build build-asan

.PHONY: all check check-asan demo bench install clean
.SECONDARY:

-include $(shell find $(B) -name '*.d' 2>/dev/null)
