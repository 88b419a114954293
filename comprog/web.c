/*
 * Web entries (comprog web): an entry of the 2003 rules, reached over
 * HTTP, on a line.  The entry adapter (entry.c) does the line, the
 * judge's turns and the typing, character by character; its program is
 * comprog itself in its web-client role, this file, which reads each
 * turn as a line on standard input, posts it to the entry as an HTML
 * form (field "input" unless --field says otherwise), takes the reply
 * out of the page and writes it on standard output, a line.
 *
 * Rule 30: an entry must wait at least five seconds between receiving a
 * form and returning its page.  The reply is never given back sooner than
 * five seconds after the post; an entry that answered sooner is held
 * back to five seconds, and that is said on standard error (comprog's
 * log).  Rule 29 makes every entry's page look the same; the template it
 * cites is not in the rule texts, so the reply is read from the element
 * whose id is "reply" (--reply names another), or when there is none
 * from the page's whole text, tags left out, entities decoded.
 *
 * Cookies are kept for the conversation (an entry's session).  An HTTP
 * or network error is said on standard error and the turn gets no
 * answer; the next turn is posted all the same.
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "comprog.h"

#define WEB_DELAY_MS	5000	/* rule 30 */
#define WEB_PAGE_MAX	(4 << 20)
#define WEB_TIMEOUT	120	/* seconds for one post */

struct web_page {
	char	*buf;
	size_t	 len;
};

static size_t	web_write_cb(char *, size_t, size_t, void *);
static int64_t	web_now_ms(void);
static char	*web_reply(const char *, const char *);
static size_t	web_text(const char *, size_t, char *);

/* Keep what the server sends, up to WEB_PAGE_MAX. */
static size_t
web_write_cb(char *p, size_t size, size_t n, void *arg)
{
	struct web_page	*pg = arg;
	size_t		 len = size * n;
	char		*b;

	if (pg->len + len > WEB_PAGE_MAX)
		return (0);
	if ((b = realloc(pg->buf, pg->len + len + 1)) == NULL)
		return (0);
	memcpy(b + pg->len, p, len);
	pg->buf = b;
	pg->len += len;
	pg->buf[pg->len] = '\0';
	return (len);
}

/* The monotonic time in milliseconds. */
static int64_t
web_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/*
 * The text of HTML (len bytes at s) into out (room for len + 1): tags
 * left out (the content of script and style too), the usual entities
 * and numeric ones decoded (as ISO-8859-1 up to 255), white space runs
 * made one space, trimmed; its length.
 */
static size_t
web_text(const char *s, size_t len, char *out)
{
	static const struct { const char *name; char c; } ent[] = {
		{ "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' },
		{ "quot;", '"' }, { "apos;", '\'' }, { "nbsp;", ' ' },
		{ "#39;", '\'' }
	};
	size_t		 i, k, n = 0;
	const char	*e;
	long		 v;
	char		*end;
	int		 space = 1;

	for (i = 0; i < len; i++) {
		if (s[i] == '<') {
			if (strncasecmp(s + i, "<script", 7) == 0 ||
			    strncasecmp(s + i, "<style", 6) == 0) {
				e = strcasestr(s + i, s[i + 2] == 'c' ||
				    s[i + 2] == 'C' ? "</script" : "</style");
				i = e != NULL ? (size_t)(e - s) : len;
			}
			while (i < len && s[i] != '>')
				i++;
			if (!space) {
				out[n++] = ' ';
				space = 1;
			}
			continue;
		}
		if (s[i] == '&') {
			for (k = 0; k < sizeof(ent) / sizeof(ent[0]); k++)
				if (strncmp(s + i + 1, ent[k].name,
				    strlen(ent[k].name)) == 0)
					break;
			if (k < sizeof(ent) / sizeof(ent[0])) {
				out[n++] = ent[k].c;
				i += strlen(ent[k].name);
				space = ent[k].c == ' ';
				continue;
			}
			if (s[i + 1] == '#' && (v = strtol(s + i + 2, &end,
			    10)) > 0 && v < 256 && *end == ';') {
				out[n++] = (char)v;
				i = (size_t)(end - s);
				space = 0;
				continue;
			}
		}
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
		    s[i] == '\n') {
			if (!space)
				out[n++] = ' ';
			space = 1;
			continue;
		}
		out[n++] = s[i];
		space = 0;
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return (n);
}

/*
 * The reply in a page: the text of the element with the id, or of the
 * whole page.  The caller frees it.
 */
static char *
web_reply(const char *page, const char *id)
{
	char		 key[128], *out;
	const char	*p, *start, *end = NULL;

	snprintf(key, sizeof(key), "id=\"%s\"", id);
	if ((p = strstr(page, key)) != NULL &&
	    (start = strchr(p, '>')) != NULL) {
		start++;
		end = strstr(start, "</");
	}
	if (end == NULL) {
		start = page;
		end = page + strlen(page);
	}
	if ((out = malloc((size_t)(end - start) + 1)) == NULL)
		return (NULL);
	web_text(start, (size_t)(end - start), out);
	return (out);
}

/*
 * Check the web entry's address before anything starts: an absolute
 * http:// or https:// URL with a host, as libcurl's URL parser reads it.
 * 0, or -1 with what is wrong in err.
 */
int
web_url_check(const char *url, char *err, size_t errlen)
{
	CURLU		*u;
	CURLUcode	 rc;
	char		*scheme = NULL, *host = NULL;
	int		 r = -1;

	if ((u = curl_url()) == NULL) {
		snprintf(err, errlen, "out of memory");
		return (-1);
	}
	if ((rc = curl_url_set(u, CURLUPART_URL, url, 0)) != CURLUE_OK)
		snprintf(err, errlen, "'%s' is not a URL (%s); the entry's "
		    "page is http://HOST/PATH or https://HOST/PATH", url,
		    rc == CURLUE_MALFORMED_INPUT ? "malformed" :
		    rc == CURLUE_BAD_PORT_NUMBER ? "bad port number" :
		    rc == CURLUE_UNSUPPORTED_SCHEME ? "unsupported scheme" :
		    "cannot be parsed");
	else if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0) ||
	    strncasecmp(url, scheme, strlen(scheme)) != 0)
		snprintf(err, errlen, "'%s' is not an http:// or https:// URL",
		    url);
	else if (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    *host == '\0')
		snprintf(err, errlen, "'%s' names no host", url);
	else
		r = 0;
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	return (r);
}

/*
 * The web client: each line of standard input posted to url, each reply
 * a line of standard output.  An exit status.
 */
int
web_client(const char *url, const char *field, const char *id)
{
	struct web_page	 pg;
	CURL		*c;
	char		*line = NULL, *esc, *body, *reply;
	size_t		 size = 0;
	ssize_t		 n;
	int64_t		 t0, took;
	long		 code;
	CURLcode	 rc;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0 ||
	    (c = curl_easy_init()) == NULL) {
		fprintf(stderr, "web: libcurl does not start\n");
		return (1);
	}
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_COOKIEFILE, "");	/* the session */
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, web_write_cb);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, (long)WEB_TIMEOUT);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "comprog/" MUXD_VERSION);
	while ((n = getline(&line, &size, stdin)) > 0) {
		line[strcspn(line, "\r\n")] = '\0';
		if ((esc = curl_easy_escape(c, line, 0)) == NULL ||
		    asprintf(&body, "%s=%s", field, esc) == -1) {
			fprintf(stderr, "web: out of memory\n");
			return (1);
		}
		curl_free(esc);
		memset(&pg, 0, sizeof(pg));
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_WRITEDATA, &pg);
		t0 = web_now_ms();
		rc = curl_easy_perform(c);
		took = web_now_ms() - t0;
		free(body);
		code = 0;
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
		if (rc != CURLE_OK)
			fprintf(stderr, "web: %s: %s\n", url,
			    curl_easy_strerror(rc));
		else if (code != 200)
			fprintf(stderr, "web: %s: HTTP status %ld, not 200\n",
			    url, code);
		else if (pg.buf == NULL)
			fprintf(stderr, "web: %s: an empty page\n", url);
		if (rc != CURLE_OK || code != 200 || pg.buf == NULL) {
			free(pg.buf);
			continue;
		}
		if (took < WEB_DELAY_MS) {
			fprintf(stderr, "web: the entry answered in %.1f s, "
			    "under rule 30's 5 s: held back to 5 s\n",
			    took / 1000.0);
			usleep((useconds_t)(WEB_DELAY_MS - took) * 1000);
		}
		reply = web_reply(pg.buf, id);
		free(pg.buf);
		if (reply == NULL || *reply == '\0')
			fprintf(stderr, "web: a page with no reply\n");
		else if (printf("%s\n", reply) < 0 || fflush(stdout) == EOF) {
			free(reply);
			break;
		}
		free(reply);
	}
	free(line);
	curl_easy_cleanup(c);
	curl_global_cleanup();
	return (0);
}
