/*
 * The entity's output on its way to the judge (rules.c): filtered, shown
 * to referees, checked against the opening assertion, and held back or
 * let through by the room's assertion policy.  "check" lets it through;
 * "inject" types the opening assertion for the entity with the approved
 * name, key by key with a typing model (typing.c), at the start of its
 * first interaction with each judge, holding its own output back
 * meanwhile and recording it as it reaches the judge; "hold" holds the
 * output back (hold.c) until the assertion passes, then releases it with
 * its own key timing, late by the time the hold lasted.  After a final
 * FAIL or NAME the output stays held until a referee releases it (muxctl
 * release); what is still held when the link ends is discarded with a
 * count.  The assertion's verdict, which releases a hold, is taken here
 * too: it and the hold call each other.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "muxd.h"
#include "rules.h"

static void	rules_entity_timer_cb(evutil_socket_t, short, void *);
static void	rules_entity_arm(struct rules *, int64_t);
static void	rules_entity_inject_key(struct rules *);
static void	rules_entity_pump(struct rules *);
static int64_t	rules_entity_usec(const struct timeval *);
static void	rules_entity_release_now(struct rules *, const char *);

/* A time in microseconds. */
static int64_t
rules_entity_usec(const struct timeval *tv)
{
	return ((int64_t)tv->tv_sec * 1000000 + tv->tv_usec);
}

/*
 * Hold the entity's output back from the judge until the assertion
 * passes (hold) or has been typed for it (inject); for inject, set the
 * text and arm the first key.
 */
void
rules_entity_hold(struct rules *r, const char *approved)
{
	char	err[128];
	int	n;

	hold_init(&r->hold, rules_conf->queue_limit);
	r->holding = 1;
	if ((r->ev = evtimer_new(muxd_base, rules_entity_timer_cb, r)) == NULL)
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
	rules_entity_arm(r, (int64_t)typing_delay(&r->typing, '\n',
	    (unsigned char)r->inject[0]) * 1000);
}

/* Hold output back; past the hold's limit it is dropped and counted. */
void
rules_entity_push(struct rules *r, const unsigned char *buf, size_t n,
    const struct timeval *tv)
{
	size_t	lost;

	if ((lost = hold_push(&r->hold, buf, n, rules_entity_usec(tv))) > 0 &&
	    r->hold.dropped == lost) {
		log_warnx("link %s: %s holds %zu bytes; more is dropped, "
		    "and counted", r->link->name, r->entity, r->hold.limit);
		record_link_note(r->link, "hold full %zu bytes, dropping",
		    r->hold.limit);
	}
}

/*
 * End a link's hold: what it still keeps was never shown to the judge
 * and is discarded with a count.  Output whose recording waited for the
 * injection goes into the capture all the same, but as markers ("hold
 * unshown OFFSET BYTES", the bytes escaped), never as the entity's
 * output: the transcript holds only what the judge saw.
 */
void
rules_entity_end(struct rules *r)
{
	struct link	*l = r->link;
	unsigned char	 buf[48];
	char		 esc[48 * 4 + 6];	/* room for 48 escaped */
	int64_t		 next;
	size_t		 n, total = 0;

	if (l->deferred && r->hold.len > 0) {
		record_link_note(l, "hold discarded %zu bytes never shown to "
		    "the judge, as read:", r->hold.len);
		hold_release(&r->hold, 0);
		while ((n = hold_take(&r->hold, INT64_MAX, buf, sizeof(buf),
		    &next)) > 0) {
			rules_verdict_escape_n(buf, n, esc, sizeof(esc), 1);
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

/* Arm the link's timer usec from now. */
static void
rules_entity_arm(struct rules *r, int64_t usec)
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
rules_entity_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rules	*r = arg;

	(void)fd;
	(void)what;
	if (r->injected < r->ninject)
		rules_entity_inject_key(r);
	else
		rules_entity_pump(r);
}

/*
 * Type the next key of the injected assertion to the judge, as the
 * entity's output: checked, recorded in the capture and the transcript,
 * shown to referees.  After the last key the entity's own output, held
 * meanwhile, follows with its own timing.
 */
static void
rules_entity_inject_key(struct rules *r)
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
		events_post(PROTOCOL_EV_INJECT, json_pack("{ss ss si ss}",
		    "link", l->name, "entity", r->entity, "judge", r->judge,
		    "state", "start"));
	}
	port_time(&tv);
	record_link_bytes(l, l->b, key, n, &tv);
	r->spoke = 1;
	rules_screen_text(r, "entity", key, n);
	rules_screen_send(r, key, n);
	for (i = 0; i < n; i++)
		if (r->assertion != NULL && assertion_byte(r->assertion,
		    key[i]))
			rules_entity_assertion(r);
	if (r->injected < r->ninject) {
		rules_entity_arm(r, (int64_t)typing_delay(&r->typing, key[n - 1],
		    (unsigned char)r->inject[r->injected]) * 1000);
		return;
	}
	record_link_note(l, "inject done %zu keys", r->keys);
	events_post(PROTOCOL_EV_INJECT, json_pack("{ss ss si ss}", "link",
	    l->name, "entity", r->entity, "judge", r->judge, "state", "done"));
	rules_entity_release_now(r, "assertion injected");
}

/* Let the held output go to the judge, each chunk as late as the first. */
static void
rules_entity_release_now(struct rules *r, const char *why)
{
	struct timeval	tv;

	if (!r->holding || r->hold.state != HOLD_HOLDING)
		return;
	port_time(&tv);
	hold_release(&r->hold, rules_entity_usec(&tv));
	log_info("link %s: %s's output released to judge %02d: %s, %llu "
	    "bytes held, %lld ms late", r->link->name, r->entity, r->judge,
	    why, (unsigned long long)r->hold.held,
	    (long long)(r->hold.delay / 1000));
	record_link_note(r->link, "hold released %llu bytes %lld ms late",
	    (unsigned long long)r->hold.held,
	    (long long)(r->hold.delay / 1000));
	events_post(PROTOCOL_EV_HOLD, json_pack("{ss ss si ss sI sI ss}",
	    "link", r->link->name, "entity", r->entity, "judge", r->judge,
	    "state", "released", "bytes", (json_int_t)r->hold.held, "delay_ms",
	    (json_int_t)(r->hold.delay / 1000), "why", why));
	rules_entity_pump(r);
}

/* Send the held output that is due; arm the timer for the rest. */
static void
rules_entity_pump(struct rules *r)
{
	unsigned char	buf[PORT_CHUNK];
	struct timeval	tv;
	int64_t		now, next;
	size_t		n;

	if (!r->holding)
		return;
	port_time(&tv);
	now = rules_entity_usec(&tv);
	while ((n = hold_take(&r->hold, now, buf, sizeof(buf), &next)) > 0)
		if (r->link->deferred) {
			record_link_bytes(r->link, r->link->b, buf, n, &tv);
			rules_entity_out(r, buf, n, &tv, 1);
		} else
			rules_screen_send(r, buf, n);
	if (next >= 0 && next != INT64_MAX)
		rules_entity_arm(r, next - now);
	else if (hold_open(&r->hold)) {
		hold_clear(&r->hold);
		r->holding = 0;
		r->link->deferred = 0;
	}
}

/* A referee lets a link's held output through; -1 with a reason. */
int
rules_entity_release(struct link *l, char *err, size_t errlen)
{
	struct rules	*r = l->rules;

	if (r == NULL || !r->holding || r->hold.state != HOLD_HOLDING) {
		snprintf(err, errlen, "link %s holds nothing back", l->name);
		return (-1);
	}
	rules_entity_release_now(r, "released by a referee");
	return (0);
}

/*
 * Filter the entity's output, show it to referees, check it, and send it
 * to the judge, or hold it back (policy hold) unless released is set.
 */
void
rules_entity_out(struct rules *r, const unsigned char *buf, size_t n,
    const struct timeval *tv, int released)
{
	static unsigned char out[PORT_CHUNK + FILTER_HELDMAX];	/* RULES_BUF */
	size_t		 m, i;

	m = filter_feed(&r->filter, buf, n, out);
	/* Blank output (line ends, spaces) is not yet an utterance. */
	for (i = 0; !r->spoke && i < m; i++)
		if (out[i] > 0x20 && out[i] != 0x7f)
			r->spoke = 1;
	if (m == 0)
		return;
	if (!r->holding || released)
		rules_screen_send(r, out, m);
	else
		rules_entity_push(r, out, m, tv);
	rules_screen_text(r, "entity", out, m);
	/* An injected assertion is the utterance checked, not this. */
	for (i = 0; r->assertion != NULL && r->ninject == 0 && i < m; i++)
		if (assertion_byte(r->assertion, out[i]))
			rules_entity_assertion(r);
}

/* Announce the assertion verdict when it changed, and keep a final one. */
void
rules_entity_assertion(struct rules *r)
{
	const struct assertion_result	*res = assertion_result(r->assertion);
	char				 text[ASSERTION_TEXTMAX * 4 + 1];

	if (res->verdict == r->said && !res->final)
		return;
	if (res->verdict == ASSERTION_PENDING) {
		/* A provisional FAIL taken back by backspaces. */
		if (r->said != ASSERTION_PENDING)
			rules_verdict_report(r, 0, "assertion", "pending",
			    "assertion %s withdrawn at byte %llu", r->entity,
			    (unsigned long long)res->offset);
		r->said = res->verdict;
		return;
	}
	r->said = res->verdict;
	rules_verdict_escape(res->text, text, sizeof(text));
	rules_verdict_report(r, res->final, "assertion",
	    assertion_verdict_name(res->verdict),
	    "assertion %s%s at byte %llu: \"%s\"%s%s", r->entity,
	    res->final ? "" : " (so far)", (unsigned long long)res->offset,
	    text, res->reason[0] != '\0' ? ": " : "", res->reason);
	if (!res->final)
		return;
	if (r->holding && r->policy == CONF_ASSERT_HOLD) {
		if (res->verdict == ASSERTION_PASS)
			rules_entity_release_now(r, "assertion passed");
		else {
			log_warnx("link %s: %s's output stays held from judge "
			    "%02d: assertion %s", r->link->name, r->entity,
			    r->judge, assertion_verdict_name(res->verdict));
			events_post(PROTOCOL_EV_HOLD,
			    json_pack("{ss ss si ss sI}", "link",
			    r->link->name, "entity", r->entity, "judge",
			    r->judge, "state", "kept", "bytes",
			    (json_int_t)r->hold.held));
		}
	}
	rules_verdict_keep(r->entity, r->judge, res->verdict);
	assertion_free(r->assertion);
	r->assertion = NULL;
}
