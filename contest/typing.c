/*
 * A typing model: how long to wait before each key of a text, so that a
 * program types like a person (MegaHAL's Loebner entry typed its answers
 * so): comprog's entry adapter types a chatbot's answers with it, and
 * muxd the opening assertion it injects for an entity.  A model is
 * written "BASE[+-JITTER]", in milliseconds: each key waits BASE, plus or
 * minus up to JITTER (uniform), and a key after punctuation waits longer:
 * after ". ! ?" four more BASE, after ", ; :" two more, at the start of a
 * new line three more.  "0" types as fast as the line takes the keys,
 * still one key at a time.
 * No I/O; the random generator (xorshift64*) is seeded by the caller, so
 * a run can be repeated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contest.h"

#define TYPING_MAX	10000	/* ms, for BASE and JITTER */

static uint64_t	typing_next(struct typing *);

/* Parse "BASE[+-JITTER]" (also "BASE+/-JITTER"). */
int
typing_parse(const char *text, struct typing *t, char *err, size_t errlen)
{
	const char	*s = text;
	char		*end;
	long		 base, jitter = 0;

	memset(t, 0, sizeof(*t));
	base = strtol(s, &end, 10);
	if (end == s)
		goto bad;
	if (strncmp(end, "+-", 2) == 0 || strncmp(end, "+/-", 3) == 0) {
		s = end + (end[1] == '/' ? 3 : 2);
		jitter = strtol(s, &end, 10);
		if (end == s)
			goto bad;
	}
	if (*end != '\0')
		goto bad;
	if (base < 0 || base > TYPING_MAX || jitter < 0 ||
	    jitter > TYPING_MAX) {
		snprintf(err, errlen, "'%s': times are 0 to %d ms", text,
		    TYPING_MAX);
		return (-1);
	}
	t->base = (int)base;
	t->jitter = (int)jitter;
	t->state = 0x9e3779b97f4a7c15ULL;
	return (0);
bad:
	snprintf(err, errlen, "'%s' is not a typing model (ms per key, "
	    "like 100 or 100+-50)", text);
	return (-1);
}

/* Seed the random generator. */
void
typing_seed(struct typing *t, uint64_t seed)
{
	t->state = seed != 0 ? seed : 0x9e3779b97f4a7c15ULL;
}

/* The next random number (xorshift64*). */
static uint64_t
typing_next(struct typing *t)
{
	t->state ^= t->state >> 12;
	t->state ^= t->state << 25;
	t->state ^= t->state >> 27;
	return (t->state * 0x2545f4914f6cdd1dULL);
}

/* How long to wait, in ms, before typing key after prev (0: none yet). */
int
typing_delay(struct typing *t, unsigned char prev, unsigned char key)
{
	int	d = t->base;

	(void)key;
	if (t->jitter > 0)
		d += (int)(typing_next(t) % (uint64_t)(2 * t->jitter + 1)) -
		    t->jitter;
	if (prev != 0 && strchr(".!?", prev) != NULL)
		d += 4 * t->base;
	else if (prev != 0 && strchr(",;:", prev) != NULL)
		d += 2 * t->base;
	else if (prev == '\n')
		d += 3 * t->base;
	return (d > 0 ? d : 0);
}
