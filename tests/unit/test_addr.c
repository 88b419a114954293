/*
 * Unit tests for endpoint addresses (line/addr.c): every form, every
 * option, the defaults, the canonical form, and the messages for bad ones;
 * ftdi:SERIAL and serial= for USB adapters included.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <setjmp.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "line.h"

/*
 * The library's copies of strings, made to fail: the nth from when
 * oom_arm() is called returns NULL (ENOMEM); 0 disarms.  oom_calls
 * counts the copies asked for while armed.
 */
static int	oom_nth, oom_calls;

static void
oom_arm(int nth)
{
	oom_nth = nth;
	oom_calls = 0;
}

/* Copy at most n bytes of s, or fail as oom_arm() asked. */
char *
strndup(const char *s, size_t n)
{
	char	*p;
	size_t	 len;

	if (oom_nth > 0 && ++oom_calls == oom_nth) {
		errno = ENOMEM;
		return (NULL);
	}
	for (len = 0; len < n && s[len] != '\0'; len++)
		;
	if ((p = malloc(len + 1)) == NULL)
		return (NULL);
	memcpy(p, s, len);
	p[len] = '\0';
	return (p);
}

/* Copy s, or fail as oom_arm() asked. */
char *
strdup(const char *s)
{
	return (strndup(s, SIZE_MAX));
}

/* Parse an address that must be good, failing with the message if not. */
static void
parse_ok(const char *text, struct addr *a)
{
	char	err[LINE_ERRLEN];

	if (addr_parse(text, a, err, sizeof(err)) == -1)
		fail_msg("'%s' rejected: %s", text, err);
}

/* Check that an address is refused with a message containing a phrase. */
static void
parse_bad(const char *text, const char *phrase)
{
	struct addr	a;
	char		err[LINE_ERRLEN];

	err[0] = '\0';
	if (addr_parse(text, &a, err, sizeof(err)) == 0) {
		addr_free(&a);
		fail_msg("'%s' accepted, expected an error with '%s'", text,
		    phrase);
	}
	if (strstr(err, phrase) == NULL)
		fail_msg("'%s': message '%s' lacks '%s'", text, err, phrase);
}

/* Check the canonical form of an address. */
static void
format_is(const char *text, const char *want)
{
	struct addr	 a;
	char		*s;

	parse_ok(text, &a);
	s = addr_format(&a);
	assert_non_null(s);
	assert_string_equal(s, want);
	free(s);
	addr_free(&a);
}

/* A bare device path gets 9600 8N1 without flow control. */
static void
device_defaults(void **state)
{
	struct addr	a;

	(void)state;
	parse_ok("/dev/ttyUSB0", &a);
	assert_int_equal(a.kind, ADDR_DEVICE);
	assert_string_equal(a.path, "/dev/ttyUSB0");
	assert_int_equal(a.baud, 9600);
	assert_int_equal(a.databits, 8);
	assert_int_equal(a.parity, ADDR_PARITY_NONE);
	assert_int_equal(a.stopbits, 1);
	assert_int_equal(a.flow, ADDR_FLOW_NONE);
	addr_free(&a);
}

/* Every line option, in key=value form. */
static void
device_options(void **state)
{
	struct addr	a;

	(void)state;
	parse_ok("serial:/dev/muxd/j1-left,baud=115200,data=7,parity=even,"
	    "stop=2,flow=rtscts", &a);
	assert_int_equal(a.kind, ADDR_DEVICE);
	assert_string_equal(a.path, "/dev/muxd/j1-left");
	assert_int_equal(a.baud, 115200);
	assert_int_equal(a.databits, 7);
	assert_int_equal(a.parity, ADDR_PARITY_EVEN);
	assert_int_equal(a.stopbits, 2);
	assert_int_equal(a.flow, ADDR_FLOW_RTSCTS);
	addr_free(&a);
}

/* The shorthand of tio and picocom users: a bare rate and a frame. */
static void
device_shorthand(void **state)
{
	struct addr	a;

	(void)state;
	parse_ok("/dev/ttyS0,19200,7O2,flow=xonxoff", &a);
	assert_int_equal(a.baud, 19200);
	assert_int_equal(a.databits, 7);
	assert_int_equal(a.parity, ADDR_PARITY_ODD);
	assert_int_equal(a.stopbits, 2);
	assert_int_equal(a.flow, ADDR_FLOW_XONXOFF);
	addr_free(&a);
	parse_ok("/dev/ttyS0,5m1", &a);
	assert_int_equal(a.databits, 5);
	assert_int_equal(a.parity, ADDR_PARITY_MARK);
	addr_free(&a);
}

/* pty: takes the same options as a device. */
static void
pty_address(void **state)
{
	struct addr	a;

	(void)state;
	parse_ok("pty:/run/muxd/j1-left,baud=2400,parity=space", &a);
	assert_int_equal(a.kind, ADDR_PTY);
	assert_string_equal(a.path, "/run/muxd/j1-left");
	assert_int_equal(a.baud, 2400);
	assert_int_equal(a.parity, ADDR_PARITY_SPACE);
	addr_free(&a);
}

/* exec: keeps the whole rest, commas and all, as the command. */
static void
exec_address(void **state)
{
	struct addr	a;

	(void)state;
	parse_ok("exec:/usr/bin/bot --name Ada,Lovelace -x", &a);
	assert_int_equal(a.kind, ADDR_EXEC);
	assert_string_equal(a.path, "/usr/bin/bot --name Ada,Lovelace -x");
	addr_free(&a);
}

/* TCP connect and listen, with IPv4, names and bracketed IPv6. */
static void
tcp_addresses(void **state)
{
	struct addr	a;

	(void)state;
	parse_ok("tcp:192.0.2.7:7000", &a);
	assert_int_equal(a.kind, ADDR_TCP);
	assert_string_equal(a.host, "192.0.2.7");
	assert_string_equal(a.service, "7000");
	addr_free(&a);
	parse_ok("tcp:[::1]:23", &a);
	assert_string_equal(a.host, "::1");
	assert_string_equal(a.service, "23");
	addr_free(&a);
	parse_ok("tcp-listen:7001", &a);
	assert_int_equal(a.kind, ADDR_TCP_LISTEN);
	assert_null(a.host);
	assert_string_equal(a.service, "7001");
	addr_free(&a);
	parse_ok("tcp-listen:127.0.0.1:7001", &a);
	assert_string_equal(a.host, "127.0.0.1");
	addr_free(&a);
	parse_ok("tcp-listen:[::]:7001", &a);
	assert_string_equal(a.host, "::");
	addr_free(&a);
}

/* Each kind of bad address is refused with a message saying why. */
static void
bad_addresses(void **state)
{
	(void)state;
	parse_bad("", "empty address");
	parse_bad("ftdi-ish:A1B2", "unknown address scheme");
	parse_bad("dev/ttyUSB0", "unknown address scheme");
	parse_bad("serial:ttyUSB0", "is not absolute");
	parse_bad("/dev/ttyUSB0,baud=12345", "impossible baud rate '12345'");
	parse_bad("/dev/ttyUSB0,0", "impossible baud rate '0'");
	parse_bad("/dev/ttyUSB0,baud=fast", "impossible baud rate 'fast'");
	parse_bad("/dev/ttyUSB0,data=9", "data bits '9' not 5 to 8");
	parse_bad("/dev/ttyUSB0,parity=maybe", "unknown parity 'maybe'");
	parse_bad("/dev/ttyUSB0,stop=3", "stop bits '3' not 1 or 2");
	parse_bad("/dev/ttyUSB0,flow=hardware", "unknown flow control");
	parse_bad("/dev/ttyUSB0,speed=9600", "unknown option 'speed=9600'");
	parse_bad("/dev/ttyUSB0,9N1", "unknown option '9N1'");
	parse_bad("/dev/ttyUSB0,", "empty option");
	parse_bad("exec:", "needs a command");
	parse_bad("tcp:localhost", "missing port");
	parse_bad("tcp::7000", "missing host");
	parse_bad("tcp:localhost:0", "bad TCP port '0'");
	parse_bad("tcp:localhost:65536", "bad TCP port '65536'");
	parse_bad("tcp-listen:http", "bad TCP port 'http'");
	parse_bad("tcp:[::1:7000", "bad IPv6 host");
	/* An IPv6 address without brackets, or stray ones: their written
	 * form would not read back. */
	parse_bad("tcp:::1:7000", "bad host '::1' in '::1:7000' (an IPv6 "
	    "address goes in brackets: [ADDRESS]:PORT)");
	parse_bad("tcp::[::1]:7000", "bad host ':[::1]'");
	parse_bad("tcp-listen:[[::1]:7000", "bad host '[::1'");
	parse_bad("tcp:judge 1:7000", "bad host 'judge 1' in 'judge 1:7000' "
	    "(a host name or address)");
	/* USB ids are hex digits only (a sign wrapped them around). */
	parse_bad("ftdi:A1,usb=0403:-50", "bad usb=0403:-50");
	parse_bad("ftdi:A1,usb=0x403:6015", "bad usb=0x403:6015");
	parse_bad("ftdi:A1,usb=0403:60150", "bad usb=0403:60150");
}

/* The canonical form names every setting, and parses back the same. */
static void
canonical_form(void **state)
{
	struct addr	a, b;
	char		*s;

	(void)state;
	format_is("/dev/ttyUSB0", "/dev/ttyUSB0,baud=9600,8N1");
	format_is("pty:/tmp/j,4800,7E2,flow=rtscts",
	    "pty:/tmp/j,baud=4800,7E2,flow=rtscts");
	format_is("exec:bot -v", "exec:bot -v");
	format_is("tcp:[::1]:23", "tcp:[::1]:23");
	format_is("tcp-listen:7000", "tcp-listen:7000");
	format_is("tcp-listen:0.0.0.0:7000", "tcp-listen:0.0.0.0:7000");
	parse_ok("/dev/ttyS1,57600,8O1,flow=dtrdsr", &a);
	s = addr_format(&a);
	parse_ok(s, &b);
	assert_true(addr_equal(&a, &b));
	free(s);
	addr_free(&a);
	addr_free(&b);
}

/* Equal means the same endpoint with the same settings. */
static void
equality(void **state)
{
	struct addr	a, b, c;

	(void)state;
	parse_ok("/dev/ttyUSB0,9600", &a);
	parse_ok("/dev/ttyUSB0,baud=9600,8N1", &b);
	parse_ok("/dev/ttyUSB0,19200", &c);
	assert_true(addr_equal(&a, &b));
	assert_false(addr_equal(&a, &c));
	addr_free(&a);
	addr_free(&b);
	addr_free(&c);
}

/* Only the standard rates are valid. */
static void
baud_rates(void **state)
{
	(void)state;
	assert_true(addr_baud_valid(50));
	assert_true(addr_baud_valid(9600));
	assert_true(addr_baud_valid(4000000));
	assert_false(addr_baud_valid(0));
	assert_false(addr_baud_valid(9601));
	assert_false(addr_baud_valid(-9600));
}


/* ftdi:SERIAL alone: 0403:6001, 9600 8N1, latency 1 ms, interface A. */
static void
ftdi_defaults(void **state)
{
	struct addr	a;

	(void)state;
	parse_ok("ftdi:A1B2C3", &a);
	assert_int_equal(a.kind, ADDR_FTDI);
	assert_string_equal(a.serial, "A1B2C3");
	assert_int_equal(a.usb_vendor, 0x0403);
	assert_int_equal(a.usb_product, 0x6001);
	assert_int_equal(a.latency, 1);
	assert_int_equal(a.interface, 0);
	assert_int_equal(a.baud, 9600);
	assert_int_equal(a.databits, 8);
	assert_null(a.path);
	assert_string_equal(addr_kind_name(a.kind), "ftdi");
	addr_free(&a);
}

/* Every ftdi: option. */
static void
ftdi_options(void **state)
{
	struct addr	a;

	(void)state;
	parse_ok("ftdi:FT4X,usb=0403:6011,latency=16,interface=c,115200,7E2,"
	    "flow=rtscts", &a);
	assert_string_equal(a.serial, "FT4X");
	assert_int_equal(a.usb_product, 0x6011);
	assert_int_equal(a.latency, 16);
	assert_int_equal(a.interface, 3);
	assert_int_equal(a.baud, 115200);
	assert_int_equal(a.databits, 7);
	assert_int_equal(a.parity, ADDR_PARITY_EVEN);
	assert_int_equal(a.stopbits, 2);
	assert_int_equal(a.flow, ADDR_FLOW_RTSCTS);
	addr_free(&a);
}

/* Canonical forms, and equality through them. */
static void
usb_canonical(void **state)
{
	struct addr	a, b;

	(void)state;
	format_is("ftdi:A1B2C3", "ftdi:A1B2C3,usb=0403:6001,baud=9600,8N1,"
	    "latency=1");
	format_is("ftdi:X,interface=B,flow=xonxoff,19200",
	    "ftdi:X,usb=0403:6001,baud=19200,8N1,latency=1,interface=B,"
	    "flow=xonxoff");
	format_is("/dev/muxd/j1-left,serial=A1B2C3,19200",
	    "/dev/muxd/j1-left,baud=19200,8N1,serial=A1B2C3");
	format_is("/dev/muxd/j1-right,interface=c,serial=Q4",
	    "/dev/muxd/j1-right,baud=9600,8N1,serial=Q4,interface=C");
	parse_ok("ftdi:A1B2C3,latency=1", &a);
	parse_ok("ftdi:A1B2C3,usb=0403:6001", &b);
	assert_true(addr_equal(&a, &b));
	addr_free(&b);
	parse_ok("ftdi:A1B2C3,latency=2", &b);
	assert_false(addr_equal(&a, &b));
	addr_free(&b);
	addr_free(&a);
}

/* A copy owns its own serial number. */
static void
usb_copy(void **state)
{
	struct addr	a, b;

	(void)state;
	parse_ok("/dev/ttyUSB0,serial=S1", &a);
	assert_int_equal(addr_copy(&b, &a), 0);
	assert_string_equal(b.serial, "S1");
	assert_ptr_not_equal(a.serial, b.serial);
	addr_free(&a);
	assert_string_equal(b.serial, "S1");
	addr_free(&b);
}

/* Bad ftdi: addresses and options, each with a message naming it. */
static void
usb_bad(void **state)
{
	(void)state;
	parse_bad("ftdi:", "needs the adapter's USB serial number");
	parse_bad("ftdi:,9600", "needs the adapter's USB serial number");
	parse_bad("ftdi:A1,usb=0403", "bad usb=0403");
	parse_bad("ftdi:A1,usb=0403:60011", "bad usb=0403:60011");
	parse_bad("ftdi:A1,usb=0:0", "bad usb=0:0");
	parse_bad("ftdi:A1,latency=0", "latency '0' not 1 to 255");
	parse_bad("ftdi:A1,latency=256", "latency '256' not 1 to 255");
	parse_bad("ftdi:A1,interface=E", "interface 'E' not A, B, C or D");
	parse_bad("ftdi:A1,data=5", "7 or 8 data bits, not 5");
	parse_bad("ftdi:A1,serial=B", "unknown option 'serial=B'");
	parse_bad("/dev/ttyUSB0,latency=1", "unknown option 'latency=1'");
	parse_bad("/dev/ttyUSB0,interface=E", "interface 'E' not A, B, C or D");
	parse_bad("pty:/tmp/x,interface=A", "unknown option 'interface=A'");
	parse_bad("/dev/ttyUSB0,serial=", "serial= needs a USB serial number");
	parse_bad("pty:/tmp/x,serial=A", "unknown option 'serial=A'");
	parse_bad("usb:A1", "ftdi:SERIAL");
}

/* The same line whatever the settings; an FTDI adapter by interface. */
static void
same_line(void **state)
{
	static const struct {
		const char	*x, *y;
		int		 same;
	} pairs[] = {
		{ "/dev/ttyUSB0", "/dev/ttyUSB0,19200,serial=S1", 1 },
		{ "/dev/ttyUSB0", "/dev/ttyUSB1", 0 },
		{ "/dev/ttyUSB0", "pty:/dev/ttyUSB0", 0 },
		{ "pty:/tmp/a", "pty:/tmp/a,7E1", 1 },
		{ "tcp-listen:7001", "tcp-listen:7001", 1 },
		{ "tcp-listen:7001", "tcp-listen:127.0.0.1:7001", 0 },
		{ "tcp-listen:[::1]:7001", "tcp-listen:[::1]:7001", 1 },
		{ "tcp:h:7001", "tcp:h:7001", 0 },
		{ "exec:/bin/cat", "exec:/bin/cat", 0 },
		{ "ftdi:A1", "ftdi:A1,115200,latency=16", 1 },
		{ "ftdi:A1", "ftdi:A1,interface=A", 1 },
		{ "ftdi:A1,interface=b", "ftdi:A1,interface=B,7E1", 1 },
		{ "ftdi:A1", "ftdi:A1,interface=B", 0 },
		{ "ftdi:A1", "ftdi:A2", 0 },
		{ "ftdi:A1", "ftdi:a1", 0 },
		{ "ftdi:A1", "ftdi:A1,usb=0403:6001", 1 },
		{ "ftdi:A1", "ftdi:A1,usb=0403:6015", 0 },
		{ "ftdi:A1", "/dev/ttyUSB0,serial=A1", 0 },
	};
	struct addr	x, y;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		parse_ok(pairs[i].x, &x);
		parse_ok(pairs[i].y, &y);
		if (addr_same_line(&x, &y) != pairs[i].same ||
		    addr_same_line(&y, &x) != pairs[i].same)
			fail_msg("'%s' and '%s': expected %s", pairs[i].x,
			    pairs[i].y, pairs[i].same ? "the same line" :
			    "two lines");
		addr_free(&x);
		addr_free(&y);
	}
}

/* A peer's address as a sockaddr, for addr_allowed(). */
static int
allowed(const struct addr *a, const char *peer)
{
	struct sockaddr_in	 s4;
	struct sockaddr_in6	 s6;

	memset(&s4, 0, sizeof(s4));
	memset(&s6, 0, sizeof(s6));
	if (inet_pton(AF_INET, peer, &s4.sin_addr) == 1) {
		s4.sin_family = AF_INET;
		return (addr_allowed(a, (struct sockaddr *)&s4));
	}
	assert_int_equal(inet_pton(AF_INET6, peer, &s6.sin6_addr), 1);
	s6.sin6_family = AF_INET6;
	return (addr_allowed(a, (struct sockaddr *)&s6));
}

/*
 * tcp-listen: binds loopback without a host, every address with "*";
 * allow= networks (repeated, IPv4 and IPv6, /BITS) are the peers taken,
 * a mapped IPv4 peer of a [::] listener included; without any, all.
 */
static void
tcp_listen_allow(void **state)
{
	struct addr	a;

	(void)state;
	parse_ok("tcp-listen:7000", &a);
	assert_null(a.host);
	assert_int_equal(a.nallow, 0);
	assert_true(allowed(&a, "192.0.2.1"));
	addr_free(&a);
	format_is("tcp-listen:*:7000,allow=192.0.2.0/24,allow=2001:db8::/32",
	    "tcp-listen:*:7000,allow=192.0.2.0/24,allow=2001:db8::/32");
	format_is("tcp-listen:[::]:7000,allow=10.1.2.3",
	    "tcp-listen:[::]:7000,allow=10.1.2.3/32");
	parse_ok("tcp-listen:*:7000,allow=192.0.2.128/25,allow=2001:db8::/32,"
	    "allow=10.0.0.7", &a);
	assert_true(allowed(&a, "192.0.2.200"));
	assert_false(allowed(&a, "192.0.2.127"));
	assert_true(allowed(&a, "10.0.0.7"));
	assert_false(allowed(&a, "10.0.0.8"));
	assert_true(allowed(&a, "2001:db8:1::5"));
	assert_false(allowed(&a, "2001:db9::5"));
	assert_true(allowed(&a, "::ffff:192.0.2.130"));
	assert_false(allowed(&a, "::ffff:192.0.3.130"));
	addr_free(&a);
	parse_ok("tcp-listen:*:7000,allow=0.0.0.0/0", &a);
	assert_true(allowed(&a, "203.0.113.9"));
	assert_false(allowed(&a, "2001:db8::1"));
	addr_free(&a);
	/* rfc2217: a remote serial port takes a line's settings. */
	format_is("rfc2217:ser.example.org:2001,19200,7E1,flow=rtscts",
	    "rfc2217:ser.example.org:2001,baud=19200,7E1,flow=rtscts");
	format_is("rfc2217:[2001:db8::5]:2001",
	    "rfc2217:[2001:db8::5]:2001,baud=9600,8N1");
	parse_bad("rfc2217:ser.example.org", "missing port");
	parse_bad("rfc2217:h:2001,serial=A", "unknown option 'serial=A'");
	parse_bad("rfc2217:h:2001,baud=12345", "impossible baud rate");
	parse_bad("tcp-listen:7000,allow=300.1.1.1", "bad allow=300.1.1.1");
	parse_bad("tcp-listen:7000,allow=10.0.0.0/33", "bad allow=10.0.0.0/33");
	parse_bad("tcp-listen:7000,allow=::1/129", "bad allow=::1/129");
	parse_bad("tcp-listen:7000,baud=9600", "unknown option 'baud=9600'");
	parse_bad("tcp-listen:7000,allow=1.1.1.1,allow=1.1.1.2,"
	    "allow=1.1.1.3,allow=1.1.1.4,allow=1.1.1.5,allow=1.1.1.6,"
	    "allow=1.1.1.7,allow=1.1.1.8,allow=1.1.1.9",
	    "more than 8 allow= networks");
}

/*
 * Every allocation of a parse made to fail in turn: the parse fails with
 * "out of memory", never succeeds with a value (serial=, a host) missing.
 */
static void
out_of_memory(void **state)
{
	static const char *texts[] = {
		"/dev/ttyUSB0,19200,serial=A1B2C3,interface=B",
		"pty:/tmp/muxd-test", "exec:/bin/cat", "tcp:[::1]:7000",
		"tcp-listen:*:7000,allow=10.0.0.0/8", "ftdi:A1B2C3,latency=4",
		"rfc2217:ser.example.org:2001,7E1"
	};
	struct addr	a;
	char		err[LINE_ERRLEN];
	size_t		i;
	int		nth, calls, r;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		for (nth = 1;; nth++) {
			err[0] = '\0';
			oom_arm(nth);
			r = addr_parse(texts[i], &a, err, sizeof(err));
			calls = oom_calls;
			oom_arm(0);
			if (calls < nth) {
				if (r == -1)
					fail_msg("'%s' rejected: %s", texts[i],
					    err);
				addr_free(&a);
				break;
			}
			if (r == 0)
				fail_msg("'%s' parsed with allocation %d "
				    "failed", texts[i], nth);
			assert_string_equal(err, "out of memory");
		}
		assert_true(nth > 1);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(device_defaults),
		cmocka_unit_test(device_options),
		cmocka_unit_test(device_shorthand),
		cmocka_unit_test(pty_address),
		cmocka_unit_test(exec_address),
		cmocka_unit_test(tcp_addresses),
		cmocka_unit_test(bad_addresses),
		cmocka_unit_test(canonical_form),
		cmocka_unit_test(equality),
		cmocka_unit_test(baud_rates),
		cmocka_unit_test(ftdi_defaults),
		cmocka_unit_test(ftdi_options),
		cmocka_unit_test(usb_canonical),
		cmocka_unit_test(usb_copy),
		cmocka_unit_test(usb_bad),
		cmocka_unit_test(same_line),
		cmocka_unit_test(tcp_listen_allow),
		cmocka_unit_test(out_of_memory),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
