/*
 * The control command "screens": each link's judge's screen so far, as
 * its transcript has it.  muxd keeps no screen of its own for this: the
 * link's capture is read again through the transcript's writer (the
 * convention code of "transcripts render"), with the final verdicts it
 * holds, so what a browser that arrives sees is the record.  That costs
 * a reading of the capture in muxd's loop: muxweb asks seldom.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "muxd.h"
#include "../capture/capture.h"

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
 * A link's judge's screen so far, as its transcript has it: the capture
 * read again through the transcript's writer (the convention code of
 * "transcripts render"), its last rows alone when there are more than
 * max bytes ("cut": the bytes left out before them).
 */
static json_t *
control_screens_link(const struct link *l, size_t max, uint64_t seq)
{
	const struct conf_entity *en = conf_entity_named(muxd_conf, l->entity);
	struct cap_reader	*r = NULL;
	struct tx_writer	*w = NULL;
	struct cap_event	 ev;
	struct cap_error	 e;
	enum cap_err		 rc;
	const char		*path, *text = NULL, *nl, *why = NULL;
	size_t			 len = 0, cut = 0;
	json_t			*o, *verdicts = json_array();

	if ((path = record_link_capture(l)) == NULL)
		why = "not recorded";
	else if (cap_read_open(path, &r, &e) != CAP_OK ||
	    tx_write_memopen(cap_read_meta(r), &w, &e) != CAP_OK)
		why = e.msg;
	else {
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
	    l->name, "station", l->station, "side", l->side == 0 ? "left" :
	    l->side == 1 ? "right" : NULL, "entity", l->entity, "kind",
	    en == NULL ? NULL : en->kind == CONF_ENTRY ? "entry" :
	    "confederate", "round", l->round, "capture", path, "screen",
	    text != NULL ? text + cut : "", text != NULL ? (int)(len - cut) :
	    0, "cut", (json_int_t)cut, "error", why, "verdicts", verdicts);
	/* The watchers' events up to this one are in the screen. */
	json_object_set_new(o, "seq", json_integer((json_int_t)seq));
	if (w != NULL)
		tx_write_free(w);
	if (r != NULL)
		cap_read_close(r);
	return (o);
}

/*
 * The screens of every link, or of the one "link" names: each as
 * control_screens_link has it, the reply kept under a control line's
 * length; seq is the last event the watchers were given.
 */
json_t *
control_screens(json_t *req, uint64_t seq, char *err, size_t errlen)
{
	struct link	*l, *one = NULL;
	const char	*name = NULL;
	json_t		*list;
	size_t		 n = 0;

	if (json_unpack(req, "{s?s}", "link", &name) == -1) {
		snprintf(err, errlen, "screens takes \"link\": a link name");
		return (NULL);
	}
	if (name != NULL && (one = link_find(name)) == NULL) {
		snprintf(err, errlen, "no link named %s", name);
		return (NULL);
	}
	TAILQ_FOREACH(l, &links, entry)
		n += one == NULL || l == one;
	list = json_array();
	/* Half the line a link: its text's escapes may double it. */
	TAILQ_FOREACH(l, &links, entry)
		if (one == NULL || l == one)
			json_array_append_new(list, control_screens_link(l,
			    (PROTOCOL_LINE_MAX - 4096) / 2 / n, seq));
	return (json_pack("{so}", "links", list));
}
