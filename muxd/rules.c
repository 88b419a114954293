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
 * The entity's output goes on its way to the judge in rules-entity.c:
 * filtered, checked, held back or let through by the room's assertion
 * policy, "check", "inject" or "hold"; what the judge's screen and the
 * referees get is drawn in rules-screen.c; the verdicts go to the
 * watchers, the capture and compliance.txt, and the pairs already
 * checked are kept (rules-verdict.c).  Each calls only the files named
 * after it: rules.c the three, rules-entity.c the screen's and the
 * verdicts', rules-screen.c neither.
 *
 * A link's bytes are recorded through record_link_bytes() alone: the
 * judge's as read, the entity's as read or, when the policy defers them
 * (inject), as the judge gets them (rules-entity.c).
 *
 * The buffers of a chunk's way (RULES_BUF) are static, not on the stack:
 * the loop is one thread and they never nest, and frames of tens of
 * kilobytes would put every call below them, for each byte forwarded, on
 * stack pages of their own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "muxd.h"
#include "rules.h"

#define RULES_BURST_USEC	1000

#define RULES_RETIRED_MAX	16

const struct conf		*rules_conf;
static struct assertion_pattern	*rules_pattern;
/* Patterns replaced by a reload, still used by the links made before. */
static struct assertion_pattern	*rules_retired[RULES_RETIRED_MAX];
static size_t			 rules_nretired;

static void	rules_filtered(void *, const struct filter_span *);
static void	rules_burst(struct rules *, const unsigned char *, size_t,
		    const struct timeval *, int);
static void	rules_from_judge(struct rules *, const unsigned char *,
		    size_t);
static void	rules_keys_seen(struct rules *, const unsigned char *,
		    size_t);
static void	rules_from_entity(struct rules *, const unsigned char *,
		    size_t, const struct timeval *, int);

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
	rules_verdict_free();
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

	if ((st = conf_station_named(rules_conf, l->station)) == NULL ||
	    (en = conf_entity_named(rules_conf, l->entity)) == NULL ||
	    rules_pattern == NULL)
		return;
	r = xcalloc(1, sizeof(*r));
	r->link = l;
	snprintf(r->entity, sizeof(r->entity), "%s", en->name);
	r->judge = st->judge;
	r->convention = rules_conf->convention;
	r->policy = rules_conf->assertion;
	r->charset = (enum cap_encoding)en->charset;
	judgeterm_init(&r->jt, st->localecho, (enum judgeterm_eol)en->eol);
	judgeterm_charset(&r->jt, r->charset);
	if (!r->convention)
		view_init(&r->jt.view, 0, TX_JUDGE_NONE, r->charset, 0, NULL,
		    NULL);
	/* A terminal of another charset: keys and screen converted. */
	judgeterm_terminal(&r->jt, (enum cap_encoding)st->charset);
	/* What came before may have left the judge's cursor in mid-line. */
	judgeterm_cursor(&r->jt, !l->a->midline);
	filter_init(&r->filter, !rules_conf->filter, 0, rules_filtered, r);
	filter_charset(&r->filter, r->charset);
	if (rules_conf->assertion &&
	    !rules_verdict_find(en->name, r->judge)) {
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
		rules_entity_hold(r, en->approved);
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
		rules_entity_end(r);
	/* An injection cut short is no verdict: it is typed again. */
	if (r->assertion != NULL && r->spoke && r->injected == r->ninject &&
	    !assertion_result(r->assertion)->final) {
		assertion_finish(r->assertion);
		rules_entity_assertion(r);
	}
	if (r->chars > 0)
		rules_verdict_report(r, 1, "character", r->bursts > 0 ?
		    "FAIL" : "PASS", "character %s: %llu characters, %llu "
		    "bursts of %d or more within 1 ms, longest %zu, %llu "
		    "released after a wait",
		    r->entity, (unsigned long long)r->chars,
		    (unsigned long long)r->bursts, rules_conf->burst,
		    r->longest, (unsigned long long)r->released);
	if (r->assertion != NULL)
		assertion_free(r->assertion);
	free(r);
	l->rules = NULL;
}

/* Record a removed control sequence. */
static void
rules_filtered(void *arg, const struct filter_span *sp)
{
	struct rules	*r = arg;

	record_link_note(r->link, "filter %s %s %zu bytes%s",
	    filter_kind_name(sp->kind), filter_end_name(sp->end), sp->len,
	    sp->passed ? " passed" : "");
	events_post(PROTOCOL_EV_FILTER, json_pack("{sssssIsb}", "link",
	    r->link->name, "kind", filter_kind_name(sp->kind), "bytes",
	    (json_int_t)sp->len, "passed", sp->passed));
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
	/* RULES_BUF */
	static unsigned char	 echo[PORT_CHUNK * 8], keys[PORT_CHUNK * 2];
	size_t			 ne = 0, nk = 0, i;

	for (i = 0; i < n; i++) {
		judgeterm_byte(&r->jt, buf[i], &out);
		if (ne + out.necho > sizeof(echo)) {
			port_send(l->a, echo, ne);
			ne = 0;
		}
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
	if (ne > 0)
		port_send(l->a, echo, ne);
	if (nk > 0 && port_send(l->b, keys, nk) == 1)
		link_flow_hold(l->a);
	/* The referees' text after the keys are on their way. */
	rules_screen_text(r, "judge", buf, n);
}

/* Follow keys the judge's terminal echoes itself (no convention). */
static void
rules_keys_seen(struct rules *r, const unsigned char *buf, size_t n)
{
	struct judgeterm_out	out;
	size_t			i;

	for (i = 0; i < n; i++)
		judgeterm_byte(&r->jt, buf[i], &out);
}

/* Carry the entity's output: filtered, watched, checked, on to the judge. */
static void
rules_from_entity(struct rules *r, const unsigned char *buf, size_t n,
    const struct timeval *tv, int waited)
{
	rules_burst(r, buf, n, tv, waited);
	if (r->link->deferred)
		rules_entity_push(r, buf, n, tv);
	else
		rules_entity_out(r, buf, n, tv, 0);
}


/* Pass bytes read from one end of a link with rules to the other end. */
void
rules_forward(struct link *l, struct port *src, const unsigned char *buf,
    size_t n, const struct timeval *tv, int waited)
{
	struct rules	*r = l->rules;
	size_t		 chunk;

	if (src == l->a || !l->deferred)
		record_link_bytes(l, src, buf, n, tv);
	while (n > 0) {
		chunk = n < PORT_CHUNK ? n : PORT_CHUNK;
		if (src == l->a) {
			if (r->convention)
				rules_from_judge(r, buf, chunk);
			else {
				rules_keys_seen(r, buf, chunk);
				if (port_send(l->b, buf, chunk) == 1)
					link_flow_hold(l->a);
				rules_screen_text(r, "judge", buf, chunk);
			}
		} else
			rules_from_entity(r, buf, chunk, tv, waited);
		buf += chunk;
		n -= chunk;
	}
}


