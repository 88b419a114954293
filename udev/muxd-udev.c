/*
 * muxd-udev: write udev rules that give a room's USB serial adapters
 * their stable names, from the room's configuration.
 *
 * A port whose address carries the adapter's USB serial number gets a
 * rule matching that number: a device path (/dev/muxd/j1-left,serial=SN)
 * becomes that path's link, an ftdi:SN port gets /dev/muxd/PORTNAME (the
 * tty is there only while muxd does not hold the adapter; it serves for
 * listings and cable checks).  Ports without a serial number are listed
 * in comments.  The rules go with 60-muxd.rules and 63-muxd-spare.rules;
 * install them as /etc/udev/rules.d/62-muxd-room.rules.
 */
#include <err.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"

#define MUXD_UDEV_CONF	"/etc/muxd.conf"

static void	muxd_udev_usage(int) __attribute__((noreturn));
static int	muxd_udev_safe(const char *);
static int	muxd_udev_port(FILE *, const struct conf_port *,
		    const char *);

/* Print the usage and exit: on stdout with 0 (--help), else stderr. */
static void
muxd_udev_usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: muxd-udev [-f file] [-o output]\n"
	    "       muxd-udev --help | --version\n");
	exit(status);
}

/* Tell whether a string can stand in a udev rule between quotes. */
static int
muxd_udev_safe(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '"' || *s == '\\' || *s < 0x20 || *s == 0x7f)
			return (0);
	return (1);
}

/* What every rule of a room's line sets: theirs is muxd's, not others'. */
#define MUXD_UDEV_ROOM	"ENV{MUXD_PORT}=\"%s\", ENV{MUXD_ROOM}=\"1\", " \
	"ENV{ID_MM_DEVICE_IGNORE}=\"1\", GROUP=\"muxd\", MODE=\"0660\"\n"

/*
 * Write the rules for one port; -1 with a message naming it if it
 * cannot.  A device path with serial= (and interface=) or an ftdi: port
 * is matched by its adapter's serial number and named; a path under
 * /dev/serial/ (by-path, by-id) is matched by that name.  Each is given
 * to group muxd and kept from ModemManager.
 */
static int
muxd_udev_port(FILE *out, const struct conf_port *cp, const char *file)
{
	const struct addr	*a = &cp->addr;
	const char		*link;
	char			 name[256];

	if (!muxd_udev_safe(cp->name) || (a->serial != NULL &&
	    !muxd_udev_safe(a->serial))) {
		warnx("%s:%d: port '%s': a quote, backslash or control "
		    "character cannot go into a udev rule", file, cp->line,
		    cp->name);
		return (-1);
	}
	if (a->kind == ADDR_DEVICE && a->serial == NULL &&
	    strncmp(a->path, "/dev/serial/", 12) == 0 &&
	    muxd_udev_safe(a->path)) {
		fprintf(out, "# port %s: %s\n", cp->name, cp->address);
		fprintf(out, "SUBSYSTEM==\"tty\", SYMLINK==\"%s\", "
		    MUXD_UDEV_ROOM, a->path + 5, cp->name);
		return (0);
	}
	if (a->serial == NULL || (a->kind != ADDR_DEVICE &&
	    a->kind != ADDR_FTDI)) {
		fprintf(out, "# port %s (%s): no USB serial number; add "
		    "serial=SERIAL to its address, or name it by "
		    "/dev/serial/by-path/, for a rule\n", cp->name,
		    cp->address);
		return (0);
	}
	if (a->kind == ADDR_DEVICE) {
		if (strncmp(a->path, "/dev/", 5) != 0 || a->path[5] == '\0' ||
		    !muxd_udev_safe(a->path)) {
			warnx("%s:%d: port '%s': %s is not a path under /dev/ "
			    "that udev can make", file, cp->line, cp->name,
			    a->path);
			return (-1);
		}
		link = a->path + 5;
	} else {
		snprintf(name, sizeof(name), "muxd/%s", cp->name);
		link = name;
	}
	fprintf(out, "# port %s: %s\n", cp->name, cp->address);
	fprintf(out, "SUBSYSTEM==\"tty\", SUBSYSTEMS==\"usb\", "
	    "ATTRS{serial}==\"%s\", ", a->serial);
	if (a->kind == ADDR_FTDI)
		fprintf(out, "ATTRS{idVendor}==\"%04x\", ATTRS{idProduct}=="
		    "\"%04x\", ", a->usb_vendor, a->usb_product);
	/* Set by usb_id in 60-serial.rules, from the interface. */
	if (a->interface != 0)
		fprintf(out, "ENV{ID_USB_INTERFACE_NUM}==\"%02x\", ",
		    a->interface - 1);
	fprintf(out, "SYMLINK+=\"%s\", " MUXD_UDEV_ROOM, link, cp->name);
	/* libftdi opens the USB device itself. */
	if (a->kind == ADDR_FTDI)
		fprintf(out, "SUBSYSTEM==\"usb\", ENV{DEVTYPE}==\"usb_device\", "
		    "ATTR{serial}==\"%s\", ATTR{idVendor}==\"%04x\", "
		    "ATTR{idProduct}==\"%04x\", " MUXD_UDEV_ROOM, a->serial,
		    a->usb_vendor, a->usb_product, cp->name);
	return (0);
}

int
main(int argc, char *argv[])
{
	struct conf	*cf;
	const char	*file = MUXD_UDEV_CONF, *output = NULL;
	char		 msg[LINE_ERRLEN], tmp[4096];
	FILE		*out = stdout;
	size_t		 i;
	int		 ch, failed = 0;

	switch (protocol_std_option(argc, argv, "muxd-udev")) {
	case 0:
		return (0);
	case 1:
		muxd_udev_usage(0);
	}
	opterr = 0;
	while ((ch = getopt(argc, argv, "f:o:")) != -1) {
		switch (ch) {
		case 'f':
			file = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		default:
			protocol_bad_option("muxd-udev", "f:o:", argv);
			muxd_udev_usage(2);
		}
	}
	if (optind != argc)
		muxd_udev_usage(2);
	if ((cf = conf_load(file, msg, sizeof(msg))) == NULL)
		errx(1, "%s", msg);
	if (output != NULL) {
		snprintf(tmp, sizeof(tmp), "%s.tmp", output);
		if ((out = fopen(tmp, "w")) == NULL)
			err(1, "%s", tmp);
	}
	if (getgrnam("muxd") == NULL)
		warnx("warning: there is no group muxd, and udev drops a "
		    "GROUP= it cannot find (systemd-sysusers, or groupadd "
		    "--system muxd)");
	fprintf(out, "# The lines of %s: stable names for its USB serial\n"
	    "# adapters by serial number, group muxd, no ModemManager.  "
	    "Written by\n# muxd-udev; write it again when the room changes.  "
	    "Goes with\n# 60-muxd.rules and 63-muxd-spare.rules.\n",
	    cf->file);
	fprintf(out, "ACTION==\"remove\", GOTO=\"muxd_room_end\"\n");
	for (i = 0; i < cf->nports; i++)
		if (muxd_udev_port(out, &cf->ports[i], cf->file) == -1)
			failed = 1;
	fprintf(out, "LABEL=\"muxd_room_end\"\n");
	conf_free(cf);
	if (fflush(out) == EOF || ferror(out))
		err(1, "%s", output != NULL ? tmp : "stdout");
	if (output != NULL) {
		fclose(out);
		if (failed)
			unlink(tmp);
		else if (rename(tmp, output) == -1)
			err(1, "rename %s to %s", tmp, output);
	}
	return (failed);
}
