/*
 * The auditor's checks of a capture's hash chain (cap-chain.c), its end
 * and its segments, alongside verify_capture()'s reading of its events.
 *
 * The chain is recomputed from the file's own bytes, a line at a time,
 * and compared at every seal: a seal that does not match locates a
 * change between it and the last seal that did, and the check goes on
 * from the seal's own head, so that each changed stretch is told once.
 * A capture muxd closed ends with the "seal ... end" line; one that does
 * not was cut short or left open by a crash.  A later segment's "resume"
 * marker names the segment before it, with its line count and head.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transcripts.h"

struct verify_chain {
	FILE			*f;
	char			*path;
	struct cap_chain	*chain;
	char			*buf;		/* getline's */
	size_t			 size;
	int64_t			 bytes;		/* of the whole lines fed */
	unsigned long		 sealed;	/* lines before the last good
						   seal, its own line included */
	unsigned long		 end;		/* line of the closing seal */
	long			 shift;		/* lines the seals count more */
	size_t			 nseal;
	int			 linkdown;	/* a link down marker was read */
	char			 downwhy[64];	/* the last one's reason */
	int			 resumed;	/* a resume marker was read */
};

static void	verify_chain_upto(struct verify_chain *, unsigned long);
static int	verify_chain_resume(struct verify_chain *,
		    struct verify_report *, const struct cap_event *);

/* Start checking the chain of a capture; NULL when out of memory. */
struct verify_chain *
verify_chain_open(const char *path)
{
	struct verify_chain	*v;

	if ((v = calloc(1, sizeof(*v))) == NULL)
		return (NULL);
	if ((v->path = strdup(path)) == NULL ||
	    (v->chain = cap_chain_new()) == NULL) {
		verify_chain_close(v);
		return (NULL);
	}
	v->f = fopen(path, "re");
	return (v);
}

/* Free a chain check. */
void
verify_chain_close(struct verify_chain *v)
{
	if (v == NULL)
		return;
	if (v->f != NULL)
		fclose(v->f);
	cap_chain_free(v->chain);
	free(v->buf);
	free(v->path);
	free(v);
}

/* Feed whole lines of the file to the chain until it has n of them. */
static void
verify_chain_upto(struct verify_chain *v, unsigned long n)
{
	ssize_t	len;

	while (v->f != NULL && cap_chain_lines(v->chain) < n) {
		if ((len = getline(&v->buf, &v->size, v->f)) <= 0 ||
		    v->buf[len - 1] != '\n')
			return;		/* a torn last line is not chained */
		cap_chain_feed(v->chain, v->buf, (size_t)len);
		v->bytes += len;
	}
}

/*
 * Check a "resume PREVIOUS LINES HEAD" marker against the segment it
 * names, beside this one: its first LINES lines must give HEAD, and it
 * must not have grown since.
 */
static int
verify_chain_resume(struct verify_chain *v, struct verify_report *rep,
    const struct cap_event *ev)
{
	unsigned char	 want[CAP_CHAIN_BYTES], got[CAP_CHAIN_BYTES];
	char		 name[CAP_MARKER_MAX], hex[CAP_CHAIN_HEX], *prev;
	const char	*s;
	unsigned long	 lines, have;
	int64_t		 bytes;
	struct cap_error e;
	int		 rv;

	v->resumed = 1;
	if (ev->len >= sizeof(name) || sscanf((const char *)ev->data,
	    "resume %255s %lu %64s", name, &lines, hex) != 3 ||
	    strchr(name, '/') != NULL || cap_chain_unhex(hex, want) == -1)
		return (verify_add(rep, VERIFY_SEAL, ev->line, ev->offset,
		    "a resume marker that does not read: \"%.60s\"",
		    (const char *)ev->data));
	s = strrchr(v->path, '/');
	if (asprintf(&prev, "%.*s%s", s != NULL ? (int)(s - v->path + 1) : 0,
	    v->path, name) == -1)
		return (-1);
	if (cap_chain_file(prev, lines, got, &have, &bytes, &e) != CAP_OK) {
		rv = verify_add(rep, VERIFY_NOTE, ev->line, ev->offset,
		    "the previous segment %s is not here to compare: %s",
		    name, e.msg);
		free(prev);
		return (rv);
	}
	free(prev);
	if (have < lines)
		return (verify_add(rep, VERIFY_SEAL, ev->line, ev->offset,
		    "the previous segment %s has %lu lines, %lu when this one "
		    "began: it was cut short", name, have, lines));
	if (memcmp(want, got, CAP_CHAIN_BYTES) != 0)
		return (verify_add(rep, VERIFY_SEAL, ev->line, ev->offset,
		    "the previous segment %s is not the one this one resumed "
		    "(its first %lu lines hash otherwise): it was changed",
		    name, lines));
	if (have > lines)
		return (verify_add(rep, VERIFY_SEAL, ev->line, ev->offset,
		    "the previous segment %s grew by %lu lines after this one "
		    "began", name, have - lines));
	return (0);
}

/*
 * Check an event as the reader gives it, in order: a seal against the
 * chain of the lines before it, a resume marker against the segment it
 * names.  -1 when out of memory.
 */
int
verify_chain_event(struct verify_chain *v, struct verify_report *rep,
    const struct cap_event *ev)
{
	unsigned char	 head[CAP_CHAIN_BYTES];
	unsigned long	 lines, before = ev->line - 1;
	int		 end, rv;

	if (v->end != 0 && verify_add(rep, VERIFY_SEAL, ev->line, ev->offset,
	    "an event after the closing seal at line %lu", v->end) == -1)
		return (-1);
	if (ev->kind != CAP_MARKER)
		return (0);
	if (ev->len >= 9 && memcmp(ev->data, "link down", 9) == 0) {
		v->linkdown = 1;
		snprintf(v->downwhy, sizeof(v->downwhy), "%.*s", ev->len > 10 ?
		    (int)(ev->len - 10) : 0, ev->len > 10 ?
		    (const char *)ev->data + 10 : "");
	}
	if (ev->len > 7 && memcmp(ev->data, "resume ", 7) == 0)
		return (verify_chain_resume(v, rep, ev));
	/* A crash recovered ends the link as its link down would. */
	if (ev->len >= 5 && memcmp(ev->data, "crash", 5) == 0 &&
	    (ev->len == 5 || ev->data[5] == ' ')) {
		v->linkdown = 1;
		return (verify_add(rep, VERIFY_NOTE, ev->line, ev->offset,
		    "a crash recovered at line %lu: muxd died, the capture "
		    "was closed at its next start (\"%.*s\")", ev->line,
		    (int)(ev->len > 80 ? 80 : ev->len), ev->data));
	}
	if ((rv = cap_chain_seal_parse(ev->data, ev->len, &lines, head,
	    &end)) == 0)
		return (0);
	v->nseal++;
	if (rv == -1)
		return (verify_add(rep, VERIFY_SEAL, ev->line, ev->offset,
		    "a seal that does not read: \"%.60s\"",
		    (const char *)ev->data));
	verify_chain_upto(v, before);
	rv = 0;
	if ((long)(lines - before) != v->shift) {
		rv = verify_add(rep, VERIFY_SEAL, ev->line, ev->offset, "the "
		    "seal is for %lu lines, %lu come before it: lines were "
		    "removed or inserted after line %lu", lines - v->shift,
		    before, v->sealed);
		v->shift = (long)(lines - before);
	}
	else if (memcmp(head, cap_chain_head(v->chain), sizeof(head)) != 0)
		rv = verify_add(rep, VERIFY_SEAL, ev->line, ev->offset, "the "
		    "chain breaks between line %lu and line %lu: an event "
		    "there was edited, removed, inserted or moved", v->sealed +
		    1, before);
	/* Go on from the seal's head, so that the next stretch stands alone. */
	if (cap_chain_lines(v->chain) == before)
		cap_chain_set(v->chain, head, before);
	v->sealed = ev->line;
	if (end)
		v->end = ev->line;
	return (rv);
}

/*
 * At the end of the capture: the lines after the last seal, the closing
 * seal (a capture left open by a crash is an event when the room's chain
 * sealed it as it was in a crash recovery manifest), the link down of a
 * link's capture; the head of the whole lines goes into the report.  -1
 * when out of memory.
 */
int
verify_chain_finish(struct verify_chain *v, struct verify_report *rep,
    const struct cap_meta *m, const struct verify_room *room)
{
	unsigned long	last;
	int		muxd, rv;

	verify_chain_upto(v, (unsigned long)-1);
	last = cap_chain_lines(v->chain);
	rep->chain_lines = last;
	rep->chain_bytes = v->bytes;
	memcpy(rep->chain_head, cap_chain_head(v->chain), CAP_CHAIN_BYTES);
	rep->sealed = v->end != 0;
	if (v->f == NULL)
		return (0);
	muxd = m->software != NULL && strncmp(m->software, "muxd ", 5) == 0;
	if (v->nseal == 0 && !muxd)
		return (verify_add(rep, VERIFY_NOTE, 0, -1, "not sealed "
		    "(written by %s)", m->software != NULL ? m->software :
		    "another program"));
	if (v->end == 0 && (rv = verify_room_unclosed(room, v->path, v->bytes,
	    rep, last)) != 0)
		return (rv == -1 ? -1 : 0);
	if (v->end == 0)
		return (verify_add(rep, VERIFY_END, last, -1, "no closing "
		    "seal: still being written, cut short, or muxd stopped "
		    "without closing it (a crash) after line %lu; %s", last,
		    v->sealed == 0 ? "none of its lines is sealed" :
		    v->sealed < last ? "the lines after the last seal are "
		    "chained but not sealed" : "all its lines are sealed"));
	if (m->segment > 0 && !v->resumed)
		return (verify_add(rep, VERIFY_SEAL, 0, -1, "segment %d has no "
		    "resume marker naming the segment before it", m->segment));
	if (m->station != NULL && !v->linkdown)
		return (verify_add(rep, VERIFY_END, v->end, -1, "the capture "
		    "of a link closes without its \"link down\" marker"));
	/* Closed at a round's stop or muxd's: a manifest came next. */
	if (strcmp(v->downwhy, "round stopped") == 0 ||
	    strcmp(v->downwhy, "muxd stopping") == 0)
		return (verify_room_closed(room, v->path, v->bytes, rep,
		    v->downwhy));
	return (0);
}
