/*
 * The contest rules on a link between a judge's terminal and an entity.
 *
 * From the judge: the 1996 terminal convention (judgeterm.c): muxd
 * prompts with ">" and echoes each keystroke itself, so every terminal
 * looks the same whoever is behind it; the entity gets exactly the
 * judge's keystrokes, line ends normalised, never an echo.  "@@nn" typed
 * by a judge is a judge change: a capture marker, and an alert when it
 * disagrees with the schedule.
 *
 * From the entity: control sequences a terminal would interpret are
 * removed (filter.c) and recorded; the first utterance to each judge is
 * checked against the opening assertion of 2004 rule 3 (assertion.c), as
 * early as the text allows; output that comes in bursts (conf->burst or
 * more characters within a millisecond) is counted against 2004 rule 5.
 *
 * Verdicts go to the watchers at once, to the link's capture as markers,
 * and to compliance.txt in the state directory; the assertion verdict of
 * each entity and judge pair is kept in the state file, so that only the
 * first interaction of a pair is checked, across rounds and restarts.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "muxd.h"

#define RULES_BURST_USEC	1000
#define RULES_VERDICTS_MAX	4096

struct rules {
	struct link		*link;
	struct judgeterm	 jt;
	struct filter		 filter;
	struct assertion	*assertion;	/* NULL: not checked here */
	enum assertion_verdict	 said;		/* last verdict announced */
	int			 convention;
	char			 entity[64];	/* its name */
	int			 judge;		/* from the schedule */
	int			 spoke;		/* the entity wrote something */
	struct timeval		 last;		/* time of its last chunk */
	size_t			 run;		/* its characters within 1 ms */
	int			 counted;	/* this run is a counted burst */
	uint64_t		 bursts;
	size_t			 longest;
	uint64_t		 chars;
};

struct rules_verdict {			/* one entity and judge pair */
	char			*entity;
	int			 judge;
	enum assertion_verdict	 verdict;
};

#define RULES_RETIRED_MAX	16

static struct assertion_pattern	*rules_pattern;
/* Patterns replaced by a reload, still used by the links made before. */
static struct assertion_pattern	*rules_retired[RULES_RETIRED_MAX];
static size_t			 rules_nretired;
static struct rules_verdict	 rules_verdicts[RULES_VERDICTS_MAX];
static size_t			 rules_nverdicts;

static void	rules_filtered(void *, const struct filter_span *);
static void	rules_report(struct rules *, int, const char *, const char *,
		    const char *, ...) __attribute__((format(printf, 5, 6)));
static void	rules_escape(const char *, char *, size_t);
static void	rules_assertion(struct rules *);
static void	rules_burst(struct rules *, size_t, const struct timeval *);
static void	rules_from_judge(struct rules *, const unsigned char *,
		    size_t);
static void	rules_from_entity(struct rules *, const unsigned char *,
		    size_t, const struct timeval *);
static struct rules_verdict *rules_verdict_find(const char *, int);
static void	rules_text(struct rules *, const char *, const unsigned char *,
		    size_t);

/* Compile the assertion pattern of the configuration; -1 with a reason. */
int
rules_configure(char *err, size_t errlen)
{
	struct assertion_pattern	*ap;

	if (muxd_conf == NULL)
		return (0);
	if ((ap = assertion_pattern_new(muxd_conf->pattern, 0, err, errlen)) ==
	    NULL)
		return (-1);
	if (rules_pattern != NULL) {
		if (rules_nretired == RULES_RETIRED_MAX) {
			assertion_pattern_free(ap);
			snprintf(err, errlen, "too many reloads with a new "
			    "assertion pattern; restart muxd");
			return (-1);
		}
		rules_retired[rules_nretired++] = rules_pattern;
	}
	rules_pattern = ap;
	return (0);
}

/* Free the patterns and verdicts, once every link has ended. */
void
rules_shutdown(void)
{
	size_t	i;

	for (i = 0; i < rules_nretired; i++)
		assertion_pattern_free(rules_retired[i]);
	rules_nretired = 0;
	if (rules_pattern != NULL)
		assertion_pattern_free(rules_pattern);
	rules_pattern = NULL;
	for (i = 0; i < rules_nverdicts; i++)
		free(rules_verdicts[i].entity);
	rules_nverdicts = 0;
}

/* Find the recorded verdict of an entity and judge pair. */
static struct rules_verdict *
rules_verdict_find(const char *entity, int judge)
{
	size_t	i;

	for (i = 0; i < rules_nverdicts; i++)
		if (rules_verdicts[i].judge == judge &&
		    strcmp(rules_verdicts[i].entity, entity) == 0)
			return (&rules_verdicts[i]);
	return (NULL);
}

/*
 * Apply the rules to a link that has just been made, when it joins a
 * station's terminal to an entity: announce the judge to the entity if it
 * wants that, and prompt the judge.
 */
void
rules_link_open(struct link *l)
{
	const struct conf_station	*st;
	const struct conf_entity	*en;
	struct judgeterm_out		 out;
	struct rules			*r;
	unsigned char			 buf[JUDGETERM_ANNOUNCEMAX];
	size_t				 n;

	if (muxd_conf == NULL || l->station < 0 || l->entity < 0 ||
	    rules_pattern == NULL)
		return;
	st = &muxd_conf->stations[l->station];
	en = &muxd_conf->entities[l->entity];
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("calloc");
	r->link = l;
	snprintf(r->entity, sizeof(r->entity), "%s", en->name);
	r->judge = st->judge;
	r->convention = muxd_conf->convention;
	judgeterm_init(&r->jt, st->localecho, (enum judgeterm_eol)en->eol);
	filter_init(&r->filter, !muxd_conf->filter, 0, rules_filtered, r);
	if (muxd_conf->assertion &&
	    rules_verdict_find(en->name, r->judge) == NULL &&
	    (r->assertion = assertion_new(rules_pattern, en->approved)) ==
	    NULL)
		fatal("assertion_new");
	l->rules = r;
	record_link_note(l, "judge %02d schedule", r->judge);
	if (en->announce &&
	    (n = judgeterm_announce(r->judge, (enum judgeterm_eol)en->eol,
	    buf, sizeof(buf))) > 0)
		port_send(l->b, buf, n);
	if (r->convention) {
		memset(&out, 0, sizeof(out));
		judgeterm_prompt(&r->jt, &out);
		if (out.necho > 0)
			port_send(l->a, out.echo, out.necho);
	}
}

/* End the rules of a link: the last verdicts, then free. */
void
rules_link_close(struct link *l)
{
	struct rules	*r = l->rules;

	if (r == NULL)
		return;
	filter_flush(&r->filter);
	if (r->assertion != NULL && r->spoke &&
	    !assertion_result(r->assertion)->final) {
		assertion_finish(r->assertion);
		rules_assertion(r);
	}
	if (r->chars > 0)
		rules_report(r, 1, "character", r->bursts > 0 ? "FAIL" : "PASS",
		    "character %s: %llu characters, %llu bursts of %d or more "
		    "within 1 ms, longest %zu", r->entity,
		    (unsigned long long)r->chars,
		    (unsigned long long)r->bursts, muxd_conf->burst,
		    r->longest);
	if (r->assertion != NULL)
		assertion_free(r->assertion);
	free(r);
	l->rules = NULL;
}

/*
 * Write text for a report in ASCII: bytes outside the printable range and
 * the backslash escaped, so that events, markers and compliance.txt all
 * take it as it is.
 */
static void
rules_escape(const char *src, char *dst, size_t len)
{
	const unsigned char	*s = (const unsigned char *)src;
	size_t			 k = 0;

	for (; *s != '\0' && k + 5 < len; s++) {
		if (*s >= 0x20 && *s < 0x7f && *s != '\\')
			dst[k++] = *s;
		else
			k += snprintf(dst + k, len - k, *s == '\\' ? "\\\\" :
			    "\\x%02x", *s);
	}
	dst[k] = '\0';
}

/*
 * Report a verdict of a kind ("assertion", "character"): to the watchers
 * at once and, when it is final, to the link's capture and the compliance
 * file.  The text starts with the kind and the entity.
 */
static void
rules_report(struct rules *r, int final, const char *kind,
    const char *verdict, const char *fmt, ...)
{
	char		 text[512], path[1024], stamp[32], up[16];
	struct link	*l = r->link;
	time_t		 now = time(NULL);
	struct tm	 tm;
	va_list		 ap;
	size_t		 i;
	int		 fd, n;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (i = 0; verdict[i] != '\0' && i < sizeof(up) - 1; i++)
		up[i] = toupper((unsigned char)verdict[i]);
	up[i] = '\0';
	verdict = up;
	log_info("verdict %s judge %02d link %s: %s", verdict, r->judge,
	    l->name, text);
	control_event("verdict", json_pack("{sssssiss si sb ss ss}", "verdict",
	    verdict, "link", l->name, "judge", r->judge, "what", text,
	    "round", l->round, "final", final, "kind", kind, "entity",
	    r->entity));
	if (!final)
		return;
	record_link_note(l, "verdict %s judge %02d %s", verdict, r->judge,
	    text);
	snprintf(path, sizeof(path), "%s/compliance.txt",
	    muxd_conf->state_dir);
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
	    0640)) == -1) {
		log_warn("%s", path);
		return;
	}
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y/%m/%d %H:%M:%S", &tm);
	n = dprintf(fd, "%s round %d %s judge %02d %s %s\n", stamp, l->round,
	    l->name, r->judge, verdict, text);
	if (n < 0)
		log_warn("%s", path);
	close(fd);
}

/* Announce the assertion verdict when it changed, and keep a final one. */
static void
rules_assertion(struct rules *r)
{
	const struct assertion_result	*res = assertion_result(r->assertion);
	struct rules_verdict		*v;
	char				 text[ASSERTION_TEXTMAX * 4 + 1];

	if (res->verdict == r->said && !res->final)
		return;
	if (res->verdict == ASSERTION_PENDING) {
		/* A provisional FAIL taken back by backspaces. */
		if (r->said != ASSERTION_PENDING)
			rules_report(r, 0, "assertion", "pending",
			    "assertion %s withdrawn at byte %llu", r->entity,
			    (unsigned long long)res->offset);
		r->said = res->verdict;
		return;
	}
	r->said = res->verdict;
	rules_escape(res->text, text, sizeof(text));
	rules_report(r, res->final, "assertion",
	    assertion_verdict_name(res->verdict),
	    "assertion %s%s at byte %llu: \"%s\"%s%s", r->entity,
	    res->final ? "" : " (so far)", (unsigned long long)res->offset,
	    text, res->reason[0] != '\0' ? ": " : "", res->reason);
	if (!res->final)
		return;
	if (rules_nverdicts == RULES_VERDICTS_MAX)
		log_warnx("verdict of %s and judge %02d not kept: %d pairs "
		    "already", r->entity, r->judge, RULES_VERDICTS_MAX);
	else if (rules_verdict_find(r->entity, r->judge) == NULL) {
		v = &rules_verdicts[rules_nverdicts++];
		if ((v->entity = strdup(r->entity)) == NULL)
			fatal("strdup");
		v->judge = r->judge;
		v->verdict = res->verdict;
	}
	assertion_free(r->assertion);
	r->assertion = NULL;
	state_save_soon();
}

/* Record a removed control sequence. */
static void
rules_filtered(void *arg, const struct filter_span *sp)
{
	struct rules	*r = arg;

	record_link_note(r->link, "filter %s %s %zu bytes%s",
	    filter_kind_name(sp->kind), filter_end_name(sp->end), sp->len,
	    sp->passed ? " passed" : "");
	control_event("filter", json_pack("{sssssIsb}", "link", r->link->name,
	    "kind", filter_kind_name(sp->kind), "bytes", (json_int_t)sp->len,
	    "passed", sp->passed));
}

/*
 * Show referees the text of a conversation as it goes: the judge's
 * keystrokes and the entity's output as the judge gets it, each byte one
 * code point (ISO-8859-1), only when someone watches.
 */
static void
rules_text(struct rules *r, const char *who, const unsigned char *buf,
    size_t n)
{
	char	u[PORT_CHUNK * 2];
	size_t	i, k = 0;

	if (n == 0 || !control_watching())
		return;
	for (i = 0; i < n; i++) {
		if (buf[i] < 0x80)
			u[k++] = buf[i];
		else {
			u[k++] = 0xc0 | (buf[i] >> 6);
			u[k++] = 0x80 | (buf[i] & 0x3f);
		}
	}
	control_event("text", json_pack("{ss ss si ss ss#}", "link", r->link->name,
	    "entity", r->entity, "judge", r->judge, "who", who, "text", u,
	    (int)k));
}

/* Count the entity's output that comes faster than a typist could. */
static void
rules_burst(struct rules *r, size_t n, const struct timeval *tv)
{
	long long	gap;

	gap = (long long)(tv->tv_sec - r->last.tv_sec) * 1000000 +
	    (tv->tv_usec - r->last.tv_usec);
	if (r->chars > 0 && gap >= 0 && gap < RULES_BURST_USEC)
		r->run += n;
	else {
		r->run = n;
		r->counted = 0;
	}
	r->last = *tv;
	r->chars += n;
	if (r->run > r->longest)
		r->longest = r->run;
	if (!r->counted && r->run >= (size_t)muxd_conf->burst) {
		r->counted = 1;
		r->bursts++;
	}
}

/* Carry the judge's keystrokes: echo and prompt to the judge, keys on. */
static void
rules_from_judge(struct rules *r, const unsigned char *buf, size_t n)
{
	struct link		*l = r->link;
	struct judgeterm_out	 out;
	unsigned char		 echo[PORT_CHUNK * 8], keys[PORT_CHUNK * 2];
	size_t			 ne = 0, nk = 0, i;

	rules_text(r, "judge", buf, n);
	for (i = 0; i < n; i++) {
		judgeterm_byte(&r->jt, buf[i], &out);
		memcpy(echo + ne, out.echo, out.necho);
		ne += out.necho;
		memcpy(keys + nk, out.entity, out.nentity);
		nk += out.nentity;
		if (out.event != JUDGETERM_JUDGE)
			continue;
		record_link_note(l, "judge %02d typed", out.judge);
		if (out.judge != r->judge) {
			log_warnx("link %s: judge %02d typed at the station "
			    "of judge %02d", l->name, out.judge, r->judge);
			control_event("judge.mismatch", json_pack(
			    "{sssisi}", "link", l->name, "typed", out.judge,
			    "schedule", r->judge));
		}
	}
	/*
	 * The echo goes back to the port it came from: holding that port
	 * for its own queue would never be undone, so the echo queue is
	 * bounded by port_send's hard limit alone.
	 */
	if (ne > 0)
		port_send(l->a, echo, ne);
	if (nk > 0 && port_send(l->b, keys, nk) == 1)
		port_pause(l->a, 1);
}

/* Carry the entity's output: filtered, watched, checked, on to the judge. */
static void
rules_from_entity(struct rules *r, const unsigned char *buf, size_t n,
    const struct timeval *tv)
{
	struct link	*l = r->link;
	unsigned char	 out[PORT_CHUNK];
	size_t		 m, i;

	rules_burst(r, n, tv);
	m = filter_feed(&r->filter, buf, n, out);
	if (r->convention)
		judgeterm_screen(&r->jt, out, m);
	/* Blank output (line ends, spaces) is not yet an utterance. */
	for (i = 0; !r->spoke && i < m; i++)
		if (out[i] > 0x20 && out[i] != 0x7f)
			r->spoke = 1;
	rules_text(r, "entity", out, m);
	for (i = 0; r->assertion != NULL && i < m; i++)
		if (assertion_byte(r->assertion, out[i]))
			rules_assertion(r);
	if (m > 0 && port_send(l->a, out, m) == 1)
		port_pause(l->b, 1);
}

/* Pass bytes read from one end of a link with rules to the other end. */
void
rules_forward(struct link *l, struct port *src, const unsigned char *buf,
    size_t n, const struct timeval *tv)
{
	struct rules	*r = l->rules;
	size_t		 chunk;

	while (n > 0) {
		chunk = n < PORT_CHUNK ? n : PORT_CHUNK;
		if (src == l->a) {
			if (r->convention)
				rules_from_judge(r, buf, chunk);
			else {
				rules_text(r, "judge", buf, chunk);
				if (port_send(l->b, buf, chunk) == 1)
					port_pause(l->a, 1);
			}
		} else
			rules_from_entity(r, buf, chunk, tv);
		buf += chunk;
		n -= chunk;
	}
}

/* The recorded assertion verdicts, for the state file. */
json_t *
rules_verdicts_json(void)
{
	json_t	*a;
	size_t	 i;

	a = json_array();
	for (i = 0; i < rules_nverdicts; i++)
		json_array_append_new(a, json_pack("{sssiss}", "entity",
		    rules_verdicts[i].entity, "judge", rules_verdicts[i].judge,
		    "verdict",
		    assertion_verdict_name(rules_verdicts[i].verdict)));
	return (a);
}

/* Take the assertion verdicts back from the state file. */
void
rules_verdicts_load(json_t *a)
{
	json_t		*e;
	const char	*entity, *verdict;
	size_t		 i;
	int		 judge, k;

	json_array_foreach(a, i, e) {
		if (json_unpack(e, "{sssiss}", "entity", &entity, "judge",
		    &judge, "verdict", &verdict) == -1 ||
		    rules_nverdicts == RULES_VERDICTS_MAX ||
		    rules_verdict_find(entity, judge) != NULL)
			continue;
		for (k = ASSERTION_PASS; k <= ASSERTION_FAIL; k++)
			if (strcmp(verdict, assertion_verdict_name(k)) == 0)
				break;
		if (k > ASSERTION_FAIL)
			continue;
		rules_verdicts[rules_nverdicts].entity = strdup(entity);
		rules_verdicts[rules_nverdicts].judge = judge;
		rules_verdicts[rules_nverdicts].verdict = k;
		if (rules_verdicts[rules_nverdicts].entity != NULL)
			rules_nverdicts++;
	}
}
