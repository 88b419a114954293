/*
 * Ballots: what each judge said of each entity, read from a CSV file
 * (a header line naming the columns, then one ballot a line) or a JSON
 * file (an array of objects with the same names).  A ballot is one
 * judge's word on one entity:
 *
 *   round       the round (or the Long Now trial); 0 or absent: none
 *   judge       the judge, "J1" or "7"
 *   entity      the entity, "E1"
 *   kind        entry or confederate (a computer, a human foil)
 *   vs          the other entity of the pair the judge compared
 *   points      2004: the points of 100 given to this entity
 *   human       2009 and Long Now: yes when the judge took it for the
 *               human, no when for the machine
 *   rank        2009 and Long Now: 1 (least human) to 4 (most human)
 *   rating      2003: 0 to 5, fractions allowed
 *
 * Every bad value is a finding with its line (CSV) or its index (JSON)
 * and the ballot is left out; the rest is read.
 *
 * The file may list the pairs that met, the schedule the ballots are
 * checked against (score-check.c) when no configuration gives it: in CSV
 * a line "pair,ROUND,JUDGE,ENTITY,VS" anywhere (VS empty for a single
 * interview; "pair" is no judge's name then), in JSON an object
 * { "pairs": [ { "round", "judge", "entity", "vs" } ... ], "ballots":
 * [ ... ] }.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

#define SCORE_COLS	9

static const char *score_cols[SCORE_COLS] = {
	"round", "judge", "entity", "kind", "vs", "points", "human", "rank",
	"rating"
};

static int	score_field(struct score_ballots *, struct score_ballot *,
		    int, const char *, unsigned long);
static int	score_push(struct score_ballots *, const struct score_ballot *);
static int	score_csv_split(char *, char **, int);
static int	score_csv_pair(struct score_ballots *, char **, int,
		    unsigned long);
static int	score_name_ok(const char *);
static enum cap_err score_read_csv(char *, struct score_ballots *);
static enum cap_err score_read_json(const char *, size_t,
		    struct score_ballots *);
static int	score_json_pair(struct score_ballots *, json_t *, size_t);

/* Start an empty set of ballots. */
void
score_ballots_init(struct score_ballots *bs)
{
	memset(bs, 0, sizeof(*bs));
}

/* Free ballots. */
void
score_ballots_free(struct score_ballots *bs)
{
	free(bs->v);
	free(bs->pair);
	finding_free(&bs->findings);
	memset(bs, 0, sizeof(*bs));
}

/* Start a ballot with nothing said. */
void
score_ballot_init(struct score_ballot *b)
{
	memset(b, 0, sizeof(*b));
	b->kind = SCORE_UNKNOWN;
	b->points = NAN;
	b->human = -1;
	b->rank = NAN;
	b->rating = NAN;
}

/* Keep a ballot; -1 when out of memory. */
static int
score_push(struct score_ballots *bs, const struct score_ballot *b)
{
	struct score_ballot	*v;
	size_t			 n;

	if (bs->n == bs->cap) {
		n = bs->cap == 0 ? 64 : bs->cap * 2;
		if ((v = reallocarray(bs->v, n, sizeof(*v))) == NULL)
			return (-1);
		bs->v = v;
		bs->cap = n;
	}
	bs->v[bs->n++] = *b;
	return (0);
}

/* A name a ballot may give: not empty, not too long, no " < > &. */
static int
score_name_ok(const char *v)
{
	return (*v != '\0' && strlen(v) < SCORE_NAME &&
	    strpbrk(v, "\"<>&") == NULL);
}

/*
 * Keep a pair that met: judge met a and b (b "" or NULL: a alone) in
 * round; line in the ballots file, or 0.  -1 when out of memory.
 */
int
score_pair_add(struct score_ballots *bs, int round, const char *judge,
    const char *a, const char *b, enum score_kind ka, enum score_kind kb,
    unsigned long line)
{
	struct score_pair	*v, *p;
	size_t			 n;

	if (bs->npair == bs->cappair) {
		n = bs->cappair == 0 ? 32 : bs->cappair * 2;
		if ((v = reallocarray(bs->pair, n, sizeof(*v))) == NULL)
			return (-1);
		bs->pair = v;
		bs->cappair = n;
	}
	p = &bs->pair[bs->npair++];
	memset(p, 0, sizeof(*p));
	p->round = round;
	snprintf(p->judge, sizeof(p->judge), "%s", judge);
	snprintf(p->a, sizeof(p->a), "%s", a);
	snprintf(p->b, sizeof(p->b), "%s", b != NULL ? b : "");
	p->kind[0] = ka;
	p->kind[1] = kb;
	p->line = line;
	bs->scheduled = 1;
	return (0);
}

/*
 * Take a CSV line "pair,ROUND,JUDGE,ENTITY[,VS]" (n fields in f): 0, 1
 * when it is bad (a finding), -1 when out of memory.
 */
static int
score_csv_pair(struct score_ballots *bs, char **f, int n, unsigned long ln)
{
	char	*end;
	long	 round;
	int	 i;

	for (i = 1; i < n; i++) {
		while (isspace((unsigned char)*f[i]))
			f[i]++;
		f[i][strcspn(f[i], " \t")] = '\0';
	}
	errno = 0;
	round = n >= 2 ? strtol(f[1], &end, 10) : -1;
	if (n < 4 || n > 5 || errno != 0 || *f[1] == '\0' || *end != '\0' ||
	    round < 0 || round > 9999 || !score_name_ok(f[2]) ||
	    !score_name_ok(f[3]) || (n == 5 && *f[4] != '\0' &&
	    !score_name_ok(f[4])))
		return (score_note(&bs->findings, ln, "a pair line is "
		    "pair,ROUND,JUDGE,ENTITY,VS (VS empty for one alone)") ==
		    -1 ? -1 : 1);
	if (score_pair_add(bs, (int)round, f[2], f[3], n == 5 ? f[4] : "",
	    SCORE_UNKNOWN, SCORE_UNKNOWN, ln) == -1)
		return (-1);
	return (0);
}

/*
 * Take column col's text into a ballot: 0, 1 when the value is bad (a
 * finding), -1 when out of memory.
 */
static int
score_field(struct score_ballots *bs, struct score_ballot *b, int col,
    const char *v, unsigned long line)
{
	struct finding_list	*fl = &bs->findings;
	char			*end;
	double			 d;
	long			 l;

	while (isspace((unsigned char)*v))
		v++;
	if (*v == '\0')
		return (0);
	switch (col) {
	case 0:
		errno = 0;
		l = strtol(v, &end, 10);
		if (errno != 0 || *end != '\0' || l < 0 || l > 9999)
			return (score_note(fl, line, "round \"%s\": not 0 to "
			    "9999", v) == -1 ? -1 : 1);
		b->round = (int)l;
		return (0);
	case 1:
	case 2:
	case 4:
		if (strlen(v) >= sizeof(b->judge) || strpbrk(v, "\"<>&") !=
		    NULL)
			return (score_note(fl, line, "%s \"%.40s\": too long, "
			    "or with \" < > &", score_cols[col], v) == -1 ? -1 :
			    1);
		snprintf(col == 1 ? b->judge : col == 2 ? b->entity : b->vs,
		    sizeof(b->judge), "%s", v);
		return (0);
	case 3:
		if (strcmp(v, "entry") == 0 || strcmp(v, "computer") == 0)
			b->kind = SCORE_ENTRY;
		else if (strcmp(v, "confederate") == 0 ||
		    strcmp(v, "foil") == 0 || strcmp(v, "human") == 0)
			b->kind = SCORE_CONFEDERATE;
		else
			return (score_note(fl, line, "kind \"%.40s\": not "
			    "entry or confederate", v) == -1 ? -1 : 1);
		return (0);
	case 6:
		if (strcmp(v, "yes") == 0 || strcmp(v, "human") == 0 ||
		    strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
			b->human = 1;
		else if (strcmp(v, "no") == 0 || strcmp(v, "machine") == 0 ||
		    strcmp(v, "0") == 0 || strcmp(v, "false") == 0)
			b->human = 0;
		else
			return (score_note(fl, line, "human \"%.40s\": not yes "
			    "or no", v) == -1 ? -1 : 1);
		return (0);
	default:
		errno = 0;
		d = strtod(v, &end);
		if (errno != 0 || *end != '\0' || !isfinite(d))
			return (score_note(fl, line, "%s \"%.40s\": not a "
			    "number", score_cols[col], v) == -1 ? -1 : 1);
		if ((col == 5 && (d < 0 || d > 100)) || (col == 7 && (d < 1 ||
		    d > 4 || d != floor(d))) || (col == 8 && (d < 0 || d > 5)))
			return (score_note(fl, line, "%s %s: out of range (%s)",
			    score_cols[col], v, col == 5 ? "0 to 100" :
			    col == 7 ? "1 to 4" : "0 to 5") == -1 ? -1 : 1);
		if (col == 5)
			b->points = d;
		else if (col == 7)
			b->rank = d;
		else
			b->rating = d;
		return (0);
	}
}

/* Split a CSV line at commas (no quoting): the number of fields. */
static int
score_csv_split(char *s, char **f, int max)
{
	int	n = 0;

	for (;;) {
		if (n == max)
			return (n + 1);
		f[n++] = s;
		if ((s = strchr(s, ',')) == NULL)
			return (n);
		*s++ = '\0';
	}
}

/* Read CSV ballots from text (changed in place). */
static enum cap_err
score_read_csv(char *text, struct score_ballots *bs)
{
	struct finding_list	*fl = &bs->findings;
	struct score_ballot	 b;
	char			*line, *next, *f[SCORE_COLS + 1];
	int			 map[SCORE_COLS + 1], nh = -1, n, i, k, bad;
	unsigned long		 ln = 0;

	for (line = text; line != NULL; line = next) {
		ln++;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		if (*line == '\0' || *line == '#')
			continue;
		n = score_csv_split(line, f, SCORE_COLS + 1);
		if (strcmp(f[0], "pair") == 0) {
			if (score_csv_pair(bs, f, n, ln) == -1)
				return (CAP_ENOMEM);
			continue;
		}
		if (nh == -1) {
			if (n > SCORE_COLS) {
				score_note(fl, ln, "more than %d columns",
				    SCORE_COLS);
				return (CAP_ESYNTAX);
			}
			for (i = 0; i < n; i++) {
				while (isspace((unsigned char)*f[i]))
					f[i]++;
				f[i][strcspn(f[i], " \t")] = '\0';
				for (k = 0; k < SCORE_COLS; k++)
					if (strcmp(f[i], score_cols[k]) == 0)
						break;
				if (k == SCORE_COLS) {
					score_note(fl, ln, "column \"%.40s\" "
					    "is none of round, judge, entity, "
					    "kind, vs, points, human, rank, "
					    "rating",
					    f[i]);
					return (CAP_ESYNTAX);
				}
				map[i] = k;
			}
			nh = n;
			continue;
		}
		if (n != nh) {
			if (score_note(fl, ln, "%d fields, the header has %d",
			    n, nh) == -1)
				return (CAP_ENOMEM);
			continue;
		}
		score_ballot_init(&b);
		b.line = ln;
		for (i = 0, bad = 0; i < n; i++)
			if ((k = score_field(bs, &b, map[i], f[i], ln)) == -1)
				return (CAP_ENOMEM);
			else
				bad |= k;
		if (bad)
			continue;
		if ((b.judge[0] == '\0' || b.entity[0] == '\0') &&
		    score_note(fl, ln, "a ballot names its judge and entity") ==
		    -1)
			return (CAP_ENOMEM);
		if (b.judge[0] != '\0' && b.entity[0] != '\0' &&
		    score_push(bs, &b) == -1)
			return (CAP_ENOMEM);
	}
	if (nh == -1)
		score_note(fl, 0, "no header line");
	return (CAP_OK);
}

/*
 * Take a JSON pair, { "round", "judge", "entity", "vs" }, the i-th: 0, 1
 * when it is bad (a finding), -1 when out of memory.
 */
static int
score_json_pair(struct score_ballots *bs, json_t *o, size_t i)
{
	json_t		*r = json_object_get(o, "round");
	const char	*j, *e, *vs;
	json_int_t	 round = 0;

	j = json_string_value(json_object_get(o, "judge"));
	e = json_string_value(json_object_get(o, "entity"));
	vs = json_string_value(json_object_get(o, "vs"));
	if (json_is_integer(r))
		round = json_integer_value(r);
	else if (json_is_string(r))
		round = strtol(json_string_value(r), NULL, 10);
	if (!json_is_object(o) || j == NULL || e == NULL || round < 0 ||
	    round > 9999 || !score_name_ok(j) || !score_name_ok(e) ||
	    (vs != NULL && *vs != '\0' && !score_name_ok(vs)))
		return (score_note(&bs->findings, i, "pair %zu: a pair is "
		    "{ \"round\", \"judge\", \"entity\", \"vs\" }", i) ==
		    -1 ? -1 : 1);
	return (score_pair_add(bs, (int)round, j, e, vs, SCORE_UNKNOWN,
	    SCORE_UNKNOWN, i));
}

/* Read JSON ballots: an array of objects, or one with pairs. */
static enum cap_err
score_read_json(const char *text, size_t len, struct score_ballots *bs)
{
	struct finding_list	*fl = &bs->findings;
	struct score_ballot	 b;
	json_error_t		 je;
	json_t			*top, *a, *ps = NULL, *o, *v;
	const char		*key;
	char			 buf[64];
	size_t			 i;
	int			 k, bad, r;

	if ((top = json_loadb(text, len, 0, &je)) == NULL ||
	    (a = json_is_object(top) ? json_object_get(top, "ballots") :
	    top) == NULL || !json_is_array(a) || (json_is_object(top) &&
	    (ps = json_object_get(top, "pairs")) != NULL &&
	    !json_is_array(ps))) {
		score_note(fl, top == NULL ? (unsigned long)je.line : 1, "%s",
		    top == NULL ? je.text : "not an array of ballots, or an "
		    "object of \"ballots\" and \"pairs\" arrays");
		json_decref(top);
		return (CAP_ESYNTAX);
	}
	json_array_foreach(ps, i, o) {
		if ((r = score_json_pair(bs, o, i + 1)) == -1) {
			json_decref(top);
			return (CAP_ENOMEM);
		}
	}
	json_array_foreach(a, i, o) {
		score_ballot_init(&b);
		b.line = i + 1;
		bad = !json_is_object(o);
		json_object_foreach(bad ? NULL : o, key, v) {
			for (k = 0; k < SCORE_COLS; k++)
				if (strcmp(key, score_cols[k]) == 0)
					break;
			if (k == SCORE_COLS) {
				r = score_note(fl, i + 1, "ballot %zu: "
				    "\"%.40s\" is no ballot's field", i + 1,
				    key);
			} else if (json_is_string(v))
				r = score_field(bs, &b, k, json_string_value(v),
				    i + 1);
			else if (json_is_number(v)) {
				snprintf(buf, sizeof(buf), "%.17g",
				    json_number_value(v));
				r = score_field(bs, &b, k, buf, i + 1);
			} else if (json_is_boolean(v))
				r = score_field(bs, &b, k, json_is_true(v) ?
				    "yes" : "no", i + 1);
			else
				r = score_note(fl, i + 1, "ballot %zu: %s is "
				    "not a string or a number", i + 1, key);
			if (r == -1) {
				json_decref(top);
				return (CAP_ENOMEM);
			}
			bad |= r != 0 || k == SCORE_COLS;
		}
		if (bad)
			continue;
		if (b.judge[0] == '\0' || b.entity[0] == '\0') {
			score_note(fl, i + 1, "ballot %zu names no judge or no "
			    "entity", i + 1);
			continue;
		}
		if (score_push(bs, &b) == -1) {
			json_decref(top);
			return (CAP_ENOMEM);
		}
	}
	json_decref(top);
	return (CAP_OK);
}

/*
 * Read a ballots file, CSV or JSON (by its first character); what does
 * not read is in bs->findings.  CAP_OK, or an error for the file.
 */
enum cap_err
score_ballots_read(const char *path, struct score_ballots *bs,
    struct cap_error *err)
{
	char		*text;
	size_t		 len, i;
	enum cap_err	 e;

	if ((e = cap_file_read(path, 64UL << 20, &text, &len, err)) != CAP_OK)
		return (e);
	for (i = 0; i < len && isspace((unsigned char)text[i]); i++)
		;
	if (i < len && (text[i] == '[' || text[i] == '{'))
		e = score_read_json(text, len, bs);
	else
		e = score_read_csv(text, bs);
	free(text);
	if (e == CAP_ENOMEM)
		cap_error_set(err, e, path, 0, -1, "out of memory");
	else if (e != CAP_OK)
		cap_error_set(err, e, path, 0, -1, "not a ballots file");
	return (e);
}
