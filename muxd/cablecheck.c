/*
 * Cable check, for operators cabling a room ("cablecheck" control
 * command, muxctl cablecheck).
 *
 * Every port checked gets a banner line naming it, so that whoever looks
 * at the terminal on that line sees which port it is:
 *
 *	[muxd cable check 3.1: this line is port j1-left, /dev/muxd/j1-left]
 *
 * The banner is also a probe.  For a moment (CABLECHECK_WINDOW_MS) the
 * bytes read from every unrouted port are searched for the banners: one
 * that comes back on its own port shows a loopback plug (or a terminal
 * that echoes), one that comes back on another port shows that the two
 * lines are cabled to each other.  The outcome goes out as one
 * "cablecheck" event.  Only ports that are up and in no link are
 * checked: nothing is ever written into a conversation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "muxd.h"

#define CABLECHECK_WINDOW_MS	1500	/* default wait for echoes */
#define CABLECHECK_KEEP		512	/* input kept per port */
#define CABLECHECK_MAXPORTS	256

struct cablecheck_probe {
	struct port	*port;		/* compared, never followed */
	char		*name;
	char		 tag[32];	/* "cable check ID.N:" */
	json_t		*heard;		/* ports it came back on */
	unsigned char	 seen[CABLECHECK_KEEP]; /* the port's last input */
	size_t		 nseen;
};

struct cablecheck {
	int		 id;
	struct cablecheck_probe *probes;
	size_t		 nprobes;
	struct event	*timer;
};

static struct cablecheck	*cablecheck_cur;
static int			 cablecheck_ids;

static void	cablecheck_tap(void *, const struct port *,
		    const struct link *, enum port_dir, const unsigned char *,
		    size_t, const struct timeval *);
static void	cablecheck_done(evutil_socket_t, short, void *);
static void	cablecheck_free(struct cablecheck *);
static struct cablecheck_probe *cablecheck_probe_of(const struct port *);
static json_t	*cablecheck_skip(struct port *);

/* Find the probe state of a port, if it takes part. */
static struct cablecheck_probe *
cablecheck_probe_of(const struct port *p)
{
	size_t	i;

	for (i = 0; i < cablecheck_cur->nprobes; i++)
		if (cablecheck_cur->probes[i].port == p)
			return (&cablecheck_cur->probes[i]);
	return (NULL);
}

/*
 * Watch the input of unrouted ports for the banners: keep the last bytes
 * each port read and look for every probe's tag in them.
 */
static void
cablecheck_tap(void *arg, const struct port *p, const struct link *l,
    enum port_dir dir, const unsigned char *buf, size_t len,
    const struct timeval *tv)
{
	struct cablecheck_probe	*in, *pr;
	size_t			 i, j, keep, tl;
	json_t			*v;
	int			 dup;

	(void)arg;
	(void)tv;
	if (cablecheck_cur == NULL || dir != PORT_IN || l != NULL ||
	    (in = cablecheck_probe_of(p)) == NULL)
		return;
	if (len >= CABLECHECK_KEEP) {
		buf += len - CABLECHECK_KEEP;
		len = CABLECHECK_KEEP;
	}
	keep = CABLECHECK_KEEP - len;
	if (in->nseen > keep) {
		memmove(in->seen, in->seen + in->nseen - keep, keep);
		in->nseen = keep;
	}
	memcpy(in->seen + in->nseen, buf, len);
	in->nseen += len;
	for (i = 0; i < cablecheck_cur->nprobes; i++) {
		pr = &cablecheck_cur->probes[i];
		tl = strlen(pr->tag);
		if (memmem(in->seen, in->nseen, pr->tag, tl) == NULL)
			continue;
		dup = 0;
		json_array_foreach(pr->heard, j, v)
			if (strcmp(json_string_value(v), p->name) == 0)
				dup = 1;
		if (!dup)
			json_array_append_new(pr->heard, json_string(p->name));
	}
}

/*
 * Say why a port is not checked, or NULL if it can be.  An exec: port is
 * an entry's program, not a cable: a banner would be its input.
 */
static json_t *
cablecheck_skip(struct port *p)
{
	if (p->addr.kind == ADDR_EXEC)
		return (json_pack("{ss ss}", "port", p->name, "skipped",
		    "an entry program (exec:), no cable"));
	if (link_of(p) != NULL)
		return (json_pack("{ss ss ss}", "port", p->name, "skipped",
		    "in a link: disconnect it first", "link", link_of(p)->name));
	if (p->state != PORT_UP)
		return (json_pack("{ss ss ss ss}", "port", p->name, "skipped",
		    "not up", "state", port_state_name(p->state), "error",
		    p->error));
	return (NULL);
}

/*
 * Start a cable check of the named ports (a JSON array of names, or NULL
 * for every port): write the banners and wait for echoes.  Returns the
 * reply, {"check": ID, "ports": [...], "skipped": [...], "window_ms": N},
 * the outcome following as a "cablecheck" event; NULL with a message.
 */
json_t *
cablecheck_start(const json_t *names, int window_ms, char *err,
    size_t errlen)
{
	struct cablecheck	*cc;
	struct cablecheck_probe	*pr;
	struct port		*p, **todo;
	struct timeval		 tv;
	json_t			*skipped, *probed, *v, *why;
	char			 banner[MUXD_ERRLEN + 128];
	const char		*where;
	size_t			 i, n = 0;
	int			 len;

	if (cablecheck_cur != NULL) {
		snprintf(err, errlen, "cable check %d is still running",
		    cablecheck_cur->id);
		return (NULL);
	}
	if (window_ms <= 0)
		window_ms = CABLECHECK_WINDOW_MS;
	if (window_ms > 60000)
		window_ms = 60000;
	todo = xcalloc(CABLECHECK_MAXPORTS, sizeof(*todo));
	skipped = json_array();
	if (names != NULL && json_array_size(names) > 0) {
		json_array_foreach(names, i, v) {
			if (!json_is_string(v) ||
			    (p = port_find(json_string_value(v))) == NULL) {
				snprintf(err, errlen, "no port named %s",
				    json_is_string(v) ? json_string_value(v) :
				    "(not a string)");
				goto fail;
			}
			if ((why = cablecheck_skip(p)) != NULL)
				json_array_append_new(skipped, why);
			else if (n < CABLECHECK_MAXPORTS)
				todo[n++] = p;
		}
	} else {
		TAILQ_FOREACH(p, &ports, entry) {
			if ((why = cablecheck_skip(p)) != NULL)
				json_array_append_new(skipped, why);
			else if (n < CABLECHECK_MAXPORTS)
				todo[n++] = p;
		}
	}
	if (n == 0) {
		snprintf(err, errlen, "no port to check: every port named is "
		    "down or in a link");
		goto fail;
	}
	cc = xcalloc(1, sizeof(*cc));
	cc->probes = xcalloc(n, sizeof(*cc->probes));
	cc->id = ++cablecheck_ids;
	cc->nprobes = n;
	cablecheck_cur = cc;
	if (tap_register(cablecheck_tap, cc) == -1) {
		cablecheck_free(cc);
		snprintf(err, errlen, "cable check: too many byte observers");
		goto fail;
	}
	probed = json_array();
	for (i = 0; i < n; i++) {
		pr = &cc->probes[i];
		pr->port = todo[i];
		pr->name = xstrdup(todo[i]->name);
		pr->heard = json_array();
		snprintf(pr->tag, sizeof(pr->tag), "cable check %d.%zu:",
		    cc->id, i + 1);
		where = todo[i]->addr.kind == ADDR_FTDI ? ", ftdi:" :
		    todo[i]->addr.path != NULL ? ", " : "";
		len = snprintf(banner, sizeof(banner), "\r\n[muxd %s this "
		    "line is port %s%s%s]\r\n", pr->tag, pr->name, where,
		    todo[i]->addr.kind == ADDR_FTDI ? todo[i]->addr.serial :
		    todo[i]->addr.path != NULL ? todo[i]->addr.path : "");
		port_send(todo[i], (const unsigned char *)banner,
		    (size_t)len < sizeof(banner) ? (size_t)len :
		    sizeof(banner) - 1);
		json_array_append_new(probed, json_string(pr->name));
	}
	free(todo);
	if ((cc->timer = evtimer_new(muxd_base, cablecheck_done, cc)) == NULL)
		fatalx("cable check: cannot allocate a timer");
	tv.tv_sec = window_ms / 1000;
	tv.tv_usec = (window_ms % 1000) * 1000;
	evtimer_add(cc->timer, &tv);
	log_info("cable check %d: banners on %zu ports", cc->id, n);
	return (json_pack("{si so so si}", "check", cc->id, "ports", probed,
	    "skipped", skipped, "window_ms", window_ms));

fail:
	free(todo);
	json_decref(skipped);
	return (NULL);
}

/*
 * The wait is over: tell what came back where, as one "cablecheck" event:
 * for each port checked, "loopback" (its banner came back on itself),
 * "cabled" (on other ports, named in "heard_on") or "silent".
 */
static void
cablecheck_done(evutil_socket_t fd, short what, void *arg)
{
	struct cablecheck	*cc = arg;
	struct cablecheck_probe	*pr;
	json_t			*results, *v;
	const char		*verdict;
	size_t			 i, j;
	int			 self;

	(void)fd;
	(void)what;
	results = json_array();
	for (i = 0; i < cc->nprobes; i++) {
		pr = &cc->probes[i];
		self = 0;
		json_array_foreach(pr->heard, j, v)
			if (strcmp(json_string_value(v), pr->name) == 0)
				self = 1;
		if (json_array_size(pr->heard) == 0)
			verdict = "silent";
		else if (self && json_array_size(pr->heard) == 1)
			verdict = "loopback";
		else
			verdict = "cabled";
		log_info("cable check %d: port %s: %s", cc->id, pr->name,
		    verdict);
		json_array_append_new(results, json_pack("{ss ss sO}", "port",
		    pr->name, "result", verdict, "heard_on", pr->heard));
	}
	events_post(PROTOCOL_EV_CABLECHECK, json_pack("{si so}", "check", cc->id,
	    "results", results));
	cablecheck_free(cc);
}

/* End a cable check and free it. */
static void
cablecheck_free(struct cablecheck *cc)
{
	size_t	i;

	tap_unregister(cablecheck_tap, cc);
	if (cc->timer != NULL)
		event_free(cc->timer);
	for (i = 0; i < cc->nprobes; i++) {
		free(cc->probes[i].name);
		json_decref(cc->probes[i].heard);
	}
	free(cc->probes);
	if (cablecheck_cur == cc)
		cablecheck_cur = NULL;
	free(cc);
}
