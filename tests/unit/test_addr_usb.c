/*
 * Unit tests for the addresses of USB adapters (muxd/addr.c):
 * ftdi:SERIAL with its options and defaults, serial= on a device path,
 * their canonical forms, copies, and the messages for bad ones.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "muxd.h"

/* Parse an address that must be good, failing with the message if not. */
static void
parse_ok(const char *text, struct addr *a)
{
	char	err[MUXD_ERRLEN];

	if (addr_parse(text, a, err, sizeof(err)) == -1)
		fail_msg("'%s' rejected: %s", text, err);
}

/* Check that an address is refused with a message containing a phrase. */
static void
parse_bad(const char *text, const char *phrase)
{
	struct addr	a;
	char		err[MUXD_ERRLEN];

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
	parse_bad("/dev/ttyUSB0,serial=", "serial= needs a USB serial number");
	parse_bad("pty:/tmp/x,serial=A", "unknown option 'serial=A'");
	parse_bad("usb:A1", "ftdi:SERIAL");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ftdi_defaults),
		cmocka_unit_test(ftdi_options),
		cmocka_unit_test(usb_canonical),
		cmocka_unit_test(usb_copy),
		cmocka_unit_test(usb_bad),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
