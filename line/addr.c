/*
 * Endpoint addresses, one syntax for the configuration, the command line
 * and comprog:
 *
 *	/dev/PATH[,OPTION...]		serial device (or pty slave) path
 *	serial:PATH[,OPTION...]		the same, explicitly
 *	pty:PATH[,OPTION...]		a pty created by muxd, linked at PATH
 *	exec:COMMAND			COMMAND run by /bin/sh on a pty
 *	tcp:HOST:PORT			TCP connection to HOST
 *	tcp-listen:[HOST:]PORT[,allow=NET...] TCP listener, one peer at a
 *					time; on loopback without HOST, on
 *					every address with "*"; allow=
 *					ADDRESS[/BITS] (repeated) the peers
 *					taken
 *	ftdi:SERIAL[,OPTION...]		FTDI adapter by USB serial number
 *	rfc2217:HOST:PORT[,OPTION...]	a remote serial port (RFC 2217: a
 *					telnet server such as ser2net)
 *
 * OPTION is baud=N (or just N), data=5..8, parity=none|odd|even|mark|space,
 * stop=1|2, flow=none|rtscts|xonxoff|dtrdsr, or a frame such as 8N1.
 * A device path also takes serial=SERIAL, the USB serial number of the
 * adapter behind it (for udev rules and port listings), and with it
 * interface=A..D, which tty of a chip of several it is.  ftdi: also takes
 * usb=VID:PID (hex, default 0403:6001), latency=1..255 (ms, default 1)
 * and interface=A..D.  HOST may be an IPv6 address in brackets.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"

static const int addr_bauds[] = {
	50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600,
	19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600,
	1000000, 1152000, 1500000, 2000000, 2500000, 3000000, 3500000, 4000000
};

static const char *addr_parities[] = { "none", "odd", "even", "mark", "space" };
static const char *addr_flows[] = { "none", "rtscts", "xonxoff", "dtrdsr" };

static int	addr_options(char *, struct addr *, char *, size_t);
static int	addr_option(const char *, struct addr *, char *, size_t);
static int	addr_hostport(const char *, int, struct addr *, char *, size_t);
static int	addr_net_parse(const char *, struct addr_net *);
static int	addr_allow_list(char *, struct addr *, char *, size_t);
static int	addr_network(const char *, struct addr *,
		    int (*)(char *, struct addr *, char *, size_t), char *,
		    size_t);
static int	addr_lookup(const char *, const char **, size_t);
static int	addr_number(const char *, int *);
static int	addr_usb_option(const char *, const char *, struct addr *,
		    char *, size_t);
static int	addr_ftdi(const char *, struct addr *, char *, size_t);
static int	addr_dup(char **, const char *, size_t, char *, size_t);

/* Tell whether a baud rate is one a serial line can be set to. */
int
addr_baud_valid(int baud)
{
	size_t	i;

	for (i = 0; i < sizeof(addr_bauds) / sizeof(addr_bauds[0]); i++)
		if (addr_bauds[i] == baud)
			return (1);
	return (0);
}

/* Name an address kind as the control protocol shows it. */
const char *
addr_kind_name(enum addr_kind kind)
{
	switch (kind) {
	case ADDR_DEVICE:
		return ("device");
	case ADDR_PTY:
		return ("pty");
	case ADDR_EXEC:
		return ("exec");
	case ADDR_TCP:
		return ("tcp");
	case ADDR_TCP_LISTEN:
		return ("tcp-listen");
	case ADDR_FTDI:
		return ("ftdi");
	case ADDR_RFC2217:
		return ("rfc2217");
	}
	return ("unknown");
}

/* Find a word in a table, returning its index or -1. */
static int
addr_lookup(const char *word, const char **table, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcasecmp(word, table[i]) == 0)
			return ((int)i);
	return (-1);
}

/*
 * Copy at most len bytes of s into *dst; -1 with a message when out of
 * memory, so that a failed allocation never passes for an absent value.
 */
static int
addr_dup(char **dst, const char *s, size_t len, char *err, size_t errlen)
{
	if ((*dst = strndup(s, len)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return (-1);
	}
	return (0);
}

/* Parse a decimal number that fills the whole string. */
static int
addr_number(const char *s, int *out)
{
	char	*end;
	long	 v;

	if (*s == '\0' || !isdigit((unsigned char)*s))
		return (-1);
	v = strtol(s, &end, 10);
	if (*end != '\0' || v > 100000000)
		return (-1);
	*out = (int)v;
	return (0);
}

/* Apply one line-setting option such as baud=9600 or 7E1. */
static int
addr_option(const char *opt, struct addr *a, char *err, size_t errlen)
{
	const char	*eq, *val;
	char		 key[32];
	int		 n, i;

	if (addr_number(opt, &n) == 0) {
		snprintf(key, sizeof(key), "baud");
		val = opt;
	} else if ((eq = strchr(opt, '=')) != NULL) {
		if ((size_t)(eq - opt) >= sizeof(key))
			goto unknown;
		memcpy(key, opt, eq - opt);
		key[eq - opt] = '\0';
		val = eq + 1;
	} else if (strlen(opt) == 3 && strchr("5678", opt[0]) != NULL &&
	    strchr("NOEMSnoems", opt[1]) != NULL && strchr("12", opt[2])) {
		a->databits = opt[0] - '0';
		a->parity = (enum addr_parity)(strchr("noems",
		    tolower((unsigned char)opt[1])) - "noems");
		a->stopbits = opt[2] - '0';
		return (0);
	} else
		goto unknown;

	if (strcmp(key, "baud") == 0 || strcmp(key, "b") == 0) {
		if (addr_number(val, &n) == -1 || !addr_baud_valid(n)) {
			snprintf(err, errlen, "impossible baud rate '%s' "
			    "(a standard rate from 50 to 4000000)", val);
			return (-1);
		}
		a->baud = n;
	} else if (strcmp(key, "data") == 0 || strcmp(key, "bits") == 0 ||
	    strcmp(key, "databits") == 0) {
		if (addr_number(val, &n) == -1 || n < 5 || n > 8) {
			snprintf(err, errlen, "data bits '%s' not 5 to 8", val);
			return (-1);
		}
		a->databits = n;
	} else if (strcmp(key, "parity") == 0) {
		if ((i = addr_lookup(val, addr_parities, 5)) == -1) {
			snprintf(err, errlen, "unknown parity '%s' "
			    "(none, odd, even, mark, space)", val);
			return (-1);
		}
		a->parity = (enum addr_parity)i;
	} else if (strcmp(key, "stop") == 0 || strcmp(key, "stopbits") == 0) {
		if (addr_number(val, &n) == -1 || n < 1 || n > 2) {
			snprintf(err, errlen, "stop bits '%s' not 1 or 2", val);
			return (-1);
		}
		a->stopbits = n;
	} else if (strcmp(key, "flow") == 0) {
		if ((i = addr_lookup(val, addr_flows, 4)) == -1) {
			snprintf(err, errlen, "unknown flow control '%s' "
			    "(none, rtscts, xonxoff, dtrdsr)", val);
			return (-1);
		}
		a->flow = (enum addr_flow)i;
	} else if ((n = addr_usb_option(key, val, a, err, errlen)) != 1)
		return (n);
	else
		goto unknown;
	return (0);

unknown:
	snprintf(err, errlen, "unknown option '%s' (baud=N, data=N, "
	    "parity=P, stop=N, flow=F, or a frame like 8N1%s)", opt,
	    a->kind == ADDR_FTDI ? "; usb=VID:PID, latency=MS, interface=A..D"
	    : a->kind == ADDR_DEVICE ? "; serial=SERIAL, interface=A..D" : "");
	return (-1);
}

/*
 * Apply an option of USB adapters: serial= and interface= (which tty of a
 * chip of several) on a device path, usb=, latency= and interface= on
 * ftdi:.  Returns 0, -1 with a message, or 1
 * when the key is none of these.
 */
static int
addr_usb_option(const char *key, const char *val, struct addr *a, char *err,
    size_t errlen)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	unsigned int	vid, pid;
	size_t		hv, hp;
	int		n;

	if (strcmp(key, "serial") == 0 && a->kind == ADDR_DEVICE) {
		if (*val == '\0' || strlen(val) > 126) {
			snprintf(err, errlen, "serial= needs a USB serial "
			    "number of 1 to 126 characters");
			return (-1);
		}
		free(a->serial);
		return (addr_dup(&a->serial, val, SIZE_MAX, err, errlen));
	}
	if (a->kind != ADDR_FTDI && (a->kind != ADDR_DEVICE ||
	    strcmp(key, "interface") != 0))
		return (1);
	if (strcmp(key, "usb") == 0) {
		/* 1 to 4 hex digits each: sscanf alone takes signs, 0x. */
		hv = strspn(val, hex);
		hp = val[hv] == ':' ? strspn(val + hv + 1, hex) : 0;
		if (hv < 1 || hv > 4 || hp < 1 || hp > 4 ||
		    val[hv + 1 + hp] != '\0' ||
		    sscanf(val, "%x:%x", &vid, &pid) != 2 ||
		    vid == 0 || pid == 0) {
			snprintf(err, errlen, "bad usb=%s (a vendor and product "
			    "id in hex, like usb=0403:6015)", val);
			return (-1);
		}
		a->usb_vendor = (int)vid;
		a->usb_product = (int)pid;
	} else if (strcmp(key, "latency") == 0) {
		if (addr_number(val, &n) == -1 || n < 1 || n > 255) {
			snprintf(err, errlen, "latency '%s' not 1 to 255 (ms)",
			    val);
			return (-1);
		}
		a->latency = n;
	} else if (strcmp(key, "interface") == 0) {
		if (strlen(val) != 1 || strchr("ABCDabcd", val[0]) == NULL) {
			snprintf(err, errlen, "interface '%s' not A, B, C or D",
			    val);
			return (-1);
		}
		a->interface = toupper((unsigned char)val[0]) - 'A' + 1;
	} else
		return (1);
	return (0);
}

/* Parse the body of ftdi:SERIAL[,OPTION...]. */
static int
addr_ftdi(const char *body, struct addr *a, char *err, size_t errlen)
{
	char	*copy, *opts;
	int	 r = -1;

	a->usb_vendor = 0x0403;
	a->usb_product = 0x6001;
	a->latency = 1;
	if (addr_dup(&copy, body, SIZE_MAX, err, errlen) == -1)
		return (-1);
	if ((opts = strchr(copy, ',')) != NULL)
		*opts++ = '\0';
	if (copy[0] == '\0' || strlen(copy) > 126)
		snprintf(err, errlen, "ftdi: needs the adapter's USB serial "
		    "number (1 to 126 characters), as in ftdi:A1B2C3");
	else if (addr_dup(&a->serial, copy, SIZE_MAX, err, errlen) == 0 &&
	    (opts == NULL || addr_options(opts, a, err, errlen) == 0))
		r = 0;
	if (r == 0 && a->databits != 7 && a->databits != 8) {
		snprintf(err, errlen, "an FTDI adapter takes 7 or 8 data "
		    "bits, not %d", a->databits);
		r = -1;
	}
	free(copy);
	return (r);
}

/* Apply the comma-separated options that follow a path. */
static int
addr_options(char *list, struct addr *a, char *err, size_t errlen)
{
	char	*opt;

	while ((opt = strsep(&list, ",")) != NULL) {
		if (*opt == '\0') {
			snprintf(err, errlen, "empty option");
			return (-1);
		}
		if (addr_option(opt, a, err, errlen) == -1)
			return (-1);
	}
	return (0);
}

/* Split HOST:PORT (HOST optional when listening, [v6] allowed). */
static int
addr_hostport(const char *s, int listen, struct addr *a, char *err,
    size_t errlen)
{
	const char	*colon, *host = NULL, *port;
	size_t		 hostlen = 0;
	int		 n;

	if (*s == '[') {
		if ((colon = strchr(s, ']')) == NULL || colon[1] != ':') {
			snprintf(err, errlen, "bad IPv6 host in '%s' "
			    "(expected [ADDRESS]:PORT)", s);
			return (-1);
		}
		host = s + 1;
		hostlen = colon - host;
		port = colon + 2;
	} else if ((colon = strrchr(s, ':')) != NULL) {
		host = s;
		hostlen = colon - s;
		port = colon + 1;
	} else if (listen)
		port = s;
	else {
		snprintf(err, errlen, "missing port in '%s' "
		    "(expected HOST:PORT)", s);
		return (-1);
	}
	if (addr_number(port, &n) == -1 || n < 1 || n > 65535) {
		snprintf(err, errlen, "bad TCP port '%s' (1 to 65535)", port);
		return (-1);
	}
	if (host != NULL && hostlen == 0 && !listen) {
		snprintf(err, errlen, "missing host in '%s'", s);
		return (-1);
	}
	for (n = 0; host != NULL && (size_t)n < hostlen; n++) {
		if (isspace((unsigned char)host[n]) ||
		    iscntrl((unsigned char)host[n]) || host[n] == '[' ||
		    host[n] == ']' || (*s != '[' && host[n] == ':')) {
			snprintf(err, errlen, "bad host '%.*s' in '%s' (%s)",
			    (int)hostlen, host, s, strchr(":[]", host[n]) ?
			    "an IPv6 address goes in brackets: [ADDRESS]:PORT" :
			    "a host name or address");
			return (-1);
		}
	}
	if (host != NULL && hostlen > 0 &&
	    addr_dup(&a->host, host, hostlen, err, errlen) == -1)
		return (-1);
	return (addr_dup(&a->service, port, SIZE_MAX, err, errlen));
}

/*
 * Parse NET, an address with an optional /BITS (all of them by default),
 * into n; -1 when it is none.
 */
static int
addr_net_parse(const char *s, struct addr_net *n)
{
	char		 buf[INET6_ADDRSTRLEN + 8], *slash;
	int		 max;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return (-1);
	if ((slash = strchr(buf, '/')) != NULL)
		*slash++ = '\0';
	memset(n, 0, sizeof(*n));
	if (inet_pton(AF_INET, buf, n->net) == 1) {
		n->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, buf, n->net) == 1) {
		n->family = AF_INET6;
		max = 128;
	} else
		return (-1);
	n->bits = max;
	if (slash != NULL && (addr_number(slash, &n->bits) == -1 ||
	    n->bits > max))
		return (-1);
	return (0);
}

/* Parse the options of a tcp-listen: address: allow=NET, repeated. */
static int
addr_allow_list(char *opts, struct addr *a, char *err, size_t errlen)
{
	char	*opt;

	while ((opt = strsep(&opts, ",")) != NULL) {
		if (strncmp(opt, "allow=", 6) != 0) {
			snprintf(err, errlen, "unknown option '%s' (tcp-listen: "
			    "takes allow=ADDRESS[/BITS])", opt);
			return (-1);
		}
		if (a->nallow == ADDR_ALLOW_MAX) {
			snprintf(err, errlen, "more than %d allow= networks",
			    ADDR_ALLOW_MAX);
			return (-1);
		}
		if (addr_net_parse(opt + 6, &a->allow[a->nallow]) == -1) {
			snprintf(err, errlen, "bad %s (an IPv4 or IPv6 "
			    "address, with /BITS for a network)", opt);
			return (-1);
		}
		a->nallow++;
	}
	return (0);
}

/* Tell whether a peer may connect to a tcp-listen: address. */
int
addr_allowed(const struct addr *a, const struct sockaddr *sa)
{
	const struct addr_net	*n;
	const unsigned char	*p;
	int			 i, family, bits, full;

	if (a->nallow == 0)
		return (1);
	if (sa->sa_family == AF_INET) {
		family = AF_INET;
		p = (const unsigned char *)
		    &((const struct sockaddr_in *)sa)->sin_addr;
	} else if (sa->sa_family == AF_INET6) {
		p = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		family = AF_INET6;
		/* A mapped IPv4 peer of a listener on [::]. */
		if (IN6_IS_ADDR_V4MAPPED(
		    &((const struct sockaddr_in6 *)sa)->sin6_addr)) {
			family = AF_INET;
			p += 12;
		}
	} else
		return (0);
	for (i = 0; i < a->nallow; i++) {
		n = &a->allow[i];
		if (n->family != family)
			continue;
		bits = n->bits;
		full = bits / 8;
		if (memcmp(n->net, p, full) != 0)
			continue;
		if (bits % 8 == 0 || ((n->net[full] ^ p[full]) &
		    (0xff << (8 - bits % 8)) & 0xff) == 0)
			return (1);
	}
	return (0);
}

/*
 * Parse [HOST:]PORT[,OPTION...] of a network address (a host needed but
 * for tcp-listen:), its options with options(); -1 with a message.
 */
static int
addr_network(const char *text, struct addr *a,
    int (*options)(char *, struct addr *, char *, size_t), char *err,
    size_t errlen)
{
	char	*copy, *opts;
	int	 r;

	if (addr_dup(&copy, text, SIZE_MAX, err, errlen) == -1)
		return (-1);
	if ((opts = strchr(copy, ',')) != NULL)
		*opts++ = '\0';
	r = addr_hostport(copy, a->kind == ADDR_TCP_LISTEN, a, err, errlen);
	if (r == 0 && opts != NULL)
		r = options(opts, a, err, errlen);
	free(copy);
	return (r);
}

/* Parse an address; on failure return -1 with a message in err. */
int
addr_parse(const char *text, struct addr *a, char *err, size_t errlen)
{
	char	*copy, *opts;
	const char *body;

	memset(a, 0, sizeof(*a));
	a->baud = 9600;
	a->databits = 8;
	a->stopbits = 1;
	if (text == NULL || *text == '\0') {
		snprintf(err, errlen, "empty address");
		return (-1);
	}
	if (strncmp(text, "exec:", 5) == 0) {
		a->kind = ADDR_EXEC;
		if (text[5] == '\0') {
			snprintf(err, errlen, "exec: needs a command");
			return (-1);
		}
		return (addr_dup(&a->path, text + 5, SIZE_MAX, err, errlen));
	}
	if (strncmp(text, "tcp:", 4) == 0) {
		a->kind = ADDR_TCP;
		if (addr_hostport(text + 4, 0, a, err, errlen) == -1)
			goto fail;
		return (0);
	}
	if (strncmp(text, "tcp-listen:", 11) == 0) {
		a->kind = ADDR_TCP_LISTEN;
		if (addr_network(text + 11, a, addr_allow_list, err,
		    errlen) == -1)
			goto fail;
		return (0);
	}
	if (strncmp(text, "rfc2217:", 8) == 0) {
		a->kind = ADDR_RFC2217;
		if (addr_network(text + 8, a, addr_options, err, errlen) == -1)
			goto fail;
		return (0);
	}
	if (strncmp(text, "ftdi:", 5) == 0) {
		a->kind = ADDR_FTDI;
		if (addr_ftdi(text + 5, a, err, errlen) == -1)
			goto fail;
		return (0);
	}
	if (strncmp(text, "pty:", 4) == 0) {
		a->kind = ADDR_PTY;
		body = text + 4;
	} else if (strncmp(text, "serial:", 7) == 0) {
		a->kind = ADDR_DEVICE;
		body = text + 7;
	} else if (text[0] == '/') {
		a->kind = ADDR_DEVICE;
		body = text;
	} else {
		snprintf(err, errlen, "unknown address scheme in '%s' (known: "
		    "/dev/PATH, serial:PATH, pty:PATH, exec:COMMAND, "
		    "tcp:HOST:PORT, tcp-listen:[HOST:]PORT, ftdi:SERIAL, "
		    "rfc2217:HOST:PORT)", text);
		return (-1);
	}
	if (addr_dup(&copy, body, SIZE_MAX, err, errlen) == -1)
		return (-1);
	if ((opts = strchr(copy, ',')) != NULL)
		*opts++ = '\0';
	if (copy[0] != '/') {
		snprintf(err, errlen, "path '%s' is not absolute", copy);
		free(copy);
		return (-1);
	}
	if (addr_dup(&a->path, copy, SIZE_MAX, err, errlen) == -1 ||
	    (opts != NULL && addr_options(opts, a, err, errlen) == -1)) {
		free(copy);
		goto fail;
	}
	free(copy);
	return (0);

fail:
	addr_free(a);
	return (-1);
}

/* Release what an address holds. */
void
addr_free(struct addr *a)
{
	free(a->path);
	free(a->host);
	free(a->service);
	free(a->serial);
	a->path = a->host = a->service = a->serial = NULL;
}

/* Write an address in its canonical form; the caller frees it. */
char *
addr_format(const struct addr *a)
{
	char	*s = NULL, *t, iface[16], net[INET6_ADDRSTRLEN];
	int	 r = -1, i;

	switch (a->kind) {
	case ADDR_EXEC:
		r = asprintf(&s, "exec:%s", a->path);
		break;
	case ADDR_TCP:
	case ADDR_TCP_LISTEN:
		r = asprintf(&s, "%s:%s%s%s%s%s",
		    a->kind == ADDR_TCP ? "tcp" : "tcp-listen",
		    a->host != NULL && strchr(a->host, ':') ? "[" : "",
		    a->host != NULL ? a->host : "",
		    a->host != NULL && strchr(a->host, ':') ? "]" : "",
		    a->host != NULL ? ":" : "", a->service);
		for (i = 0; r != -1 && i < a->nallow; i++) {
			inet_ntop(a->allow[i].family, a->allow[i].net, net,
			    sizeof(net));
			t = s;
			r = asprintf(&s, "%s,allow=%s/%d", t, net,
			    a->allow[i].bits);
			free(t);
		}
		break;
	case ADDR_DEVICE:
	case ADDR_PTY:
		r = asprintf(&s, "%s%s,baud=%d,%d%c%d%s%s",
		    a->kind == ADDR_PTY ? "pty:" : "", a->path, a->baud,
		    a->databits, "NOEMS"[a->parity], a->stopbits,
		    a->flow != ADDR_FLOW_NONE ? ",flow=" : "",
		    a->flow != ADDR_FLOW_NONE ? addr_flows[a->flow] : "");
		if (r != -1 && a->serial != NULL) {
			t = s;
			r = asprintf(&s, "%s,serial=%s", t, a->serial);
			free(t);
		}
		if (r != -1 && a->interface != 0) {
			t = s;
			r = asprintf(&s, "%s,interface=%c", t,
			    'A' + a->interface - 1);
			free(t);
		}
		break;
	case ADDR_RFC2217:
		r = asprintf(&s, "rfc2217:%s%s%s:%s,baud=%d,%d%c%d%s%s",
		    strchr(a->host, ':') ? "[" : "", a->host,
		    strchr(a->host, ':') ? "]" : "", a->service, a->baud,
		    a->databits, "NOEMS"[a->parity], a->stopbits,
		    a->flow != ADDR_FLOW_NONE ? ",flow=" : "",
		    a->flow != ADDR_FLOW_NONE ? addr_flows[a->flow] : "");
		break;
	case ADDR_FTDI:
		snprintf(iface, sizeof(iface), ",interface=%c",
		    'A' + a->interface - 1);
		r = asprintf(&s, "ftdi:%s,usb=%04x:%04x,baud=%d,%d%c%d,"
		    "latency=%d%s%s%s", a->serial, a->usb_vendor,
		    a->usb_product, a->baud, a->databits, "NOEMS"[a->parity],
		    a->stopbits, a->latency, a->interface != 0 ? iface : "",
		    a->flow != ADDR_FLOW_NONE ? ",flow=" : "",
		    a->flow != ADDR_FLOW_NONE ? addr_flows[a->flow] : "");
		break;
	}
	return (r == -1 ? NULL : s);
}

/* Tell whether two addresses name the same endpoint with the same settings. */
int
addr_equal(const struct addr *x, const struct addr *y)
{
	char	*fx, *fy;
	int	 same;

	fx = addr_format(x);
	fy = addr_format(y);
	same = fx != NULL && fy != NULL && strcmp(fx, fy) == 0;
	free(fx);
	free(fy);
	return (same);
}

/*
 * Tell whether two addresses name the same line, whatever its settings:
 * one device or pty path, one TCP listening address, or one interface of
 * one FTDI adapter (its vendor:product and serial number; interface 0 is
 * A, as libftdi takes it).
 */
int
addr_same_line(const struct addr *x, const struct addr *y)
{
	if (x->kind != y->kind)
		return (0);
	switch (x->kind) {
	case ADDR_DEVICE:
	case ADDR_PTY:
		return (strcmp(x->path, y->path) == 0);
	case ADDR_TCP_LISTEN:
		return (strcmp(x->service, y->service) == 0 &&
		    (x->host == NULL) == (y->host == NULL) &&
		    (x->host == NULL || strcmp(x->host, y->host) == 0));
	case ADDR_RFC2217:
		return (strcmp(x->host, y->host) == 0 &&
		    strcmp(x->service, y->service) == 0);
	case ADDR_FTDI:
		return (strcmp(x->serial, y->serial) == 0 &&
		    x->usb_vendor == y->usb_vendor &&
		    x->usb_product == y->usb_product &&
		    (x->interface == 0 ? 1 : x->interface) ==
		    (y->interface == 0 ? 1 : y->interface));
	case ADDR_EXEC:
	case ADDR_TCP:
		break;
	}
	return (0);
}

/* Copy an address into dst; returns -1 when out of memory. */
int
addr_copy(struct addr *dst, const struct addr *src)
{
	*dst = *src;
	dst->path = src->path != NULL ? strdup(src->path) : NULL;
	dst->host = src->host != NULL ? strdup(src->host) : NULL;
	dst->service = src->service != NULL ? strdup(src->service) : NULL;
	dst->serial = src->serial != NULL ? strdup(src->serial) : NULL;
	if ((src->serial != NULL && dst->serial == NULL) ||
	    (src->path != NULL && dst->path == NULL) ||
	    (src->host != NULL && dst->host == NULL) ||
	    (src->service != NULL && dst->service == NULL)) {
		addr_free(dst);
		return (-1);
	}
	return (0);
}
