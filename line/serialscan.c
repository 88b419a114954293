/*
 * Serial port enumeration, for muxd's "ports" command and for
 * "muxctl ports --local" (this file is linked into both; it uses no event
 * loop and logs nothing).
 *
 * Every serial port libserialport finds is listed with its driver, USB
 * vendor, product and serial number, its /dev/serial/by-id name and the
 * project's /dev/muxd names, and the process holding its flock(2) lock,
 * if any (muxd locks every line it opens).  FTDI chips that have no tty,
 * because libftdi holds them (ftdi: addresses) or no driver is bound, are
 * found in sysfs and listed with their ftdi: address.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libserialport.h>

#include "line.h"

#define SERIALSCAN_USB	"/sys/bus/usb/devices"

static void	serialscan_links(json_t *, const char *, const char *,
		    const char *);
static json_t	*serialscan_locker(const char *);
static char	*serialscan_driver(const char *, char *, size_t);
static int	serialscan_attr(const char *, const char *, char *, size_t);
static int	serialscan_has_tty(const char *);
static void	serialscan_ftdi(json_t *);
static int	serialscan_cmp(const void *, const void *);
static int	serialscan_sort(json_t *);

/* Read a one-line sysfs attribute of a directory into buf. */
static int
serialscan_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char	 path[PATH_MAX];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf[0] = '\0';
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return (buf[0] == '\0' ? -1 : 0);
}

/* Name the driver bound to a sysfs device directory, or NULL. */
static char *
serialscan_driver(const char *devdir, char *buf, size_t len)
{
	char	 path[PATH_MAX], target[PATH_MAX];
	ssize_t	 n;
	char	*slash;

	snprintf(path, sizeof(path), "%s/driver", devdir);
	if ((n = readlink(path, target, sizeof(target) - 1)) == -1)
		return (NULL);
	target[n] = '\0';
	slash = strrchr(target, '/');
	snprintf(buf, len, "%s", slash != NULL ? slash + 1 : target);
	return (buf);
}

/*
 * Add the entries of a directory of links (/dev/serial/by-id and by-path,
 * /dev/muxd) that resolve to real under key: a string for the first two
 * (keys by_id, by_path), or an array.
 */
static void
serialscan_links(json_t *o, const char *key, const char *dir,
    const char *real)
{
	DIR		*d;
	struct dirent	*de;
	char		 path[PATH_MAX], res[PATH_MAX];
	json_t		*arr = NULL;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (realpath(path, res) == NULL || strcmp(res, real) != 0)
			continue;
		if (strncmp(key, "by_", 3) == 0) {
			json_object_set_new(o, key, json_string(path));
			break;
		}
		if (arr == NULL)
			arr = json_array();
		json_array_append_new(arr, json_string(path));
	}
	closedir(d);
	if (arr != NULL)
		json_object_set_new(o, key, arr);
}

/*
 * Find who holds a flock(2) lock on a device, from /proc/locks:
 * {"pid": N, "program": NAME}, or NULL.
 */
static json_t *
serialscan_locker(const char *path)
{
	struct stat	 st;
	FILE		*f;
	char		 line[256], type[16], comm[64], file[64];
	unsigned int	 maj, min;
	unsigned long	 ino;
	long		 pid;

	if (stat(path, &st) == -1 || (f = fopen("/proc/locks", "r")) == NULL)
		return (NULL);
	while (fgets(line, sizeof(line), f) != NULL) {
		/* "1: FLOCK  ADVISORY  WRITE 123 00:05:456 0 EOF" */
		if (sscanf(line, "%*s %15s %*s %*s %ld %x:%x:%lu", type, &pid,
		    &maj, &min, &ino) != 5 || strcmp(type, "FLOCK") != 0)
			continue;
		if (ino != st.st_ino || makedev(maj, min) != st.st_dev)
			continue;
		fclose(f);
		snprintf(file, sizeof(file), "/proc/%ld", pid);
		if (serialscan_attr(file, "comm", comm, sizeof(comm)) == -1)
			snprintf(comm, sizeof(comm), "?");
		return (json_pack("{sIss}", "pid", (json_int_t)pid, "program",
		    comm));
	}
	fclose(f);
	return (NULL);
}

/*
 * The address options that name a USB tty in a room, for udev rules
 * (muxd-udev): "serial=S", with ",interface=X" on a chip of several ttys
 * (A for interface 0); NULL without a serial number.
 */
static json_t *
serialscan_options(const char *sysdir, const char *serial)
{
	char	 dir[PATH_MAX], num[16], nif[16], opt[200];
	int	 i;

	if (serial == NULL || *serial == '\0')
		return (NULL);
	/* ttyUSB: device is the usb-serial port, its parent the interface;
	   ttyACM: device is the interface. */
	snprintf(dir, sizeof(dir), "%s/..", sysdir);
	if (serialscan_attr(dir, "bInterfaceNumber", num, sizeof(num)) == -1) {
		snprintf(dir, sizeof(dir), "%s", sysdir);
		serialscan_attr(dir, "bInterfaceNumber", num, sizeof(num));
	}
	strncat(dir, "/..", sizeof(dir) - strlen(dir) - 1);
	serialscan_attr(dir, "bNumInterfaces", nif, sizeof(nif));
	i = (int)strtol(num, NULL, 16);
	if (num[0] != '\0' && i >= 0 && i < 4 && (i > 0 || atoi(nif) > 1))
		snprintf(opt, sizeof(opt), "serial=%s,interface=%c", serial,
		    'A' + i);
	else
		snprintf(opt, sizeof(opt), "serial=%s", serial);
	return (json_string(opt));
}

/* Tell whether a USB device directory has a tty below one of its ports. */
static int
serialscan_has_tty(const char *devdir)
{
	DIR		*d, *i;
	struct dirent	*de, *ie;
	char		 path[PATH_MAX];
	int		 found = 0;

	if ((d = opendir(devdir)) == NULL)
		return (0);
	while (!found && (de = readdir(d)) != NULL) {
		if (strchr(de->d_name, ':') == NULL)
			continue;	/* not an interface */
		snprintf(path, sizeof(path), "%s/%s", devdir, de->d_name);
		if ((i = opendir(path)) == NULL)
			continue;
		while ((ie = readdir(i)) != NULL)
			if (strncmp(ie->d_name, "tty", 3) == 0)
				found = 1;
		closedir(i);
	}
	closedir(d);
	return (found);
}

/*
 * Count the ports of the USB adapter whose serial number is serial, for
 * muxd -nn's warning of a multi-port adapter named without interface=:
 * its interfaces that have a tty, under root (/sys/bus/usb/devices, or a
 * copy of its shape); 0 when no adapter plugged in has that number.
 */
int
serialscan_usb_ports(const char *root, const char *serial)
{
	DIR		*d, *i;
	struct dirent	*de, *ie;
	char		 dev[PATH_MAX], path[PATH_MAX], buf[256];
	int		 n = 0, found = 0;

	if ((d = opendir(root)) == NULL)
		return (0);
	while (!found && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || strchr(de->d_name, ':') != NULL)
			continue;	/* an interface, not a device */
		snprintf(dev, sizeof(dev), "%s/%s", root, de->d_name);
		if (serialscan_attr(dev, "serial", buf, sizeof(buf)) == -1 ||
		    strcmp(buf, serial) != 0)
			continue;
		found = 1;
	}
	closedir(d);
	if (!found || (d = opendir(dev)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL) {
		if (strchr(de->d_name, ':') == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dev, de->d_name);
		if ((i = opendir(path)) == NULL)
			continue;
		while ((ie = readdir(i)) != NULL)
			if (strncmp(ie->d_name, "tty", 3) == 0) {
				n++;
				break;
			}
		closedir(i);
	}
	closedir(d);
	return (n);
}

/* List the FTDI chips that have no tty (held by libftdi, or unbound). */
static void
serialscan_ftdi(json_t *list)
{
	DIR		*d;
	struct dirent	*de;
	char		 dir[PATH_MAX], ifdir[PATH_MAX], vid[16], pid[16];
	char		 serial[128], manu[128], prod[128];
	char		 bus[16], dev[16];
	char		 drv[64], addr[160];
	json_t		*o;

	if ((d = opendir(SERIALSCAN_USB)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || strchr(de->d_name, ':') != NULL)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", SERIALSCAN_USB, de->d_name);
		if (serialscan_attr(dir, "idVendor", vid, sizeof(vid)) == -1 ||
		    strcmp(vid, "0403") != 0 || serialscan_has_tty(dir))
			continue;
		serialscan_attr(dir, "idProduct", pid, sizeof(pid));
		serialscan_attr(dir, "serial", serial, sizeof(serial));
		serialscan_attr(dir, "manufacturer", manu, sizeof(manu));
		serialscan_attr(dir, "product", prod, sizeof(prod));
		serialscan_attr(dir, "busnum", bus, sizeof(bus));
		serialscan_attr(dir, "devnum", dev, sizeof(dev));
		snprintf(ifdir, sizeof(ifdir), "%s/%s:1.0", dir, de->d_name);
		snprintf(addr, sizeof(addr), "ftdi:%s,usb=%s:%s", serial, vid,
		    pid);
		o = json_pack("{sn ss? ss ss ss ss ss ss si si ss}",
		    "device",
		    "driver", serialscan_driver(ifdir, drv, sizeof(drv)),
		    "transport", "usb",
		    "description", prod,
		    "vid", vid, "pid", pid,
		    "manufacturer", manu, "product", prod,
		    "bus", atoi(bus), "address", atoi(dev),
		    "ftdi", addr);
		if (o == NULL)
			continue;
		json_object_set_new(o, "serial", serial[0] != '\0' ?
		    json_string(serial) : json_null());
		json_array_append_new(list, o);
	}
	closedir(d);
}

/* Order two entries by device name, ttyS2 before ttyS10. */
static int
serialscan_cmp(const void *x, const void *y)
{
	return (strverscmp(
	    json_string_value(json_object_get(*(json_t *const *)x, "device")),
	    json_string_value(json_object_get(*(json_t *const *)y, "device"))));
}

/* Sort a list of entries that all have a device name; -1 out of memory. */
static int
serialscan_sort(json_t *list)
{
	json_t	**v;
	size_t	  i, n = json_array_size(list);

	if (n < 2)
		return (0);
	if ((v = calloc(n, sizeof(*v))) == NULL)
		return (-1);
	for (i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(list, i));
	qsort(v, n, sizeof(*v), serialscan_cmp);
	json_array_clear(list);
	for (i = 0; i < n; i++)
		json_array_append_new(list, v[i]);
	free(v);
	return (0);
}

/*
 * List every serial port: a JSON array of objects, or NULL with a message
 * in err.
 */
json_t *
serialscan_list(char *err, size_t errlen)
{
	struct sp_port	**sps;
	const char	*name, *s;
	char		 sysdir[PATH_MAX], drv[64], real[PATH_MAX];
	char		 vidpid[16], addr[160];
	json_t		*list, *o, *locker, *opts;
	int		 i, vid = 0, pid = 0, bus, dev;
	enum sp_transport t;

	if (sp_list_ports(&sps) != SP_OK) {
		s = sp_last_error_message();
		snprintf(err, errlen, "cannot list serial ports: %s",
		    s != NULL ? s : "libserialport failed");
		if (s != NULL)
			sp_free_error_message((char *)s);
		return (NULL);
	}
	if ((list = json_array()) == NULL) {
		sp_free_port_list(sps);
		snprintf(err, errlen, "out of memory");
		return (NULL);
	}
	for (i = 0; sps[i] != NULL; i++) {
		name = sp_get_port_name(sps[i]);
		s = strrchr(name, '/');
		snprintf(sysdir, sizeof(sysdir), "/sys/class/tty/%s/device",
		    s != NULL ? s + 1 : name);
		t = sp_get_port_transport(sps[i]);
		o = json_pack("{ss ss? ss ss?}", "device", name,
		    "driver", serialscan_driver(sysdir, drv, sizeof(drv)),
		    "transport", t == SP_TRANSPORT_USB ? "usb" :
		    t == SP_TRANSPORT_BLUETOOTH ? "bluetooth" : "native",
		    "description", sp_get_port_description(sps[i]));
		if (o == NULL)
			continue;
		if (t == SP_TRANSPORT_USB) {
			if (sp_get_port_usb_vid_pid(sps[i], &vid, &pid) ==
			    SP_OK) {
				snprintf(vidpid, sizeof(vidpid), "%04x", vid);
				json_object_set_new(o, "vid",
				    json_string(vidpid));
				snprintf(vidpid, sizeof(vidpid), "%04x", pid);
				json_object_set_new(o, "pid",
				    json_string(vidpid));
			}
			if ((s = sp_get_port_usb_manufacturer(sps[i])) != NULL)
				json_object_set_new(o, "manufacturer",
				    json_string(s));
			if ((s = sp_get_port_usb_product(sps[i])) != NULL)
				json_object_set_new(o, "product",
				    json_string(s));
			s = sp_get_port_usb_serial(sps[i]);
			json_object_set_new(o, "serial", s != NULL ?
			    json_string(s) : json_null());
			if ((opts = serialscan_options(sysdir, s)) != NULL)
				json_object_set_new(o, "options", opts);
			if (sp_get_port_usb_bus_address(sps[i], &bus, &dev) ==
			    SP_OK) {
				json_object_set_new(o, "bus",
				    json_integer(bus));
				json_object_set_new(o, "address",
				    json_integer(dev));
			}
			if (s != NULL && vid == 0x0403) {
				snprintf(addr, sizeof(addr),
				    "ftdi:%s,usb=%04x:%04x", s, vid, pid);
				json_object_set_new(o, "ftdi",
				    json_string(addr));
			}
		}
		if (realpath(name, real) != NULL) {
			serialscan_links(o, "by_id", "/dev/serial/by-id",
			    real);
			serialscan_links(o, "by_path", "/dev/serial/by-path",
			    real);
			serialscan_links(o, "links", "/dev/muxd", real);
		}
		if ((locker = serialscan_locker(name)) != NULL)
			json_object_set_new(o, "locked_by", locker);
		json_array_append_new(list, o);
	}
	sp_free_port_list(sps);
	if (serialscan_sort(list) == -1) {
		json_decref(list);
		snprintf(err, errlen, "out of memory");
		return (NULL);
	}
	serialscan_ftdi(list);
	return (list);
}
