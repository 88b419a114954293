/*
 * Fixtures for the unit tests of the configuration parser (muxd/conf*.c):
 * a small room to build on, rooms of any size written one item a line,
 * and tables of bad configurations, each row a cmocka test of its own
 * that expects exactly one "FILE:LINE: what is wrong" message.
 *
 * Configurations are written one source line per string literal so that
 * the expected line numbers can be read off the test.
 */
#ifndef FIXTURE_CONF_H
#define FIXTURE_CONF_H

/* Lines 1-6: four ports. */
#define PORTS								\
	"ports = (\n"							\
	"  { name = \"j1-left\"; address = \"/dev/muxd/j1-left\"; },\n"	\
	"  { name = \"j1-right\"; address = \"/dev/muxd/j1-right\"; },\n" \
	"  { name = \"e1\"; address = \"exec:/bin/cat\"; },\n"		\
	"  { name = \"c1\"; address = \"tcp-listen:7001\"; }\n"		\
	");\n"
/* Lines 7-9: one station. */
#define STATIONS							\
	"stations = (\n"						\
	"  { name = \"J1\"; judge = 1; left = \"j1-left\"; "		\
	"right = \"j1-right\"; }\n"					\
	");\n"
/* Lines 10-13: one entry, one confederate. */
#define ENTITIES							\
	"entities = (\n"						\
	"  { name = \"E1\"; kind = \"entry\"; port = \"e1\"; "		\
	"approved = \"Eliza\"; },\n"					\
	"  { name = \"C1\"; kind = \"confederate\"; port = \"c1\"; "	\
	"approved = \"John\"; }\n"					\
	");\n"
/* Lines 1-13; a schedule added after it starts on line 14. */
#define ROOM	PORTS STATIONS ENTITIES

/* A room written by fixture_conf_build(), with the number of its next line. */
struct fixture_conf_room {
	char	text[16384];
	size_t	len;
	int	line;
};

/*
 * A bad configuration and the message it must get.  Without a room, text
 * is the whole configuration and want the whole message.  With one (nst
 * stations, nen entries, ncn confederates, as fixture_conf_build writes
 * them), text follows the room, then at, and want is the message after
 * "bad.conf:LINE: ", LINE being where at starts.
 */
struct fixture_conf_case {
	const char	*text;
	const char	*want;
	int		 room;
	int		 nst, nen, ncn;
	const char	*at;
};

/* A row of a cmocka test list: text refused with exactly want. */
#define FIXTURE_CONF_ERROR(name, text, want)				\
	{ name, fixture_conf_case, NULL, NULL,				\
	    &(struct fixture_conf_case){ text, want, 0, 0, 0, 0, NULL } }
/* The same after a room of nst, nen and ncn, with the error in at. */
#define FIXTURE_CONF_ROOM_ERROR(name, nst, nen, ncn, text, at, want)	\
	{ name, fixture_conf_case, NULL, NULL,				\
	    &(struct fixture_conf_case){ text, want, 1, nst, nen, ncn, at } }

void		 fixture_conf_add(struct fixture_conf_room *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 fixture_conf_build(struct fixture_conf_room *, int, int, int);
void		 fixture_conf_error(const char *, const char *);
struct conf	*fixture_conf_load(const char *, const char *);
void		 fixture_conf_case(void **);

#endif /* FIXTURE_CONF_H */
