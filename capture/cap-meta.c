/*
 * The capture header: the asciicast v2 fields, and ours under "muxd".
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture.h"

static int	cap_meta_utf8_valid(const char *);
static char	*cap_meta_latin1(const char *);
static enum cap_err cap_meta_fix(char **, struct cap_error *);
static int	cap_meta_put(json_t *, const char *, const char *);
static enum cap_err cap_meta_get_str(json_t *, const char *, char **,
		    struct cap_error *);
static enum cap_err cap_meta_get_int(json_t *, const char *, long long,
		    long long, int, long long *, struct cap_error *);
static enum cap_err cap_meta_get_encoding(json_t *, const char *,
		    enum cap_encoding *, struct cap_error *);
static enum cap_err cap_meta_get_bool(json_t *, const char *, int, int *,
		    struct cap_error *);
static enum cap_err cap_meta_get_localecho(json_t *, int *,
		    struct cap_error *);

/* The string fields of a meta, for copying and freeing them alike. */
#define CAP_META_STRINGS(m) { &(m)->title, &(m)->term, &(m)->station, \
	&(m)->side, &(m)->entity, &(m)->kind, &(m)->program, \
	&(m)->contestant, &(m)->judge_port, &(m)->judge_address, \
	&(m)->entity_port, &(m)->entity_address, &(m)->software, \
	&(m)->transcript }
#define CAP_META_NSTRINGS	14

/* Set a meta to the defaults: 80x24, ISO-8859-1, no judge, local time. */
void
cap_meta_init(struct cap_meta *m)
{
	memset(m, 0, sizeof(*m));
	m->width = CAP_WIDTH;
	m->height = CAP_HEIGHT;
	m->encoding = CAP_LATIN1;
	m->judge = TX_JUDGE_NONE;
	m->utc_offset = CAP_UTC_LOCAL;
	m->tx_width = TX_WIDTH;
	m->tcharset = -1;
}

/* Replace *dst by a copy of src (NULL clears it); -1 when out of memory. */
int
cap_meta_set(char **dst, const char *src)
{
	char	*s = NULL;

	if (src != NULL && (s = strdup(src)) == NULL)
		return (-1);
	free(*dst);
	*dst = s;
	return (0);
}

/* Copy a meta, every string duplicated; dst is freed with cap_meta_free. */
enum cap_err
cap_meta_copy(struct cap_meta *dst, const struct cap_meta *src,
    struct cap_error *err)
{
	char		**d[] = CAP_META_STRINGS(dst);
	char *const	 *s[] = CAP_META_STRINGS(src);
	size_t		 i;

	*dst = *src;
	for (i = 0; i < CAP_META_NSTRINGS; i++)
		*d[i] = NULL;
	for (i = 0; i < CAP_META_NSTRINGS; i++) {
		if (cap_meta_set(d[i], *s[i]) == -1) {
			cap_meta_free(dst);
			cap_error_set(err, CAP_ENOMEM, NULL, 0, -1,
			    "copying the capture header: out of memory");
			return (CAP_ENOMEM);
		}
	}
	return (CAP_OK);
}

/* Free the strings of a meta made by cap_meta_copy() or cap_meta_set(). */
void
cap_meta_free(struct cap_meta *m)
{
	char	**s[] = CAP_META_STRINGS(m);
	size_t	  i;

	for (i = 0; i < CAP_META_NSTRINGS; i++) {
		free(*s[i]);
		*s[i] = NULL;
	}
}

/* Tell whether a string is valid UTF-8 (no overlongs, no surrogates). */
static int
cap_meta_utf8_valid(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 len = strlen(s), used;
	unsigned int		 cp;

	while (len > 0) {
		if (!utf8_decode(p, len, &used, &cp))
			return (0);
		p += used;
		len -= used;
	}
	return (1);
}

/* Convert an ISO-8859-1 string to UTF-8; NULL when out of memory. */
static char *
cap_meta_latin1(const char *s)
{
	const unsigned char	*p;
	char			*out, *o;

	if ((out = malloc(strlen(s) * 2 + 1)) == NULL)
		return (NULL);
	for (p = (const unsigned char *)s, o = out; *p != '\0'; p++) {
		if (*p < 0x80)
			*o++ = (char)*p;
		else {
			*o++ = (char)(0xc0 | (*p >> 6));
			*o++ = (char)(0x80 | (*p & 0x3f));
		}
	}
	*o = '\0';
	return (out);
}

/* Make one string valid UTF-8, taking invalid text as ISO-8859-1. */
static enum cap_err
cap_meta_fix(char **s, struct cap_error *err)
{
	char	*u;

	if (*s == NULL || cap_meta_utf8_valid(*s))
		return (CAP_OK);
	if ((u = cap_meta_latin1(*s)) == NULL) {
		cap_error_set(err, CAP_ENOMEM, NULL, 0, -1,
		    "converting a header string: out of memory");
		return (CAP_ENOMEM);
	}
	free(*s);
	*s = u;
	return (CAP_OK);
}

/*
 * Settle a meta (one made by cap_meta_copy()) into what the header will
 * say: defaults filled in, the host's UTC offset at the timestamp when
 * CAP_UTC_LOCAL, strings made valid UTF-8.  Normalising twice changes
 * nothing, and a header read back gives the same meta.
 */
enum cap_err
cap_meta_normalize(struct cap_meta *m, struct cap_error *err)
{
	char		**s[] = CAP_META_STRINGS(m);
	struct tm	  tm;
	time_t		  t;
	size_t		  i;
	enum cap_err	  e;

	if (m->width <= 0)
		m->width = CAP_WIDTH;
	if (m->height <= 0)
		m->height = CAP_HEIGHT;
	if (m->tx_width == 0)
		m->tx_width = TX_WIDTH;
	if (m->tx_width < TX_WIDTH_MIN || m->tx_width > TX_WIDTH_MAX) {
		cap_error_set(err, CAP_EINVAL, NULL, 0, -1,
		    "transcript width %d is outside %d..%d", m->tx_width,
		    TX_WIDTH_MIN, TX_WIDTH_MAX);
		return (CAP_EINVAL);
	}
	if (m->judge < TX_JUDGE_NONE || m->judge > 99) {
		cap_error_set(err, CAP_EINVAL, NULL, 0, -1,
		    "judge number %d is outside 00..99", m->judge);
		return (CAP_EINVAL);
	}
	if (m->utc_offset == CAP_UTC_LOCAL) {
		t = (time_t)m->timestamp;
		if (localtime_r(&t, &tm) == NULL) {
			cap_error_set(err, CAP_EINVAL, NULL, 0, -1,
			    "timestamp %lld has no local time",
			    (long long)m->timestamp);
			return (CAP_EINVAL);
		}
		m->utc_offset = (int32_t)tm.tm_gmtoff;
	}
	if (m->utc_offset < -86400 || m->utc_offset > 86400) {
		cap_error_set(err, CAP_EINVAL, NULL, 0, -1,
		    "UTC offset %ld s is more than a day",
		    (long)m->utc_offset);
		return (CAP_EINVAL);
	}
	for (i = 0; i < CAP_META_NSTRINGS; i++)
		if ((e = cap_meta_fix(s[i], err)) != CAP_OK)
			return (e);
	return (CAP_OK);
}

/* Add a string member when the string is set; -1 on failure. */
static int
cap_meta_put(json_t *o, const char *key, const char *s)
{
	if (s == NULL)
		return (0);
	return (json_object_set_new(o, key, json_string(s)));
}

/* Build the header object of a (normalised) meta; NULL when out of memory. */
json_t *
cap_meta_to_json(const struct cap_meta *m)
{
	json_t	*h, *env, *x;
	int	 r = 0;

	h = json_object();
	env = json_object();
	x = json_object();
	if (h == NULL || env == NULL || x == NULL)
		goto fail;
	r |= json_object_set_new(h, "version", json_integer(CAP_VERSION));
	r |= json_object_set_new(h, "width", json_integer(m->width));
	r |= json_object_set_new(h, "height", json_integer(m->height));
	r |= json_object_set_new(h, "timestamp", json_integer(m->timestamp));
	r |= cap_meta_put(h, "title", m->title);
	r |= cap_meta_put(env, "TERM", m->term);
	r |= json_object_set(h, "env", env);
	r |= json_object_set_new(x, "encoding",
	    json_string(cap_encoding_name(m->encoding)));
	if (m->charset != CAP_LATIN1)
		r |= json_object_set_new(x, "charset",
		    json_string(cap_encoding_name(m->charset)));
	r |= cap_meta_put(x, "software", m->software);
	r |= json_object_set_new(x, "segment", json_integer(m->segment));
	if (m->round > 0)
		r |= json_object_set_new(x, "round", json_integer(m->round));
	r |= cap_meta_put(x, "station", m->station);
	r |= cap_meta_put(x, "side", m->side);
	r |= json_object_set_new(x, "judge", m->judge == TX_JUDGE_NONE ?
	    json_null() : json_integer(m->judge));
	r |= cap_meta_put(x, "entity", m->entity);
	r |= cap_meta_put(x, "kind", m->kind);
	r |= cap_meta_put(x, "program", m->program);
	r |= cap_meta_put(x, "contestant", m->contestant);
	r |= cap_meta_put(x, "judge_port", m->judge_port);
	r |= cap_meta_put(x, "judge_address", m->judge_address);
	r |= cap_meta_put(x, "entity_port", m->entity_port);
	r |= cap_meta_put(x, "entity_address", m->entity_address);
	r |= json_object_set_new(x, "utc_offset", json_integer(m->utc_offset));
	r |= json_object_set_new(x, "transcript_width",
	    json_integer(m->tx_width));
	r |= cap_meta_put(x, "transcript", m->transcript);
	if (m->screen)
		r |= json_object_set_new(x, "screen", json_true());
	if (m->noconvention)
		r |= json_object_set_new(x, "convention", json_false());
	if (m->nofilter)
		r |= json_object_set_new(x, "filter", json_false());
	if (m->localecho == VIEW_ECHO_CR)
		r |= json_object_set_new(x, "localecho", json_string("cr"));
	else if (m->localecho != VIEW_ECHO_NONE)
		r |= json_object_set_new(x, "localecho", json_true());
	if (m->tcharset >= 0 && m->tcharset != (int)m->charset)
		r |= json_object_set_new(x, "terminal_charset",
		    json_string(cap_encoding_name(
		    (enum cap_encoding)m->tcharset)));
	r |= json_object_set(h, "muxd", x);
	json_decref(env);
	json_decref(x);
	if (r != 0) {
		json_decref(h);
		return (NULL);
	}
	return (h);
fail:
	json_decref(h);
	json_decref(env);
	json_decref(x);
	return (NULL);
}

/* Read an optional string member into *dst (a new copy). */
static enum cap_err
cap_meta_get_str(json_t *o, const char *key, char **dst,
    struct cap_error *err)
{
	json_t	*v;

	if ((v = json_object_get(o, key)) == NULL || json_is_null(v))
		return (CAP_OK);
	if (!json_is_string(v)) {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0,
		    "header: \"%s\" is not a string", key);
		return (CAP_EHEADER);
	}
	if (cap_meta_set(dst, json_string_value(v)) == -1) {
		cap_error_set(err, CAP_ENOMEM, NULL, 1, 0,
		    "header: out of memory");
		return (CAP_ENOMEM);
	}
	return (CAP_OK);
}

/* Read an integer member within min..max; absent (or null) leaves *v. */
static enum cap_err
cap_meta_get_int(json_t *o, const char *key, long long min, long long max,
    int real, long long *v, struct cap_error *err)
{
	json_t		*j;
	long long	 n;

	if ((j = json_object_get(o, key)) == NULL || json_is_null(j))
		return (CAP_OK);
	if (json_is_integer(j))
		n = json_integer_value(j);
	else if (real && json_is_real(j) && json_real_value(j) > (double)min &&
	    json_real_value(j) < (double)max)
		n = (long long)json_real_value(j);
	else {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0,
		    "header: \"%s\" is not an integer", key);
		return (CAP_EHEADER);
	}
	if (n < min || n > max) {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0,
		    "header: \"%s\" is %lld, outside %lld..%lld", key, n, min,
		    max);
		return (CAP_EHEADER);
	}
	*v = n;
	return (CAP_OK);
}

/* Read a character set member; absent leaves *enc. */
static enum cap_err
cap_meta_get_encoding(json_t *o, const char *key, enum cap_encoding *enc,
    struct cap_error *err)
{
	json_t	*j;

	if ((j = json_object_get(o, key)) == NULL)
		return (CAP_OK);
	if (!json_is_string(j) || cap_encoding_parse(json_string_value(j),
	    enc) == -1) {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0, "header: %s is "
		    "not \"iso-8859-1\" or \"utf-8\"", key);
		return (CAP_EHEADER);
	}
	return (CAP_OK);
}

/*
 * Read a true or false member into *v (negated when not is set); absent
 * leaves *v.
 */
static enum cap_err
cap_meta_get_bool(json_t *o, const char *key, int not, int *v,
    struct cap_error *err)
{
	json_t	*j;

	if ((j = json_object_get(o, key)) == NULL)
		return (CAP_OK);
	if (!json_is_boolean(j)) {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0,
		    "header: %s is not true or false", key);
		return (CAP_EHEADER);
	}
	*v = json_is_true(j) != not;
	return (CAP_OK);
}

/* Read "localecho": true, false or "cr"; absent leaves *echo. */
static enum cap_err
cap_meta_get_localecho(json_t *o, int *echo, struct cap_error *err)
{
	json_t	*j;

	if ((j = json_object_get(o, "localecho")) == NULL)
		return (CAP_OK);
	if (json_is_boolean(j))
		*echo = json_is_true(j) ? VIEW_ECHO_CRLF : VIEW_ECHO_NONE;
	else if (json_is_string(j) && strcmp(json_string_value(j), "cr") == 0)
		*echo = VIEW_ECHO_CR;
	else {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0,
		    "header: localecho is not true, false or \"cr\"");
		return (CAP_EHEADER);
	}
	return (CAP_OK);
}

/*
 * Read a header object into m (initialised here; free with
 * cap_meta_free()).  A header without "muxd" is a plain asciicast: UTF-8
 * text, no judge, UTC.
 */
enum cap_err
cap_meta_from_json(json_t *h, struct cap_meta *m, struct cap_error *err)
{
	json_t		*x, *v;
	long long	 n;
	enum cap_err	 e;
	enum cap_encoding enc;

	cap_meta_init(m);
	m->utc_offset = 0;
	m->encoding = CAP_UTF8;
	if (!json_is_object(h)) {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0,
		    "header: the first line is not a JSON object");
		return (CAP_EHEADER);
	}
	if ((v = json_object_get(h, "version")) == NULL) {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0,
		    "header: no \"version\"");
		return (CAP_EHEADER);
	}
	if (!json_is_integer(v) || json_integer_value(v) != CAP_VERSION) {
		if (json_is_integer(v))
			cap_error_set(err, CAP_EVERSION, NULL, 1, 0,
			    "header: asciicast version %lld, expected 2",
			    (long long)json_integer_value(v));
		else
			cap_error_set(err, CAP_EVERSION, NULL, 1, 0,
			    "header: \"version\" is not the integer 2");
		return (CAP_EVERSION);
	}
	n = -1;
	if ((e = cap_meta_get_int(h, "width", 1, 100000, 0, &n, err)) != 0)
		return (e);
	m->width = (int)n;
	n = -1;
	if (m->width > 0 &&
	    (e = cap_meta_get_int(h, "height", 1, 100000, 0, &n, err)) != 0)
		return (e);
	m->height = (int)n;
	if (m->width <= 0 || m->height <= 0) {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0,
		    "header: no \"%s\"", m->width <= 0 ? "width" : "height");
		return (CAP_EHEADER);
	}
	n = 0;
	if ((e = cap_meta_get_int(h, "timestamp", 0, (long long)1 << 40, 1,
	    &n, err)) != 0)
		return (e);
	m->timestamp = n;
	if ((e = cap_meta_get_str(h, "title", &m->title, err)) != 0)
		return (e);
	if ((v = json_object_get(h, "env")) != NULL && json_is_object(v) &&
	    (e = cap_meta_get_str(v, "TERM", &m->term, err)) != 0)
		goto out;
	if ((x = json_object_get(h, "muxd")) == NULL)
		return (CAP_OK);
	if (!json_is_object(x)) {
		cap_error_set(err, CAP_EHEADER, NULL, 1, 0,
		    "header: \"muxd\" is not an object");
		e = CAP_EHEADER;
		goto out;
	}
	m->has_muxd = 1;
	if ((e = cap_meta_get_bool(x, "screen", 0, &m->screen, err)) != 0 ||
	    (e = cap_meta_get_bool(x, "convention", 1, &m->noconvention,
	    err)) != 0 || (e = cap_meta_get_bool(x, "filter", 1, &m->nofilter,
	    err)) != 0 || (e = cap_meta_get_localecho(x, &m->localecho,
	    err)) != 0)
		goto out;
	if ((e = cap_meta_get_encoding(x, "encoding", &m->encoding,
	    err)) != 0 || (e = cap_meta_get_encoding(x, "charset",
	    &m->charset, err)) != 0)
		goto out;
	if (json_object_get(x, "terminal_charset") != NULL) {
		if ((e = cap_meta_get_encoding(x, "terminal_charset", &enc,
		    err)) != 0)
			goto out;
		m->tcharset = (int)enc;
	}
	n = 0;
	if ((e = cap_meta_get_int(x, "segment", 0, CAP_SEGMENT_MAX, 0, &n,
	    err)) != 0)
		goto out;
	m->segment = (int)n;
	n = 0;
	if ((e = cap_meta_get_int(x, "round", 0, INT_MAX, 0, &n, err)) != 0)
		goto out;
	m->round = (int)n;
	n = TX_JUDGE_NONE;
	if ((e = cap_meta_get_int(x, "judge", 0, 99, 0, &n, err)) != 0)
		goto out;
	m->judge = (int)n;
	n = 0;
	if ((e = cap_meta_get_int(x, "utc_offset", -86400, 86400, 0, &n,
	    err)) != 0)
		goto out;
	m->utc_offset = (int32_t)n;
	n = TX_WIDTH;
	if ((e = cap_meta_get_int(x, "transcript_width", TX_WIDTH_MIN,
	    TX_WIDTH_MAX, 0, &n, err)) != 0)
		goto out;
	m->tx_width = (int)n;
	if ((e = cap_meta_get_str(x, "software", &m->software, err)) != 0 ||
	    (e = cap_meta_get_str(x, "station", &m->station, err)) != 0 ||
	    (e = cap_meta_get_str(x, "side", &m->side, err)) != 0 ||
	    (e = cap_meta_get_str(x, "entity", &m->entity, err)) != 0 ||
	    (e = cap_meta_get_str(x, "kind", &m->kind, err)) != 0 ||
	    (e = cap_meta_get_str(x, "program", &m->program, err)) != 0 ||
	    (e = cap_meta_get_str(x, "contestant", &m->contestant, err)) != 0 ||
	    (e = cap_meta_get_str(x, "judge_port", &m->judge_port, err)) != 0 ||
	    (e = cap_meta_get_str(x, "judge_address", &m->judge_address,
	    err)) != 0 ||
	    (e = cap_meta_get_str(x, "entity_port", &m->entity_port,
	    err)) != 0 ||
	    (e = cap_meta_get_str(x, "entity_address", &m->entity_address,
	    err)) != 0 ||
	    (e = cap_meta_get_str(x, "transcript", &m->transcript, err)) != 0)
		goto out;
	return (CAP_OK);
out:
	cap_meta_free(m);
	return (e);
}
