/*
 * muxctl: how muxctl(8) writes what muxd says for people: numbers, times
 * and ages, strings with their control characters escaped, and tables
 * with aligned columns (muxctl-show.c puts them together).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "muxctl.h"

/* Store the number member key of o in *d; return 0 if there is none. */
int
muxctl_fmt_get_num(const json_t *o, const char *key, double *d)
{
	const json_t	*v = json_object_get(o, key);

	if (!json_is_number(v))
		return 0;
	*d = json_number_value(v);
	return 1;
}

/* Format the integer member key of o, "-" when absent or null. */
const char *
muxctl_fmt_int(const json_t *o, const char *key, char *buf, size_t len)
{
	const json_t	*v = json_object_get(o, key);

	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		muxctl_fmt_real(json_real_value(v), buf, len);
	else if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else
		snprintf(buf, len, "-");
	return buf;
}

/* Format a real with the fewest digits that read back as the same value. */
void
muxctl_fmt_real(double d, char *buf, size_t len)
{
	int	prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
}

/* Return the wall clock in seconds since the epoch. */
double
muxctl_fmt_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Format epoch seconds as local HH:MM:SS, with milliseconds if ms; a time
 * on another day than today gets its date in front.
 */
void
muxctl_fmt_clock(double t, int ms, char *buf, size_t len)
{
	struct tm	 tm, today;
	time_t		 s, now;
	long long	 total;
	char		 hms[32];
	int		 msec;

	if (t < 0)
		t = 0;
	total = (long long)(t * 1000.0 + 0.5);	/* 0.123 is 0.12299... */
	s = (time_t)(total / 1000);
	msec = (int)(total % 1000);
	now = time(NULL);
	if (localtime_r(&s, &tm) == NULL || localtime_r(&now, &today) == NULL) {
		snprintf(buf, len, "?");
		return;
	}
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	if (ms)
		snprintf(buf, len, "%s.%03d", hms, msec);
	else if (tm.tm_year != today.tm_year || tm.tm_yday != today.tm_yday)
		snprintf(buf, len, "%04d-%02d-%02d %s", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday, hms);
	else
		snprintf(buf, len, "%s", hms);
}

/* Format how long ago then was, as "3s ago" or "4m05s ago". */
void
muxctl_fmt_age(double then, double now, char *buf, size_t len)
{
	long long	s;

	s = now > then ? (long long)(now - then) : 0;
	if (s < 60)
		snprintf(buf, len, "%llds ago", s);
	else if (s < 3600)
		snprintf(buf, len, "%lldm%02llds ago", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, len, "%lldh%02lldm ago", s / 3600,
		    s % 3600 / 60);
	else
		snprintf(buf, len, "%lldd%02lldh ago", s / 86400,
		    s % 86400 / 3600);
}

/* Format a duration in seconds as "25 min" or "90 s". */
void
muxctl_fmt_duration(long long s, char *buf, size_t len)
{
	if (s > 0 && s % 60 == 0)
		snprintf(buf, len, "%lld min", s / 60);
	else
		snprintf(buf, len, "%lld s", s);
}

/* Tell whether p starts a UTF-8 C1 control character (U+0080..U+009F). */
int
muxctl_fmt_c1(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

/*
 * Write a string from muxd with its control characters escaped, so that
 * nothing it contains can drive the terminal; quote wraps it in double
 * quotes and escapes quotes and backslashes too.
 */
void
muxctl_fmt_put_str(FILE *fp, const char *s, int quote)
{
	const unsigned char	*p;

	if (quote)
		putc('"', fp);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (quote && (*p == '"' || *p == '\\'))
			fprintf(fp, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", fp);
		else if (*p == '\r')
			fputs("\\r", fp);
		else if (*p == '\t')
			fputs("\\t", fp);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\x%02x", *p);
		else if (muxctl_fmt_c1(p)) {
			fprintf(fp, "\\u%04x", p[1]);
			p++;
		} else
			putc(*p, fp);
	}
	if (quote)
		putc('"', fp);
}

/* Return a copy of s with its control characters escaped. */
char *
muxctl_fmt_clean(const char *s)
{
	FILE	*fp;
	char	*out = NULL;
	size_t	 n;

	if ((fp = open_memstream(&out, &n)) == NULL)
		err(PROTOCOL_EXIT_PROTOCOL, "open_memstream");
	muxctl_fmt_put_str(fp, s, 0);
	if (fclose(fp) != 0)
		err(PROTOCOL_EXIT_PROTOCOL, "open_memstream");
	return out;
}

/* Return the number of characters in the UTF-8 string s. */
size_t
muxctl_fmt_width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Start an empty table of ncols columns. */
void
muxctl_fmt_table_init(struct muxctl_table *t, size_t ncols, const int *right)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->right = right;
}

/* Add a row (NULL cells print as "-") and a note line below it, or NULL. */
void
muxctl_fmt_table_add(struct muxctl_table *t, const char **row,
    const char *note)
{
	size_t	i;

	if (t->nrows == t->cap) {
		t->cap = t->cap == 0 ? 16 : t->cap * 2;
		t->cells = reallocarray(t->cells, t->cap * t->ncols,
		    sizeof(*t->cells));
		t->notes = reallocarray(t->notes, t->cap, sizeof(*t->notes));
		if (t->cells == NULL || t->notes == NULL)
			err(PROTOCOL_EXIT_PROTOCOL, "reallocarray");
	}
	for (i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] =
		    muxctl_fmt_clean(row[i] != NULL ? row[i] : "-");
	t->notes[t->nrows] = note != NULL ? muxctl_fmt_clean(note) : NULL;
	t->nrows++;
}

/* Print a table with its columns aligned, then free it. */
void
muxctl_fmt_table_print(struct muxctl_table *t)
{
	size_t	*w, r, i, cw;
	char	*cell;

	if ((w = calloc(t->ncols, sizeof(*w))) == NULL)
		err(PROTOCOL_EXIT_PROTOCOL, "calloc");
	for (r = 0; r < t->nrows; r++)
		for (i = 0; i < t->ncols; i++) {
			cw = muxctl_fmt_width(t->cells[r * t->ncols + i]);
			if (cw > w[i])
				w[i] = cw;
		}
	for (r = 0; r < t->nrows; r++) {
		for (i = 0; i < t->ncols; i++) {
			cell = t->cells[r * t->ncols + i];
			cw = muxctl_fmt_width(cell);
			if (i > 0)
				fputs("  ", stdout);
			if (t->right[i])
				printf("%*s", (int)(w[i] - cw), "");
			fputs(cell, stdout);
			if (!t->right[i] && i + 1 < t->ncols)
				printf("%*s", (int)(w[i] - cw), "");
			free(cell);
		}
		putchar('\n');
		if (t->notes[r] != NULL) {
			printf("    %s\n", t->notes[r]);
			free(t->notes[r]);
		}
	}
	free(w);
	free(t->cells);
	free(t->notes);
	memset(t, 0, sizeof(*t));
}

/* A string member of o, or "?" when it has none. */
const char *
muxctl_fmt_or(const json_t *o, const char *key)
{
	const char	*s = muxctl_get_str(o, key);

	return (s != NULL ? s : "?");
}
