/*
 * The control command "screens": each link's judge's screen so far, as
 * its transcript has it.  muxd keeps no screen of its own for this: the
 * link's capture is read again through the transcript's writer (the
 * convention code of "transcripts render"), with the final verdicts it
 * holds, so what a browser that arrives sees is the record.
 *
 * A long conversation's capture takes milliseconds to read, which the
 * bytes being forwarded must not wait for, so the reading is a thread's
 * (worker.c, at nice 19).  The loop notes what the reply needs of each
 * link, and where its capture ends as it is asked (control_screens_ask):
 * the screen then holds the events up to the "seq" the watchers were
 * last given, and no later one, as the live page relies on.  The thread
 * reads and renders, and the loop sends the reply when it comes back,
 * through the function control.c gave; the client's next requests wait
 * for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "muxd.h"
#include "../capture/capture.h"

#define CONTROL_SCREENS_NICE	19

/* A link as the loop saw it when asked, copied for the thread. */
struct control_screens_link {
	char		*name;
	char		*station;	/* or NULL */
	const char	*side;		/* "left", "right" or NULL */
	char		*entity;	/* or NULL */
	const char	*kind;		/* "entry", "confederate" or NULL */
	int		 round;
	char		*capture;	/* NULL: not recorded */
	int64_t		 end;		/* the capture's length when asked */
};

/* A request: the loop's part (client, id, answer) and the thread's. */
struct control_screens_job {
	struct worker_job job;		/* first: the worker's */
	uint64_t	 client;	/* control.c's number of the asker */
	json_t		*id;		/* the request's id: the loop's */
	control_screens_fn answer;	/* control.c's, for the reply */
	uint64_t	 seq;		/* the last event the watchers got */
	size_t		 max;		/* bytes of one screen */
	struct control_screens_link *links;
	size_t		 n;
	json_t		*result;	/* the thread's, then the loop's */
};

static struct worker	*control_screens_worker;

static json_t	*control_screens_link(const struct control_screens_link *,
		    size_t, uint64_t);
static void	 control_screens_run(struct worker_job *);
static void	 control_screens_back(struct worker_job *);
static void	 control_screens_free(struct worker_job *);

/*
 * A capture's marker, if it is a final verdict ("verdict PASS judge 07
 * assertion E1 ..."), onto a screen's verdicts as the watchers' verdict
 * events have them: {"verdict", "kind", "final": true}.
 */
static void
control_screens_verdict(json_t *verdicts, const unsigned char *p, size_t n)
{
	char	text[CAP_MARKER_MAX], verdict[16], kind[32];
	int	judge;

	if (n >= sizeof(text) || n < 8 || memcmp(p, "verdict ", 8) != 0)
		return;
	memcpy(text, p, n);
	text[n] = '\0';
	if (sscanf(text, "verdict %15s judge %d %31s", verdict, &judge,
	    kind) != 3)
		return;
	json_array_append_new(verdicts, json_pack("{ss ss sb}", "verdict",
	    verdict, "kind", kind, "final", 1));
}

/*
 * A link's judge's screen so far, as its transcript has it, in the
 * thread: the capture, as far as it was when asked, read again through
 * the transcript's writer, its last rows alone when there are more than
 * max bytes ("cut": the bytes left out before them).
 */
static json_t *
control_screens_link(const struct control_screens_link *sl, size_t max,
    uint64_t seq)
{
	struct cap_reader	*r = NULL;
	struct tx_writer	*w = NULL;
	struct cap_event	 ev;
	struct cap_error	 e;
	enum cap_err		 rc;
	const char		*text = NULL, *nl, *why = NULL;
	size_t			 len = 0, cut = 0;
	json_t			*o, *verdicts = json_array();

	if (sl->capture == NULL)
		why = "not recorded";
	else if (cap_read_open(sl->capture, &r, &e) != CAP_OK ||
	    tx_write_memopen(cap_read_meta(r), &w, &e) != CAP_OK)
		why = e.msg;
	else {
		cap_read_set_end(r, sl->end);
		while ((rc = cap_read_event(r, &ev, &e)) != CAP_EOF &&
		    rc != CAP_ESYS && rc != CAP_ENOMEM) {
			if (rc != CAP_OK)
				continue;
			if (ev.kind == CAP_MARKER)
				control_screens_verdict(verdicts, ev.data,
				    ev.len);
			if (tx_write_event(w, ev.kind, ev.data, ev.len,
			    ev.usec, &e) != CAP_OK)
				break;
		}
		if (tx_write_finish(w, &e) != CAP_OK ||
		    (text = tx_write_buffer(w, &len)) == NULL)
			why = e.msg;
	}
	if (text != NULL && len > max) {
		cut = len - max;
		if ((nl = memchr(text + cut, '\n', len - cut)) != NULL)
			cut = (size_t)(nl + 1 - text);
	}
	o = json_pack("{ss ss? ss? ss? ss? si ss? ss# sI ss? so}", "link",
	    sl->name, "station", sl->station, "side", sl->side, "entity",
	    sl->entity, "kind", sl->kind, "round", sl->round, "capture",
	    sl->capture, "screen", text != NULL ? text + cut : "",
	    text != NULL ? (int)(len - cut) : 0, "cut", (json_int_t)cut,
	    "error", why, "verdicts", verdicts);
	/* The watchers' events up to this one are in the screen. */
	json_object_set_new(o, "seq", json_integer((json_int_t)seq));
	if (w != NULL)
		tx_write_free(w);
	if (r != NULL)
		cap_read_close(r);
	return (o);
}

/*
 * Take a request for the screens of every link, or of the one "link"
 * names, from the control client numbered client (its id kept for the
 * reply), seq the last event the watchers were given: 0 once handed to
 * the thread (answer then gets the reply in the loop), -1 with a reason.
 * Each screen is kept to its share of half a control line: its text's
 * escapes may double it.
 */
int
control_screens_ask(control_screens_fn answer, uint64_t client, json_t *id,
    json_t *req, uint64_t seq, char *err, size_t errlen)
{
	const struct conf_entity	*en;
	struct control_screens_job	*j;
	struct control_screens_link	*sl;
	struct link			*l, *one = NULL;
	const struct cap_writer		*w;
	const char			*name = NULL;
	char				 why[MUXD_ERRLEN];
	size_t				 n = 0;

	if (json_unpack(req, "{s?s}", "link", &name) == -1) {
		snprintf(err, errlen, "screens takes \"link\": a link name");
		return (-1);
	}
	if (name != NULL && (one = link_find(name)) == NULL) {
		snprintf(err, errlen, "no link named %s", name);
		return (-1);
	}
	if (control_screens_worker == NULL &&
	    (control_screens_worker = worker_start(CONTROL_SCREENS_NICE,
	    control_screens_run, control_screens_back, why,
	    sizeof(why))) == NULL) {
		snprintf(err, errlen, "screens: the reading thread: %s", why);
		log_warnx("control: %s", err);
		return (-1);
	}
	TAILQ_FOREACH(l, &links, entry)
		n += one == NULL || l == one;
	j = xcalloc(1, sizeof(*j));
	j->answer = answer;
	j->client = client;
	j->id = id != NULL ? json_incref(id) : NULL;
	j->seq = seq;
	j->max = (PROTOCOL_LINE_MAX - 4096) / 2 / (n > 0 ? n : 1);
	j->links = xcalloc(n > 0 ? n : 1, sizeof(*j->links));
	TAILQ_FOREACH(l, &links, entry) {
		if (one != NULL && l != one)
			continue;
		sl = &j->links[j->n++];
		en = conf_entity_named(muxd_conf, l->entity);
		sl->name = xstrdup(l->name);
		sl->station = l->station != NULL ? xstrdup(l->station) : NULL;
		sl->side = l->side == 0 ? "left" : l->side == 1 ? "right" :
		    NULL;
		sl->entity = l->entity != NULL ? xstrdup(l->entity) : NULL;
		sl->kind = en == NULL ? NULL : en->kind == CONF_ENTRY ?
		    "entry" : "confederate";
		sl->round = l->round;
		if ((w = record_link_writer(l)) != NULL) {
			sl->capture = xstrdup(cap_write_path(w));
			sl->end = cap_write_offset(w);
		}
	}
	worker_put(control_screens_worker, &j->job);
	return (0);
}

/* The thread: render a request's screens. */
static void
control_screens_run(struct worker_job *wj)
{
	struct control_screens_job	*j = (struct control_screens_job *)wj;
	json_t				*list;
	size_t				 i;

	list = json_array();
	for (i = 0; i < j->n; i++)
		json_array_append_new(list, control_screens_link(&j->links[i],
		    j->max, j->seq));
	j->result = json_pack("{so}", "links", list);
}

/* A request is back from the thread: its reply goes out. */
static void
control_screens_back(struct worker_job *wj)
{
	struct control_screens_job	*j = (struct control_screens_job *)wj;

	j->answer(j->client, j->id, j->result);
	j->result = NULL;
	control_screens_free(wj);
}

/* Stop the thread; requests not answered are dropped with their clients. */
void
control_screens_stop(void)
{
	worker_stop(control_screens_worker, 0, control_screens_free);
	control_screens_worker = NULL;
}

/* Free a request and what it holds. */
static void
control_screens_free(struct worker_job *wj)
{
	struct control_screens_job	*j = (struct control_screens_job *)wj;
	size_t				 i;

	for (i = 0; i < j->n; i++) {
		free(j->links[i].name);
		free(j->links[i].station);
		free(j->links[i].entity);
		free(j->links[i].capture);
	}
	free(j->links);
	if (j->id != NULL)
		json_decref(j->id);
	if (j->result != NULL)
		json_decref(j->result);
	free(j);
}
