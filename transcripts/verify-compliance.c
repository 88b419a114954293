/*
 * The auditor's check of compliance.txt against the captures: every
 * final verdict muxd gives is written twice, as a "verdict VERDICT judge
 * NN TEXT" marker in the link's capture and as a line "DATE TIME round R
 * LINK judge NN VERDICT TEXT" of the state directory's compliance.txt.
 * Each line must have its marker in a capture of that round and link
 * (any segment), and each marker its line: a verdict added, removed or
 * rewritten in one place and not the other is found.  A marker is cut at
 * the longest marker (CAP_MARKER_MAX - 1 bytes); a line then matches on
 * what the marker kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transcripts.h"

static int	verify_verdict_match(const struct verify_verdict *, int,
		    const char *, int, const char *, const char *, size_t);

/*
 * Keep a verdict marker read in a capture (its text after "verdict ").
 * -1 when out of memory.
 */
int
verify_verdicts_add(struct verify_verdicts *vs, const struct cap_meta *m,
    const char *file, const struct cap_event *ev)
{
	struct verify_verdict	*v;
	size_t			 n;

	if (vs->n == vs->cap) {
		n = vs->cap == 0 ? 16 : vs->cap * 2;
		if ((v = reallocarray(vs->v, n, sizeof(*v))) == NULL)
			return (-1);
		vs->v = v;
		vs->cap = n;
	}
	v = &vs->v[vs->n];
	memset(v, 0, sizeof(*v));
	v->round = m->round;
	v->line = ev->line;
	v->cut = ev->len >= CAP_MARKER_MAX - 1;
	if ((v->link = strdup(m->title != NULL ? m->title : "")) == NULL ||
	    (v->text = strndup((const char *)ev->data + 8, ev->len - 8)) ==
	    NULL || (v->file = strdup(file)) == NULL) {
		free(v->link);
		free(v->text);
		return (-1);
	}
	vs->n++;
	return (0);
}

/* Free the verdicts kept. */
void
verify_verdicts_free(struct verify_verdicts *vs)
{
	size_t	i;

	for (i = 0; i < vs->n; i++) {
		free(vs->v[i].link);
		free(vs->v[i].text);
		free(vs->v[i].file);
	}
	free(vs->v);
	memset(vs, 0, sizeof(*vs));
}

/*
 * Tell whether a marker (text "VERDICT judge NN REST") is a line's:
 * round, link, judge, verdict and rest (len bytes of it).
 */
static int
verify_verdict_match(const struct verify_verdict *v, int round,
    const char *link, int judge, const char *verdict, const char *rest,
    size_t len)
{
	char	head[64];
	size_t	n, k;

	if (v->used || v->round != round || strcmp(v->link, link) != 0)
		return (0);
	n = (size_t)snprintf(head, sizeof(head), "%s judge %02d ", verdict,
	    judge);
	if (strncmp(v->text, head, n) != 0)
		return (0);
	k = strlen(v->text + n);
	if (v->cut)
		return (k <= len && strncmp(v->text + n, rest, k) == 0);
	return (k == len && strncmp(v->text + n, rest, k) == 0);
}

/*
 * Check a compliance file against the verdict markers kept from the
 * captures (each used at most once).  CAP_OK, or CAP_ENOMEM.
 */
enum cap_err
verify_compliance(const char *path, struct verify_verdicts *vs,
    struct verify_report *rep, struct cap_error *err)
{
	struct cap_error	 e;
	char			*text, *p, *nl, link[128], verdict[32];
	size_t			 len, i, rlen;
	unsigned long		 line = 0;
	int			 round, judge, k, found;

	if (cap_file_read(path, 64UL << 20, &text, &len, &e) != CAP_OK) {
		if (verify_add(rep, VERIFY_OPEN, 0, -1, "%s", e.msg) == -1)
			goto nomem;
		return (CAP_OK);
	}
	for (p = text; p < text + len; p = nl + 1) {
		line++;
		if ((nl = memchr(p, '\n', (size_t)(text + len - p))) == NULL)
			nl = text + len;
		*nl = '\0';
		k = 0;
		if (sscanf(p, "%*d/%*d/%*d %*d:%*d:%*d round %d %127s judge %d "
		    "%31s %n", &round, link, &judge, verdict, &k) != 4 ||
		    k == 0) {
			if (verify_add(rep, VERIFY_FORMAT, line, p - text,
			    "not a verdict line: \"%.60s\"", p) == -1)
				goto nomem;
			continue;
		}
		rlen = strlen(p + k);
		for (i = 0, found = 0; i < vs->n && !found; i++)
			if (verify_verdict_match(&vs->v[i], round, link, judge,
			    verdict, p + k, rlen))
				vs->v[i].used = found = 1;
		if (!found && verify_add(rep, VERIFY_COMPLIANCE, line, p - text,
		    "no capture of round %d link %s has the marker of this "
		    "verdict (%s judge %02d %.60s)", round, link, verdict,
		    judge, p + k) == -1)
			goto nomem;
	}
	for (i = 0; i < vs->n; i++)
		if (!vs->v[i].used && verify_add(rep, VERIFY_COMPLIANCE, 0, -1,
		    "the verdict marker at %s:%lu is not here: \"%.80s\"",
		    vs->v[i].file, vs->v[i].line, vs->v[i].text) == -1)
			goto nomem;
	free(text);
	return (CAP_OK);
nomem:
	free(text);
	cap_error_set(err, CAP_ENOMEM, path, 0, -1, "verify: out of memory");
	return (CAP_ENOMEM);
}
