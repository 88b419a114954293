/*
 * Unit tests for counting the ports of a USB adapter by its serial number
 * (line/serialscan.c), which muxd -nn's warning of a multi-port adapter
 * named without interface= relies on: a copy of sysfs's shape in a
 * temporary directory stands for /sys/bus/usb/devices.
 */
#include <sys/stat.h>

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "line.h"

static void	mk(const char *, const char *);
static void	put(const char *, const char *, const char *);

/* Make a directory below root. */
static void
mk(const char *root, const char *rel)
{
	char	path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

/* Write a one-line file below root. */
static void
put(const char *root, const char *rel, const char *text)
{
	char	 path[PATH_MAX];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", text);
	assert_int_equal(fclose(f), 0);
}

/*
 * An FT4232H (four interfaces, each a ttyUSB), an FT232R (one), and a
 * CDC ACM adapter (two interfaces, one port): ports counted by ttys.
 */
static void
test_usb_ports_counts_ttys(void **state)
{
	char	root[] = "/tmp/test_serialscan.XXXXXX", cmd[PATH_MAX + 16];

	(void)state;
	assert_non_null(mkdtemp(root));
	mk(root, "1-1");
	put(root, "1-1/serial", "FT4X9A");
	mk(root, "1-1/1-1:1.0");
	mk(root, "1-1/1-1:1.0/ttyUSB0");
	mk(root, "1-1/1-1:1.1");
	mk(root, "1-1/1-1:1.1/ttyUSB1");
	mk(root, "1-1/1-1:1.2");
	mk(root, "1-1/1-1:1.2/ttyUSB2");
	mk(root, "1-1/1-1:1.3");
	mk(root, "1-1/1-1:1.3/ttyUSB3");
	mk(root, "1-2");
	put(root, "1-2/serial", "A1B2C3");
	mk(root, "1-2/1-2:1.0");
	mk(root, "1-2/1-2:1.0/ttyUSB4");
	mk(root, "1-3");
	put(root, "1-3/serial", "ACM1");
	mk(root, "1-3/1-3:1.0");
	mk(root, "1-3/1-3:1.0/tty");
	mk(root, "1-3/1-3:1.1");
	mk(root, "usb1");
	assert_int_equal(serialscan_usb_ports(root, "FT4X9A"), 4);
	assert_int_equal(serialscan_usb_ports(root, "A1B2C3"), 1);
	assert_int_equal(serialscan_usb_ports(root, "ACM1"), 1);
	/* Not plugged in: cannot be told, no warning. */
	assert_int_equal(serialscan_usb_ports(root, "NOSUCH"), 0);
	assert_int_equal(serialscan_usb_ports("/nonexistent", "FT4X9A"), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usb_ports_counts_ttys),
	};

	return (cmocka_run_group_tests_name("tests", tests, NULL, NULL));
}
