/*
 * The control command "screens": each link's judge's screen so far, as
 * its transcript has it.  muxd keeps no screen of its own for this: the
 * link's capture is read again through the transcript's writer (the
 * convention code of "transcripts render"), with the final verdicts it
 * holds, so what a browser that arrives sees is the record.
 *
 * A long conversation's capture takes milliseconds to read, which the
 * bytes being forwarded must not wait for, so the reading is a thread's.
 * The loop notes what the reply needs of each link, and where its
 * capture ends as it is asked (control_screens_ask): the screen then
 * holds the events up to the "seq" the watchers were last given, and no
 * later one, as the live page relies on.  The thread reads and renders,
 * and the loop sends the reply when it comes back, through the function
 * control.c gave; the client's next requests wait for it.  One request at a time is with the
 * thread, the others queued; the thread never touches the loop's data.
 */
#include <sys/queue.h>
#include <sys/resource.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "muxd.h"
#include "../capture/capture.h"

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

/* A request: the loop's part (client, id) and the thread's. */
struct control_screens_job {
	STAILQ_ENTRY(control_screens_job) entry;
	uint64_t	 client;	/* control.c's number of the asker */
	json_t		*id;		/* the request's id: the loop's */
	control_screens_fn answer;	/* control.c's, for the reply */
	uint64_t	 seq;		/* the last event the watchers got */
	size_t		 max;		/* bytes of one screen */
	struct control_screens_link *links;
	size_t		 n;
	json_t		*result;	/* the thread's, then the loop's */
};
STAILQ_HEAD(control_screens_queue, control_screens_job);

/* Shared with the thread, under control_screens_lock. */
static pthread_mutex_t	 control_screens_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 control_screens_cond = PTHREAD_COND_INITIALIZER;
static struct control_screens_queue control_screens_todo =
    STAILQ_HEAD_INITIALIZER(control_screens_todo);
static struct control_screens_queue control_screens_done =
    STAILQ_HEAD_INITIALIZER(control_screens_done);
static int		 control_screens_stopping;

/* The loop's own. */
static pthread_t	 control_screens_thread;
static int		 control_screens_on;
static int		 control_screens_pipe[2] = { -1, -1 };
static struct event	*control_screens_ev;

static void	*control_screens_main(void *);
static void	 control_screens_back_cb(evutil_socket_t, short, void *);
static json_t	*control_screens_link(const struct control_screens_link *,
		    size_t, uint64_t);
static void	 control_screens_free(struct control_screens_job *);

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

/* Start the thread and its way back to the loop; -1 with a reason. */
static int
control_screens_start(char *err, size_t errlen)
{
	sigset_t	all, old;
	int		i, flags, e;

	if (pipe2(control_screens_pipe, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "screens: pipe: %s", strerror(errno));
		return (-1);
	}
	for (i = 0; i < 2; i++)
		if ((flags = fcntl(control_screens_pipe[i], F_GETFL)) == -1 ||
		    fcntl(control_screens_pipe[i], F_SETFL, flags |
		    O_NONBLOCK) == -1)
			fatal("screens: pipe");
	if ((control_screens_ev = event_new(muxd_base,
	    control_screens_pipe[0], EV_READ | EV_PERSIST,
	    control_screens_back_cb, NULL)) == NULL ||
	    event_add(control_screens_ev, NULL) == -1)
		fatalx("screens: cannot watch the thread");
	/* Signals are the loop's: the thread starts with them blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&control_screens_thread, NULL,
	    control_screens_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		event_free(control_screens_ev);
		control_screens_ev = NULL;
		close(control_screens_pipe[0]);
		close(control_screens_pipe[1]);
		control_screens_pipe[0] = control_screens_pipe[1] = -1;
		snprintf(err, errlen, "screens: cannot start a thread: %s",
		    strerror(e));
		return (-1);
	}
	control_screens_on = 1;
	return (0);
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
	size_t				 n = 0;

	if (json_unpack(req, "{s?s}", "link", &name) == -1) {
		snprintf(err, errlen, "screens takes \"link\": a link name");
		return (-1);
	}
	if (name != NULL && (one = link_find(name)) == NULL) {
		snprintf(err, errlen, "no link named %s", name);
		return (-1);
	}
	if (!control_screens_on && control_screens_start(err, errlen) == -1)
		return (-1);
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
		if (record_link_capture(l) != NULL &&
		    (w = record_link_writer(l)) != NULL) {
			sl->capture = xstrdup(record_link_capture(l));
			sl->end = cap_write_offset(w);
		}
	}
	pthread_mutex_lock(&control_screens_lock);
	STAILQ_INSERT_TAIL(&control_screens_todo, j, entry);
	pthread_cond_signal(&control_screens_cond);
	pthread_mutex_unlock(&control_screens_lock);
	return (0);
}

/* The thread: render each request's screens and hand it back. */
static void *
control_screens_main(void *arg)
{
	struct control_screens_job	*j;
	json_t				*list;
	size_t				 i;

	(void)arg;
	/* The lines first: the thread yields to the loop (nice 19). */
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
	pthread_mutex_lock(&control_screens_lock);
	for (;;) {
		while (STAILQ_EMPTY(&control_screens_todo) &&
		    !control_screens_stopping)
			pthread_cond_wait(&control_screens_cond,
			    &control_screens_lock);
		if (control_screens_stopping)
			break;
		j = STAILQ_FIRST(&control_screens_todo);
		STAILQ_REMOVE_HEAD(&control_screens_todo, entry);
		pthread_mutex_unlock(&control_screens_lock);
		list = json_array();
		for (i = 0; i < j->n; i++)
			json_array_append_new(list, control_screens_link(
			    &j->links[i], j->max, j->seq));
		j->result = json_pack("{so}", "links", list);
		pthread_mutex_lock(&control_screens_lock);
		STAILQ_INSERT_TAIL(&control_screens_done, j, entry);
		/* Wake the loop; a full pipe means it is woken already. */
		if (write(control_screens_pipe[1], "", 1) == -1)
			continue;
	}
	pthread_mutex_unlock(&control_screens_lock);
	return (NULL);
}

/* Requests are back from the thread: send their replies. */
static void
control_screens_back_cb(evutil_socket_t fd, short what, void *arg)
{
	struct control_screens_queue	 q = STAILQ_HEAD_INITIALIZER(q);
	struct control_screens_job	*j;
	char				 buf[64];

	(void)what;
	(void)arg;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	pthread_mutex_lock(&control_screens_lock);
	STAILQ_CONCAT(&q, &control_screens_done);
	pthread_mutex_unlock(&control_screens_lock);
	while ((j = STAILQ_FIRST(&q)) != NULL) {
		STAILQ_REMOVE_HEAD(&q, entry);
		j->answer(j->client, j->id, j->result);
		j->result = NULL;
		control_screens_free(j);
	}
}

/* Stop the thread; requests not answered are dropped with their clients. */
void
control_screens_stop(void)
{
	struct control_screens_job	*j;

	if (!control_screens_on)
		return;
	pthread_mutex_lock(&control_screens_lock);
	control_screens_stopping = 1;
	pthread_cond_signal(&control_screens_cond);
	pthread_mutex_unlock(&control_screens_lock);
	pthread_join(control_screens_thread, NULL);
	STAILQ_CONCAT(&control_screens_done, &control_screens_todo);
	while ((j = STAILQ_FIRST(&control_screens_done)) != NULL) {
		STAILQ_REMOVE_HEAD(&control_screens_done, entry);
		control_screens_free(j);
	}
	event_free(control_screens_ev);
	control_screens_ev = NULL;
	close(control_screens_pipe[0]);
	close(control_screens_pipe[1]);
	control_screens_pipe[0] = control_screens_pipe[1] = -1;
	control_screens_stopping = 0;
	control_screens_on = 0;
}

/* Free a request and what it holds. */
static void
control_screens_free(struct control_screens_job *j)
{
	size_t	i;

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
