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
 * Each machine reads the link's bytes in the entity's character set
 * (muxd.conf "charset"): ISO-8859-1, a character a byte, or UTF-8, where
 * a character of several bytes passes, is shown, erased and counted
 * whole.
 *
 * The room's assertion policy: "check" reports only; "inject" types the
 * assertion for the entity with the approved name, key by key with a
 * typing model (typing.c), at the start of its first interaction with
 * each judge, holding the entity's own output back meanwhile; "hold"
 * holds the entity's output back from the judge (hold.c) until the
 * assertion passes, then releases it with its own key timing, late by
 * the time the hold lasted.  After a final FAIL or NAME the output stays
 * held until a referee releases it (muxctl release), and is discarded,
 * with a count, if the link ends first; the capture has it all anyway.
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
#include "transcripts.h"

#define RULES_BURST_USEC	1000
#define RULES_VERDICTS_MAX	4096

struct rules {
	struct link		*link;
	struct judgeterm	 jt;
	struct view		 view;		/* the judge's screen */
	struct filter		 filter;
	struct assertion	*assertion;	/* NULL: not checked here */
	enum assertion_verdict	 said;		/* last verdict announced */
	int			 convention;
	enum cap_encoding	 charset;	/* the entity's */
	struct utf8		 text8[2];	/* utf-8: judge's, entity's text */
	char			 entity[64];	/* its name */
	int			 judge;		/* from the schedule */
	int			 spoke;		/* the entity wrote something */
	struct timeval		 last;		/* time of its last chunk */
	size_t			 run;		/* its characters within 1 ms */
	int			 counted;	/* this run is a counted burst */
	uint64_t		 bursts;
	size_t			 longest;
	uint64_t		 chars;
	uint64_t		 released;	/* characters that waited */
	enum conf_assert	 policy;
	struct hold		 hold;		/* inject, hold: held output */
	int			 holding;	/* hold is in use */
	struct event		*ev;		/* next injected key, release */
	char			 inject[ASSERTION_NAMEMAX + 64];
	size_t			 ninject;	/* inject: its length */
	size_t			 injected;	/* inject: its bytes typed */
	size_t			 keys;		/* inject: keys typed */
	struct typing		 typing;
};

struct rules_verdict {			/* one entity and judge pair */
	char			*entity;
	int			 judge;
	enum assertion_verdict	 verdict;
};

#define RULES_RETIRED_MAX	16

static const struct conf	*rules_conf;
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
static void	rules_escape_n(const unsigned char *, size_t, char *, size_t,
		    int);
static void	rules_assertion(struct rules *);
static void	rules_burst(struct rules *, const unsigned char *, size_t,
		    const struct timeval *, int);
static void	rules_to_judge(struct rules *, const unsigned char *,
		    size_t);
static void	rules_entity_out(struct rules *, const unsigned char *,
		    size_t, const struct timeval *, int);
static void	rules_hold_push(struct rules *, const unsigned char *, size_t,
		    const struct timeval *);
static void	rules_hold_end(struct rules *);
static void	rules_hold_start(struct rules *, const char *);
static void	rules_timer_cb(evutil_socket_t, short, void *);
static void	rules_arm(struct rules *, int64_t);
static void	rules_inject_key(struct rules *);
static void	rules_release_now(struct rules *, const char *);
static void	rules_pump(struct rules *);
static int64_t	rules_usec(const struct timeval *);
static void	rules_from_judge(struct rules *, const unsigned char *,
		    size_t);
static void	rules_from_entity(struct rules *, const unsigned char *,
		    size_t, const struct timeval *, int);
static struct rules_verdict *rules_verdict_find(const char *, int);
static void	rules_text(struct rules *, const char *, const unsigned char *,
		    size_t);

/*
 * Take the configuration in force (NULL in quick mode) and compile its
 * assertion pattern; -1 with a reason (the previous pattern stays).
 */
int
rules_configure(const struct conf *cf, char *err, size_t errlen)
{
	struct assertion_pattern	*ap;

	rules_conf = cf;
	if (rules_conf == NULL)
		return (0);
	if ((ap = assertion_pattern_new(rules_conf->pattern, rules_conf->utf8 ?
	    ASSERTION_UTF8 : 0, err, errlen)) == NULL)
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
	const char			*e;
	size_t				 n;

	if ((st = link_station(l, rules_conf)) == NULL ||
	    (en = link_entity(l, rules_conf)) == NULL || rules_pattern == NULL)
		return;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		fatal("calloc");
	r->link = l;
	snprintf(r->entity, sizeof(r->entity), "%s", en->name);
	r->judge = st->judge;
	r->convention = rules_conf->convention;
	r->policy = rules_conf->assertion;
	r->charset = (enum cap_encoding)en->charset;
	judgeterm_init(&r->jt, st->localecho, (enum judgeterm_eol)en->eol);
	judgeterm_charset(&r->jt, r->charset);
	/* What came before may have left the judge's cursor in mid-line. */
	judgeterm_cursor(&r->jt, !l->a->midline);
	view_init(&r->view);
	view_live(&r->view);
	view_charset(&r->view, r->charset);
	filter_init(&r->filter, !rules_conf->filter, 0, rules_filtered, r);
	filter_charset(&r->filter, r->charset);
	if (rules_conf->assertion &&
	    rules_verdict_find(en->name, r->judge) == NULL) {
		if ((r->assertion = assertion_new(rules_pattern,
		    en->approved)) == NULL)
			fatal("assertion_new");
		if (assertion_charset(r->assertion, r->charset) == -1)
			fatalx("entity %s: the assertion pattern is not "
			    "compiled for %s", en->name,
			    cap_encoding_name(r->charset));
	}
	l->rules = r;
	record_link_note(l, "judge %02d schedule", r->judge);
	if (r->assertion != NULL && (r->policy == CONF_ASSERT_INJECT ||
	    r->policy == CONF_ASSERT_HOLD))
		rules_hold_start(r, en->approved);
	/*
	 * A line the entity was sent by its last judge and never ended is
	 * ended now, so that nothing of it joins this conversation's first
	 * line (nor the announcement).
	 */
	if (l->b->midline) {
		e = judgeterm_eol_bytes((enum judgeterm_eol)en->eol);
		port_send(l->b, (const unsigned char *)e, strlen(e));
		record_link_note(l, "entity line ended for the last judge");
	}
	if (en->announce &&
	    (n = judgeterm_announce(r->judge, (enum judgeterm_eol)en->eol,
	    buf, sizeof(buf))) > 0)
		port_send(l->b, buf, n);
	if (r->convention) {
		memset(&out, 0, sizeof(out));
		judgeterm_prompt(&r->jt, &out);
		view_judge(&r->view, out.echo, out.necho);
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
	filter_finish(&r->filter);
	if (r->ev != NULL)
		event_free(r->ev);
	if (r->holding)
		rules_hold_end(r);
	/* An injection cut short is no verdict: it is typed again. */
	if (r->assertion != NULL && r->spoke && r->injected == r->ninject &&
	    !assertion_result(r->assertion)->final) {
		assertion_finish(r->assertion);
		rules_assertion(r);
	}
	if (r->chars > 0)
		rules_report(r, 1, "character", r->bursts > 0 ? "FAIL" : "PASS",
		    "character %s: %llu characters, %llu bursts of %d or more "
		    "within 1 ms, longest %zu, %llu released after a wait",
		    r->entity, (unsigned long long)r->chars,
		    (unsigned long long)r->bursts, rules_conf->burst,
		    r->longest, (unsigned long long)r->released);
	if (r->assertion != NULL)
		assertion_free(r->assertion);
	free(r);
	l->rules = NULL;
}

/*
 * End a link's hold: what it still keeps was never shown to the judge
 * and is discarded with a count.  Output whose recording waited for the
 * injection goes into the capture all the same, but as markers ("hold
 * unshown OFFSET BYTES", the bytes escaped), never as the entity's
 * output: the transcript holds only what the judge saw.
 */
static void
rules_hold_end(struct rules *r)
{
	struct link	*l = r->link;
	unsigned char	 buf[48];
	char		 esc[48 * 4 + 6];	/* rules_escape_n's room */
	int64_t		 next;
	size_t		 n, total = 0;

	if (l->deferred && r->hold.len > 0) {
		record_link_note(l, "hold discarded %zu bytes never shown to "
		    "the judge, as read:", r->hold.len);
		hold_release(&r->hold, 0);
		while ((n = hold_take(&r->hold, INT64_MAX, buf, sizeof(buf),
		    &next)) > 0) {
			rules_escape_n(buf, n, esc, sizeof(esc), 1);
			record_link_note(l, "hold unshown %zu %s", total, esc);
			total += n;
		}
	} else if ((total = hold_discard(&r->hold)) > 0)
		record_link_note(l, "hold discarded %zu bytes never shown to "
		    "the judge", total);
	if (total > 0)
		log_warnx("link %s: %zu bytes %s wrote were never shown to "
		    "judge %02d", l->name, total, r->entity, r->judge);
	hold_clear(&r->hold);
	r->holding = 0;
	l->deferred = 0;
}

/*
 * Write n bytes for a report in ASCII: bytes outside the printable range
 * and the backslash escaped (\\, \xNN), and the space too when the text
 * must be one word, so that events, markers and compliance.txt all take
 * it as it is.
 */
static void
rules_escape_n(const unsigned char *s, size_t n, char *dst, size_t len,
    int word)
{
	size_t	i, k = 0;

	for (i = 0; i < n && k + 5 < len; i++) {
		if (s[i] > (word ? 0x20 : 0x1f) && s[i] < 0x7f && s[i] != '\\')
			dst[k++] = (char)s[i];
		else
			k += snprintf(dst + k, len - k, s[i] == '\\' ? "\\\\" :
			    "\\x%02x", s[i]);
	}
	dst[k] = '\0';
}

/* Write a string for a report in ASCII (rules_escape_n). */
static void
rules_escape(const char *src, char *dst, size_t len)
{
	rules_escape_n((const unsigned char *)src, strlen(src), dst, len, 0);
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
	char		 text[512], path[1024], stamp[32], up[16], line[700];
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
	events_post(PROTOCOL_EV_VERDICT, json_pack("{sssssiss si sb ss ss}", "verdict",
	    verdict, "link", l->name, "judge", r->judge, "what", text,
	    "round", l->round, "final", final, "kind", kind, "entity",
	    r->entity));
	if (!final)
		return;
	record_link_note(l, "verdict %s judge %02d %s", verdict, r->judge,
	    text);
	snprintf(path, sizeof(path), "%s/compliance.txt",
	    rules_conf->state_dir);
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y/%m/%d %H:%M:%S", &tm);
	n = snprintf(line, sizeof(line), "%s round %d %s judge %02d %s %s\n",
	    stamp, l->round, l->name, r->judge, verdict, text);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = (int)strlen(line);
	/* One write(2) a verdict; a failure is a fault, told. */
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC, 0640)) == -1 || write(fd, line, (size_t)n) != n) {
		log_warn("%s: verdict not written", path);
		events_post(PROTOCOL_EV_FAULT, json_pack("{ssss+}", "what",
		    "compliance", "error", path, ": verdict not written"));
	}
	if (fd != -1)
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
	if (r->holding && r->policy == CONF_ASSERT_HOLD) {
		if (res->verdict == ASSERTION_PASS)
			rules_release_now(r, "assertion passed");
		else {
			log_warnx("link %s: %s's output stays held from judge "
			    "%02d: assertion %s", r->link->name, r->entity,
			    r->judge, assertion_verdict_name(res->verdict));
			events_post(PROTOCOL_EV_HOLD, json_pack("{ss ss si ss sI}",
			    "link", r->link->name, "entity", r->entity,
			    "judge", r->judge, "state", "kept", "bytes",
			    (json_int_t)r->hold.held));
		}
	}
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
	events_post(PROTOCOL_EV_FILTER, json_pack("{sssssIsb}", "link", r->link->name,
	    "kind", filter_kind_name(sp->kind), "bytes", (json_int_t)sp->len,
	    "passed", sp->passed));
}

/*
 * Show referees the text of a conversation as it goes: the judge's
 * keystrokes and the entity's output as the judge gets it, only when
 * someone watches.  ISO-8859-1: each byte one code point; UTF-8: each
 * character whole (read with a reader per side, so that one split over
 * reads is whole too), what is no character as U+FFFD.
 */
static void
rules_text(struct rules *r, const char *who, const unsigned char *buf,
    size_t n)
{
	char		 u[(PORT_CHUNK + FILTER_HELDMAX) * 3];
	struct utf8	*rd = &r->text8[*who == 'j' ? 0 : 1];
	size_t		 i, k = 0;

	if (n == 0 || !events_wanted(PROTOCOL_EV_TEXT))
		return;
	for (i = 0; i < n; i++) {
		if (r->charset == CAP_UTF8) {
			switch (utf8_byte(rd, buf[i])) {
			case UTF8_MORE:
				break;
			case UTF8_CHAR:
				memcpy(u + k, rd->b, rd->n);
				k += rd->n;
				break;
			case UTF8_CUT:
				i--;		/* read again */
				/* FALLTHROUGH */
			case UTF8_BAD:
				memcpy(u + k, "\xef\xbf\xbd", 3);
				k += 3;
				break;
			}
		} else if (buf[i] < 0x80)
			u[k++] = buf[i];
		else {
			u[k++] = 0xc0 | (buf[i] >> 6);
			u[k++] = 0x80 | (buf[i] & 0x3f);
		}
	}
	if (k == 0)
		return;
	events_post(PROTOCOL_EV_TEXT, json_pack("{ss ss si ss ss#}", "link", r->link->name,
	    "entity", r->entity, "judge", r->judge, "who", who, "text", u,
	    (int)k));
}

/*
 * Count the entity's output that comes faster than a typist could, in
 * characters (filter_count: on UTF-8 a character of several bytes is
 * one, wherever the chunks split it).  A chunk that waited in the line
 * (the port was held back, or just came up again) says nothing of how it
 * was typed: it is counted apart and starts no run.
 */
static void
rules_burst(struct rules *r, const unsigned char *buf, size_t len,
    const struct timeval *tv, int waited)
{
	long long	gap;
	size_t		n = filter_count(&r->filter, buf, len);

	if (waited) {
		r->released += n;
		r->chars += n;
		r->run = 0;
		r->counted = 0;
		r->last = *tv;
		return;
	}
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
	if (!r->counted && r->run >= (size_t)rules_conf->burst) {
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
			events_post(PROTOCOL_EV_JUDGE_MISMATCH, json_pack(
			    "{sssisi}", "link", l->name, "typed", out.judge,
			    "schedule", r->judge));
		}
	}
	/*
	 * The echo goes back to the port it came from: holding that port
	 * for its own queue would never be undone, so the echo queue is
	 * bounded by port_send's hard limit alone.
	 */
	view_judge(&r->view, echo, ne);
	if (ne > 0)
		port_send(l->a, echo, ne);
	if (nk > 0 && port_send(l->b, keys, nk) == 1)
		port_pause(l->a, 1);
	/* The referees' text after the keys are on their way. */
	rules_text(r, "judge", buf, n);
}

/* Carry the entity's output: filtered, watched, checked, on to the judge. */
static void
rules_from_entity(struct rules *r, const unsigned char *buf, size_t n,
    const struct timeval *tv, int waited)
{
	rules_burst(r, buf, n, tv, waited);
	if (r->link->deferred)
		rules_hold_push(r, buf, n, tv);
	else
		rules_entity_out(r, buf, n, tv, 0);
}

/*
 * Filter the entity's output, show it to referees, check it, and send it
 * to the judge, or hold it back (policy hold) unless released is set.
 */
static void
rules_entity_out(struct rules *r, const unsigned char *buf, size_t n,
    const struct timeval *tv, int released)
{
	unsigned char	 out[PORT_CHUNK + FILTER_HELDMAX];
	size_t		 m, i;

	m = filter_feed(&r->filter, buf, n, out);
	/* Blank output (line ends, spaces) is not yet an utterance. */
	for (i = 0; !r->spoke && i < m; i++)
		if (out[i] > 0x20 && out[i] != 0x7f)
			r->spoke = 1;
	if (m == 0)
		return;
	if (!r->holding || released)
		rules_to_judge(r, out, m);
	else
		rules_hold_push(r, out, m, tv);
	rules_text(r, "entity", out, m);
	/* An injected assertion is the utterance checked, not this. */
	for (i = 0; r->assertion != NULL && r->ninject == 0 && i < m; i++)
		if (assertion_byte(r->assertion, out[i]))
			rules_assertion(r);
}

/* Hold output back; past the hold's limit it is dropped and counted. */
static void
rules_hold_push(struct rules *r, const unsigned char *buf, size_t n,
    const struct timeval *tv)
{
	size_t	lost;

	if ((lost = hold_push(&r->hold, buf, n, rules_usec(tv))) > 0 &&
	    r->hold.dropped == lost) {
		log_warnx("link %s: %s holds %zu bytes; more is dropped, "
		    "and counted", r->link->name, r->entity, r->hold.limit);
		record_link_note(r->link, "hold full %zu bytes, dropping",
		    r->hold.limit);
	}
}

/*
 * Send the entity's output to the judge's screen as the screen shows it
 * (view.c, the machine export shows it with): each line end as CR LF,
 * an erase as BS SP BS of the entity's own characters, tabs as spaces,
 * on a line of its own.  A prompt the judge has not typed after is taken
 * back first, so the entity's text begins the line.  With the filter in
 * pass-through (rules filter = false) the room asked for the entity's
 * bytes as they are, control sequences and all: they go so.
 */
static void
rules_to_judge(struct rules *r, const unsigned char *buf, size_t n)
{
	static char		 screen[VIEW_OUTLEN(PORT_CHUNK)];
	struct link		*l = r->link;
	struct judgeterm_out	 out;
	size_t			 chunk, m;
	int			 full = 0;

	if (r->filter.passthrough) {
		if (r->convention)
			judgeterm_screen(&r->jt, buf, n);
		if (port_send(l->a, buf, n) == 1)
			port_pause(l->b, 1);
		return;
	}
	if (r->convention) {
		judgeterm_unprompt(&r->jt, &out);
		view_judge(&r->view, out.echo, out.necho);
		if (out.necho > 0)
			port_send(l->a, out.echo, out.necho);
	}
	while (n > 0) {
		chunk = n < PORT_CHUNK ? n : PORT_CHUNK;
		m = view_feed(&r->view, CAP_OUTPUT, buf, chunk, screen);
		if (r->convention)
			judgeterm_screen(&r->jt, (unsigned char *)screen, m);
		if (m > 0 && port_send(l->a, (unsigned char *)screen, m) == 1)
			full = 1;
		buf += chunk;
		n -= chunk;
	}
	if (full)
		port_pause(l->b, 1);
}

/* A time in microseconds. */
static int64_t
rules_usec(const struct timeval *tv)
{
	return ((int64_t)tv->tv_sec * 1000000 + tv->tv_usec);
}

/*
 * Hold the entity's output back from the judge until the assertion
 * passes (hold) or has been typed for it (inject); for inject, set the
 * text and arm the first key.
 */
static void
rules_hold_start(struct rules *r, const char *approved)
{
	char	err[128];
	int	n;

	hold_init(&r->hold, rules_conf->queue_limit);
	r->holding = 1;
	if ((r->ev = evtimer_new(muxd_base, rules_timer_cb, r)) == NULL)
		fatalx("link %s: cannot allocate a timer", r->link->name);
	if (r->policy != CONF_ASSERT_INJECT)
		return;
	/*
	 * The entity's own output waits, unfiltered, for the injected
	 * assertion, and is recorded as it reaches the judge: the capture
	 * and the transcript show the conversation the judge saw.
	 */
	r->link->deferred = 1;
	n = snprintf(r->inject, sizeof(r->inject), "Hello, my name is %s and "
	    "I am the human\r\n", approved);
	if (n < 0 || (size_t)n >= sizeof(r->inject))
		fatalx("entity %s: approved name too long", r->entity);
	r->ninject = n;
	if (typing_parse(rules_conf->typing, &r->typing, err, sizeof(err)) ==
	    -1)
		fatalx("rules: typing %s", err);
	typing_seed(&r->typing, (uint64_t)arc4random() << 32 | arc4random());
	rules_arm(r, (int64_t)typing_delay(&r->typing, '\n',
	    (unsigned char)r->inject[0]) * 1000);
}

/* Arm the link's timer usec from now. */
static void
rules_arm(struct rules *r, int64_t usec)
{
	struct timeval	tv;

	if (usec < 0)
		usec = 0;
	tv.tv_sec = usec / 1000000;
	tv.tv_usec = usec % 1000000;
	evtimer_add(r->ev, &tv);
}

/* The link's timer: the next injected key, or held output now due. */
static void
rules_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rules	*r = arg;

	(void)fd;
	(void)what;
	if (r->injected < r->ninject)
		rules_inject_key(r);
	else
		rules_pump(r);
}

/*
 * Type the next key of the injected assertion to the judge, as the
 * entity's output: checked, recorded in the capture and the transcript,
 * shown to referees.  After the last key the entity's own output, held
 * meanwhile, follows with its own timing.
 */
static void
rules_inject_key(struct rules *r)
{
	struct link		*l = r->link;
	struct timeval		 tv;
	const unsigned char	*key;
	size_t			 n = 1, i;

	key = (const unsigned char *)r->inject + r->injected;
	/* On UTF-8 a character of several bytes is one key. */
	if (r->charset == CAP_UTF8 && (i = utf8_len(key[0])) > 1 &&
	    i <= r->ninject - r->injected)
		n = i;
	r->injected += n;
	if (r->keys++ == 0) {
		record_link_note(l, "inject start %s", r->entity);
		events_post(PROTOCOL_EV_INJECT, json_pack("{ss ss si ss}", "link",
		    l->name, "entity", r->entity, "judge", r->judge, "state",
		    "start"));
	}
	muxd_time(&tv);
	record_link_output(l, key, n, &tv);
	r->spoke = 1;
	rules_text(r, "entity", key, n);
	rules_to_judge(r, key, n);
	for (i = 0; i < n; i++)
		if (r->assertion != NULL && assertion_byte(r->assertion, key[i]))
			rules_assertion(r);
	if (r->injected < r->ninject) {
		rules_arm(r, (int64_t)typing_delay(&r->typing, key[n - 1],
		    (unsigned char)r->inject[r->injected]) * 1000);
		return;
	}
	record_link_note(l, "inject done %zu keys", r->keys);
	events_post(PROTOCOL_EV_INJECT, json_pack("{ss ss si ss}", "link", l->name,
	    "entity", r->entity, "judge", r->judge, "state", "done"));
	rules_release_now(r, "assertion injected");
}

/* Let the held output go to the judge, each chunk as late as the first. */
static void
rules_release_now(struct rules *r, const char *why)
{
	struct timeval	tv;

	if (!r->holding || r->hold.state != HOLD_HOLDING)
		return;
	muxd_time(&tv);
	hold_release(&r->hold, rules_usec(&tv));
	log_info("link %s: %s's output released to judge %02d: %s, %llu "
	    "bytes held, %lld ms late", r->link->name, r->entity, r->judge,
	    why, (unsigned long long)r->hold.held,
	    (long long)(r->hold.delay / 1000));
	record_link_note(r->link, "hold released %llu bytes %lld ms late",
	    (unsigned long long)r->hold.held,
	    (long long)(r->hold.delay / 1000));
	events_post(PROTOCOL_EV_HOLD, json_pack("{ss ss si ss sI sI ss}", "link",
	    r->link->name, "entity", r->entity, "judge", r->judge, "state",
	    "released", "bytes", (json_int_t)r->hold.held, "delay_ms",
	    (json_int_t)(r->hold.delay / 1000), "why", why));
	rules_pump(r);
}

/* Send the held output that is due; arm the timer for the rest. */
static void
rules_pump(struct rules *r)
{
	unsigned char	buf[PORT_CHUNK];
	struct timeval	tv;
	int64_t		now, next;
	size_t		n;

	if (!r->holding)
		return;
	muxd_time(&tv);
	now = rules_usec(&tv);
	while ((n = hold_take(&r->hold, now, buf, sizeof(buf), &next)) > 0)
		if (r->link->deferred) {
			record_link_output(r->link, buf, n, &tv);
			rules_entity_out(r, buf, n, &tv, 1);
		} else
			rules_to_judge(r, buf, n);
	if (next >= 0 && next != INT64_MAX)
		rules_arm(r, next - now);
	else if (hold_open(&r->hold)) {
		hold_clear(&r->hold);
		r->holding = 0;
		r->link->deferred = 0;
	}
}

/* A referee lets a link's held output through; -1 with a reason. */
int
rules_release(struct link *l, char *err, size_t errlen)
{
	struct rules	*r = l->rules;

	if (r == NULL || !r->holding || r->hold.state != HOLD_HOLDING) {
		snprintf(err, errlen, "link %s holds nothing back", l->name);
		return (-1);
	}
	rules_release_now(r, "released by a referee");
	return (0);
}

/* Pass bytes read from one end of a link with rules to the other end. */
void
rules_forward(struct link *l, struct port *src, const unsigned char *buf,
    size_t n, const struct timeval *tv, int waited)
{
	struct rules	*r = l->rules;
	size_t		 chunk;

	while (n > 0) {
		chunk = n < PORT_CHUNK ? n : PORT_CHUNK;
		if (src == l->a) {
			if (r->convention)
				rules_from_judge(r, buf, chunk);
			else {
				if (port_send(l->b, buf, chunk) == 1)
					port_pause(l->a, 1);
				rules_text(r, "judge", buf, chunk);
			}
		} else
			rules_from_entity(r, buf, chunk, tv, waited);
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
