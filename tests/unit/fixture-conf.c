/*
 * Fixtures for the unit tests of the configuration parser: rooms written
 * to order, and the checks that a configuration is accepted or refused
 * with exactly one message (see fixture-conf.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "conf.h"
#include "fixture-conf.h"

/* Append text to a room, counting its lines. */
void
fixture_conf_add(struct fixture_conf_room *r, const char *fmt, ...)
{
	va_list	ap;
	size_t	i;
	int	n;

	if (r->line == 0)
		r->line = 1;
	va_start(ap, fmt);
	n = vsnprintf(r->text + r->len, sizeof(r->text) - r->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(r->text) - r->len);
	for (i = r->len; i < r->len + (size_t)n; i++)
		if (r->text[i] == '\n')
			r->line++;
	r->len += n;
}

/*
 * Write a room of nst stations (Jn, ports jn-left and jn-right), nen
 * entries (En on en) and ncn confederates (Cn on cn), one item a line.
 */
void
fixture_conf_build(struct fixture_conf_room *r, int nst, int nen, int ncn)
{
	int	i;

	memset(r, 0, sizeof(*r));
	fixture_conf_add(r, "ports = (\n");
	for (i = 1; i <= nst; i++)
		fixture_conf_add(r, "  { name = \"j%d-left\"; address = "
		    "\"/dev/muxd/j%d-left\"; },\n  { name = \"j%d-right\"; "
		    "address = \"/dev/muxd/j%d-right\"; },\n", i, i, i, i);
	for (i = 1; i <= nen; i++)
		fixture_conf_add(r, "  { name = \"e%d\"; address = "
		    "\"/dev/muxd/e%d\"; },\n", i, i);
	for (i = 1; i <= ncn; i++)
		fixture_conf_add(r, "  { name = \"c%d\"; address = "
		    "\"/dev/muxd/c%d\"; },\n", i, i);
	fixture_conf_add(r, "  { name = \"spare\"; address = "
	    "\"/dev/muxd/spare\"; }\n);\n");
	if (nst > 0) {
		fixture_conf_add(r, "stations = (\n");
		for (i = 1; i <= nst; i++)
			fixture_conf_add(r, "  { name = \"J%d\"; judge = %d; "
			    "left = \"j%d-left\"; right = \"j%d-right\"; }%s\n",
			    i, i, i, i, i < nst ? "," : "");
		fixture_conf_add(r, ");\n");
	}
	if (nen + ncn > 0) {
		fixture_conf_add(r, "entities = (\n");
		for (i = 1; i <= nen; i++)
			fixture_conf_add(r, "  { name = \"E%d\"; kind = "
			    "\"entry\"; port = \"e%d\"; approved = "
			    "\"Entry%d\"; }%s\n", i, i, i,
			    i < nen || ncn > 0 ? "," : "");
		for (i = 1; i <= ncn; i++)
			fixture_conf_add(r, "  { name = \"C%d\"; kind = "
			    "\"confederate\"; port = \"c%d\"; approved = "
			    "\"Human%d\"; }%s\n", i, i, i, i < ncn ? "," : "");
		fixture_conf_add(r, ");\n");
	}
}

/* Check that a configuration is refused with exactly this message. */
void
fixture_conf_error(const char *text, const char *want)
{
	struct conf	*conf;
	char		 err[LINE_ERRLEN];

	memset(err, 0, sizeof(err));
	conf = conf_load_string("bad.conf", text, err, sizeof(err));
	if (conf != NULL) {
		conf_free(conf);
		fail_msg("configuration accepted; expected \"%s\"", want);
	}
	if (strcmp(err, want) != 0)
		fail_msg("wrong error\n  expected: %s\n       got: %s", want,
		    err);
}

/* Load a configuration that must be accepted. */
struct conf *
fixture_conf_load(const char *name, const char *text)
{
	struct conf	*conf;
	char		 err[LINE_ERRLEN];

	memset(err, 0, sizeof(err));
	if ((conf = conf_load_string(name, text, err, sizeof(err))) == NULL)
		fail_msg("configuration refused: %s", err);
	return (conf);
}

/* Run a row of an error table (the test's state). */
void
fixture_conf_case(void **state)
{
	const struct fixture_conf_case	*c = *state;
	struct fixture_conf_room	 r;
	char				 want[512];
	int				 line;

	if (!c->room) {
		fixture_conf_error(c->text, c->want);
		return;
	}
	fixture_conf_build(&r, c->nst, c->nen, c->ncn);
	fixture_conf_add(&r, "%s", c->text);
	line = r.line;
	fixture_conf_add(&r, "%s", c->at);
	snprintf(want, sizeof(want), "bad.conf:%d: %s", line, c->want);
	fixture_conf_error(r.text, want);
}
