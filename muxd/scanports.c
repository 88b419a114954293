/*
 * The "ports" control command: every serial port of the host
 * (serialscan.c), each marked with the muxd port that holds it, and the
 * configured serial and FTDI ports that are missing.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "muxd.h"

static json_t	*scanports_find(json_t *, const struct port *);

/* Find the entry of the list that a port's address names, or NULL. */
static json_t *
scanports_find(json_t *list, const struct port *p)
{
	char		 real[PATH_MAX], vidpid[16];
	const char	*dev, *serial, *vid, *pid;
	json_t		*o;
	size_t		 i;

	if (p->addr.kind == ADDR_DEVICE &&
	    realpath(p->addr.path, real) == NULL)
		return (NULL);
	json_array_foreach(list, i, o) {
		dev = json_string_value(json_object_get(o, "device"));
		serial = json_string_value(json_object_get(o, "serial"));
		if (p->addr.kind == ADDR_DEVICE) {
			if (dev != NULL && strcmp(dev, real) == 0)
				return (o);
			continue;
		}
		vid = json_string_value(json_object_get(o, "vid"));
		pid = json_string_value(json_object_get(o, "pid"));
		snprintf(vidpid, sizeof(vidpid), "%04x%04x",
		    p->addr.usb_vendor, p->addr.usb_product);
		if (serial != NULL && vid != NULL && pid != NULL &&
		    strcmp(serial, p->addr.serial) == 0 &&
		    strncmp(vidpid, vid, 4) == 0 &&
		    strcmp(vidpid + 4, pid) == 0)
			return (o);
	}
	return (NULL);
}

/* List the host's serial ports for the control protocol, or NULL. */
json_t *
scanports_json(char *err, size_t errlen)
{
	struct port	*p;
	json_t		*list, *o;
	char		*addr;

	if ((list = serialscan_list(err, errlen)) == NULL)
		return (NULL);
	TAILQ_FOREACH(p, &ports, entry) {
		if (p->addr.kind != ADDR_DEVICE && p->addr.kind != ADDR_FTDI)
			continue;
		if ((o = scanports_find(list, p)) == NULL) {
			if ((addr = addr_format(&p->addr)) == NULL)
				continue;
			o = json_pack("{sn ss sb}", "device",
			    p->addr.kind == ADDR_FTDI ? "ftdi" : "address",
			    addr, "present", 0);
			free(addr);
			if (p->addr.kind == ADDR_DEVICE)
				json_object_set_new(o, "device",
				    json_string(p->addr.path));
			json_array_append_new(list, o);
		}
		json_object_set_new(o, "port", json_string(p->name));
		json_object_set_new(o, "port_state",
		    json_string(port_state_name(p->state)));
	}
	return (json_pack("{so}", "ports", list));
}
