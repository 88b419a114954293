/*
 * muxctl: the output for people of muxctl(8), what it prints without -j.
 *
 * The result of status, round start and stop, connect, disconnect, reload,
 * schedule and ports, and each event of a watch, as text.  Every string from
 * muxd is written with its control characters escaped, so that nothing it
 * holds can drive the terminal (muxctl-fmt.c: the formats and tables).
 * muxctl.c sends the request and reads the reply.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "muxctl.h"


static void	 muxctl_show_round(const json_t *, const char *);
static void	 muxctl_show_placements(const json_t *);
static void	 muxctl_show_ports(const json_t *);
static void	 muxctl_show_links(const json_t *);
static void	 muxctl_show_status(const json_t *);
static void	 muxctl_show_record_faults(const json_t *, const char *);
static void	 muxctl_show_ends_waiting(const json_t *);
static void	 muxctl_show_entries(const json_t *);
static void	 muxctl_show_schedule(const json_t *);
static void	 muxctl_show_value(const json_t *);
static void	 muxctl_show_text(const json_t *);
static void	 muxctl_show_serial(const json_t *);
static void	 muxctl_show_holder(const json_t *, char *, size_t);

/*
 * The lines a waiting round waits for, after its line: ": J1 e1
 * (down: read: EIO), J2 c2 (down)", then the end of the line.
 */
static void
muxctl_show_waiting(const json_t *lines)
{
	const json_t	*l;
	const char	*err;
	size_t		 i;

	json_array_foreach(lines, i, l) {
		fputs(i == 0 ? ": " : ", ", stdout);
		muxctl_fmt_put_str(stdout, muxctl_fmt_or(l, "station"), 0);
		putchar(' ');
		muxctl_fmt_put_str(stdout, muxctl_fmt_or(l, "port"), 0);
		fputs(" (", stdout);
		muxctl_fmt_put_str(stdout, muxctl_fmt_or(l, "state"), 0);
		if ((err = muxctl_get_str(l, "error")) != NULL) {
			fputs(": ", stdout);
			muxctl_fmt_put_str(stdout, err, 0);
		}
		putchar(')');
	}
	putchar('\n');
}

/*
 * Print the round line: "round 3 running since 10:00:00, ends 10:25:00,
 * seed 42", or "no round running (last round 2)".
 */
static void
muxctl_show_round(const json_t *round, const char *verb)
{
	const json_t	*seed, *w;
	char		 num[32], started[64], ends[64];
	double		 t;

	if (!json_is_object(round)) {
		printf("round unknown\n");
		return;
	}
	if (!json_is_true(json_object_get(round, "active"))) {
		w = json_object_get(round, "waiting");
		if (json_is_object(w) && muxctl_fmt_get_num(w, "until", &t)) {
			muxctl_fmt_clock(t, 0, ends, sizeof(ends));
			printf("round %s waits for its lines until %s",
			    muxctl_fmt_int(w, "number", num, sizeof(num)),
			    ends);
			muxctl_show_waiting(json_object_get(w, "lines"));
		} else if (json_is_integer(json_object_get(round, "last")))
			printf("no round running (last round %s)\n",
			    muxctl_fmt_int(round, "last", num,
			    sizeof(num)));
		else
			printf("no round running\n");
		return;
	}
	if (muxctl_fmt_get_num(round, "started", &t))
		muxctl_fmt_clock(t, 0, started, sizeof(started));
	else
		snprintf(started, sizeof(started), "?");
	if (muxctl_fmt_get_num(round, "ends", &t)) {
		snprintf(ends, sizeof(ends), "ends ");
		muxctl_fmt_clock(t, 0, ends + 5, sizeof(ends) - 5);
	} else
		snprintf(ends, sizeof(ends), "no time limit");
	printf("round %s %s %s, %s", muxctl_fmt_int(round, "number", num,
	    sizeof(num)), verb, started, ends);
	seed = json_object_get(round, "seed");
	if (json_is_integer(seed))	/* muxd's seed is a uint64_t */
		printf(", seed %llu",
		    (unsigned long long)json_integer_value(seed));
	putchar('\n');
}

/* Print the placements of a round: "J1 (judge 1): left E1, right C1". */
static void
muxctl_show_placements(const json_t *round)
{
	const json_t	*pl, *p;
	const char	*station, *left, *right;
	size_t		 i;

	pl = json_object_get(round, "placements");
	json_array_foreach(pl, i, p) {
		station = muxctl_get_str(p, "station");
		left = muxctl_get_str(p, "left");
		right = muxctl_get_str(p, "right");
		muxctl_fmt_put_str(stdout, station != NULL ? station : "?", 0);
		if (json_is_integer(json_object_get(p, "judge")))
			printf(" (judge %lld)", (long long)
			    json_integer_value(json_object_get(p, "judge")));
		fputs(": left ", stdout);
		muxctl_fmt_put_str(stdout, left != NULL ? left : "-", 0);
		fputs(", right ", stdout);
		muxctl_fmt_put_str(stdout, right != NULL ? right : "-", 0);
		putchar('\n');
	}
}

/* Print the table of ports, with the error of each port that is not up. */
static void
muxctl_show_ports(const json_t *list)
{
	static const int	 right[] = { 0, 0, 1, 1, 1, 1, 0, 0, 0 };
	static const char	*head[] = { "NAME", "STATE", "IN", "OUT",
	    "DROP", "QUEUED", "LAST-ACTIVITY", "LINK", "ADDRESS" };
	struct muxctl_table	 t;
	const json_t		*p;
	const char		*row[9], *state, *error;
	char			 in[32], out[32], drop[32], queued[32];
	char			 age[32], *note;
	double			 now, last, t1;
	size_t			 i;

	if (json_array_size(list) == 0) {
		printf("no ports\n");
		return;
	}
	now = muxctl_fmt_now();
	muxctl_fmt_table_init(&t, 9, right);
	muxctl_fmt_table_add(&t, head, NULL);
	json_array_foreach(list, i, p) {
		state = muxctl_get_str(p, "state");
		last = -1;
		if (muxctl_fmt_get_num(p, "last_in", &t1))
			last = t1;
		if (muxctl_fmt_get_num(p, "last_out", &t1) && t1 > last)
			last = t1;
		if (last >= 0)
			muxctl_fmt_age(last, now, age, sizeof(age));
		else
			snprintf(age, sizeof(age), "-");
		row[0] = muxctl_get_str(p, "name");
		row[1] = state;
		row[2] = muxctl_fmt_int(p, "bytes_in", in, sizeof(in));
		row[3] = muxctl_fmt_int(p, "bytes_out", out, sizeof(out));
		row[4] = muxctl_fmt_int(p, "dropped", drop, sizeof(drop));
		row[5] = muxctl_fmt_int(p, "queued", queued,
		    sizeof(queued));
		row[6] = age;
		row[7] = muxctl_get_str(p, "link");
		row[8] = muxctl_get_str(p, "address");
		error = muxctl_get_str(p, "error");
		note = NULL;
		if (error != NULL && *error != '\0' &&
		    (state == NULL || strcmp(state, "up") != 0) &&
		    asprintf(&note, "error: %s", error) == -1)
			err(PROTOCOL_EXIT_PROTOCOL, "asprintf");
		muxctl_fmt_table_add(&t, row, note);
		free(note);
	}
	muxctl_fmt_table_print(&t);
}

/* Print the table of links. */
static void
muxctl_show_links(const json_t *list)
{
	static const int	 right[] = { 0, 0, 0, 0, 1, 0, 0, 0 };
	static const char	*head[] = { "NAME", "A", "B", "ORIGIN",
	    "ROUND", "STATION", "SIDE", "ENTITY" };
	struct muxctl_table	 t;
	const json_t		*l, *r;
	const char		*row[8];
	char			 round[32];
	size_t			 i;

	if (json_array_size(list) == 0) {
		printf("no links\n");
		return;
	}
	muxctl_fmt_table_init(&t, 8, right);
	muxctl_fmt_table_add(&t, head, NULL);
	json_array_foreach(list, i, l) {
		r = json_object_get(l, "round");
		if (json_is_integer(r) && json_integer_value(r) > 0)
			muxctl_fmt_int(l, "round", round, sizeof(round));
		else
			snprintf(round, sizeof(round), "-");
		row[0] = muxctl_get_str(l, "name");
		row[1] = muxctl_get_str(l, "a");
		row[2] = muxctl_get_str(l, "b");
		row[3] = muxctl_get_str(l, "origin");
		row[4] = round;
		row[5] = muxctl_get_str(l, "station");
		row[6] = muxctl_get_str(l, "side");
		row[7] = muxctl_get_str(l, "entity");
		muxctl_fmt_table_add(&t, row, NULL);
	}
	muxctl_fmt_table_print(&t);
}

/* Warn when the room's programs (exec:) run as muxd's own user. */
static void
muxctl_show_entries(const json_t *st)
{
	const json_t	*e = json_object_get(st, "entries"), *p;
	const char	*user, *kind;
	size_t		 i;

	if (e == NULL || json_is_true(json_object_get(e, "own")))
		return;
	json_array_foreach(json_object_get(st, "ports"), i, p) {
		kind = muxctl_get_str(p, "kind");
		if (kind == NULL || strcmp(kind, "exec") != 0)
			continue;
		user = muxctl_get_str(e, "user");
		printf("WARNING: entries run as ");
		muxctl_fmt_put_str(stdout, user != NULL ? user : "?", 0);
		printf(", muxd's own user: they can reach its socket and "
		    "files\n");
		return;
	}
}

/*
 * Print the recording faults of the links or ports of a status: what
 * failed, and what it lost so far.
 */
static void
muxctl_show_record_faults(const json_t *list, const char *kind)
{
	const json_t	*o, *r;
	const char	*why, *name;
	size_t		 i;

	json_array_foreach(list, i, o) {
		if (!json_is_object(r = json_object_get(o, "record")))
			continue;
		name = muxctl_get_str(o, "name");
		why = muxctl_get_str(r, "error");
		printf("FAULT: the recording of %s ", kind);
		muxctl_fmt_put_str(stdout, name != NULL ? name : "?", 0);
		printf(": ");
		muxctl_fmt_put_str(stdout, why != NULL ? why : "?", 0);
		printf("; lost so far %lld bytes input, %lld output\n",
		    (long long)json_integer_value(json_object_get(r,
		    "lost_input")), (long long)json_integer_value(
		    json_object_get(r, "lost_output")));
	}
}

/*
 * Print the recordings whose end the disk refused: kept open, their end
 * written at a later sync.
 */
static void
muxctl_show_ends_waiting(const json_t *list)
{
	const json_t	*o;
	const char	*why, *name;
	size_t		 i;

	json_array_foreach(list, i, o) {
		name = muxctl_get_str(o, "record");
		why = muxctl_get_str(o, "error");
		printf("FAULT: the end of the recording of ");
		muxctl_fmt_put_str(stdout, name != NULL ? name : "?", 0);
		printf(" waits for the disk");
		if (why != NULL) {
			printf(": ");
			muxctl_fmt_put_str(stdout, why, 0);
		}
		printf("; kept open, written at the next sync with room\n");
	}
}

/* Print a status result: the round line, the ports, the links. */
static void
muxctl_show_status(const json_t *st)
{
	const char	*why;
	const json_t	*c;

	/* Faults first: what the operator must not miss. */
	if ((why = muxctl_get_str(json_object_get(st, "state"), "error")) !=
	    NULL) {
		printf("FAULT: the state cannot be saved: ");
		muxctl_fmt_put_str(stdout, why, 0);
		printf("\n");
	}
	muxctl_show_record_faults(json_object_get(st, "links"), "link");
	muxctl_show_record_faults(json_object_get(st, "ports"), "port");
	muxctl_show_ends_waiting(json_object_get(st, "ends_waiting"));
	c = json_object_get(st, "control");
	if (json_integer_value(json_object_get(c, "refused")) > 0) {
		printf("control: %lld clients refused, the last: ",
		    (long long)json_integer_value(json_object_get(c,
		    "refused")));
		why = muxctl_get_str(c, "refusal");
		muxctl_fmt_put_str(stdout, why != NULL ? why : "?", 0);
		printf("\n");
	}
	muxctl_show_entries(st);
	muxctl_show_round(json_object_get(st, "round"), "running since");
	putchar('\n');
	muxctl_show_ports(json_object_get(st, "ports"));
	putchar('\n');
	muxctl_show_links(json_object_get(st, "links"));
}

/*
 * Print the schedule like the table in the 2004 rules, one round a line:
 * "1  J1:E1:C1 J2:E3:C2 J3:E2:C4   excused J4 C3".
 */
static void
muxctl_show_schedule(const json_t *sch)
{
	const json_t	*rounds, *r, *pair;
	const char	*preset, *excused, *station, *entry, *conf;
	char		**parts, num[32], dur[32];
	size_t		 i, j, n, w, nw;
	double		 d;
	FILE		*fp;

	preset = muxctl_get_str(sch, "preset");
	printf("schedule: ");
	if (preset != NULL) {
		printf("preset ");
		muxctl_fmt_put_str(stdout, preset, 0);
	} else
		printf("from the configuration");
	if (muxctl_fmt_get_num(sch, "duration", &d) && d > 0) {
		muxctl_fmt_duration((long long)d, dur, sizeof(dur));
		printf(", rounds of %s", dur);
	} else
		printf(", rounds untimed");
	putchar('\n');

	rounds = json_object_get(sch, "rounds");
	if ((n = json_array_size(rounds)) == 0) {
		printf("no rounds\n");
		return;
	}
	if ((parts = calloc(n, sizeof(*parts))) == NULL)
		err(PROTOCOL_EXIT_PROTOCOL, "calloc");
	w = nw = 0;
	json_array_foreach(rounds, i, r) {
		if ((fp = open_memstream(&parts[i], &j)) == NULL)
			err(PROTOCOL_EXIT_PROTOCOL, "open_memstream");
		json_array_foreach(json_object_get(r, "pairs"), j, pair) {
			station = muxctl_get_str(pair, "station");
			entry = muxctl_get_str(pair, "entry");
			conf = muxctl_get_str(pair, "confederate");
			if (j > 0)
				putc(' ', fp);
			if (station != NULL)
				fputs(station, fp);
			else
				fprintf(fp, "J%s", muxctl_fmt_int(pair,
				    "judge", num, sizeof(num)));
			fprintf(fp, ":%s:%s", entry != NULL ? entry : "-",
			    conf != NULL ? conf : "-");
		}
		if (fclose(fp) != 0)
			err(PROTOCOL_EXIT_PROTOCOL, "open_memstream");
		if (muxctl_fmt_width(parts[i]) > w)
			w = muxctl_fmt_width(parts[i]);
		if (strlen(muxctl_fmt_int(r, "round", num,
		    sizeof(num))) > nw)
			nw = strlen(num);
	}
	json_array_foreach(rounds, i, r) {
		printf("%-*s  ", (int)nw, muxctl_fmt_int(r, "round", num,
		    sizeof(num)));
		if (*parts[i] == '\0') {
			free(parts[i]);
			if ((parts[i] = strdup("-")) == NULL)
				err(PROTOCOL_EXIT_PROTOCOL, "strdup");
		}
		muxctl_fmt_put_str(stdout, parts[i], 0);
		excused = muxctl_get_str(r, "excused");
		if (excused != NULL && *excused != '\0') {
			printf("%*s   excused ",
			    (int)(w - muxctl_fmt_width(parts[i])), "");
			muxctl_fmt_put_str(stdout, excused, 0);
		}
		putchar('\n');
		free(parts[i]);
	}
	free(parts);
}

/* Print one event value: bare if it can be, else quoted or as JSON. */
static void
muxctl_show_value(const json_t *v)
{
	const unsigned char	*p;
	char			 buf[64], *text;
	int			 bare;

	if (v == NULL) {
		fputs("-", stdout);
		return;
	}
	switch (json_typeof(v)) {
	case JSON_STRING:
		p = (const unsigned char *)json_string_value(v);
		bare = *p != '\0';
		for (; *p != '\0' && bare; p++)
			if (*p <= ' ' || *p == '"' || *p == '\\' ||
			    *p == '=' || *p == 0x7f || muxctl_fmt_c1(p))
				bare = 0;
		muxctl_fmt_put_str(stdout, json_string_value(v), !bare);
		break;
	case JSON_INTEGER:
		printf("%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		muxctl_fmt_real(json_real_value(v), buf, sizeof(buf));
		fputs(buf, stdout);
		break;
	case JSON_TRUE:
		fputs("true", stdout);
		break;
	case JSON_FALSE:
		fputs("false", stdout);
		break;
	case JSON_NULL:
		fputs("-", stdout);
		break;
	default:
		text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		if (text == NULL)
			errx(PROTOCOL_EXIT_PROTOCOL, "out of memory");
		muxctl_fmt_put_str(stdout, text, 0);
		free(text);
		break;
	}
}

/* Print a value inside a sentence: a string bare, escaped; else as JSON. */
static void
muxctl_show_text(const json_t *v)
{
	if (json_is_string(v))
		muxctl_fmt_put_str(stdout, json_string_value(v), 0);
	else
		muxctl_show_value(v);
}

/* Print one event: "10:00:01.234 port.down name=j1-left error=...". */
void
muxctl_show_event(const json_t *ev)
{
	const char	*key;
	json_t		*v;
	char		 when[64];
	double		 t;

	if (!muxctl_fmt_get_num(ev, "time", &t))
		t = muxctl_fmt_now();
	muxctl_fmt_clock(t, 1, when, sizeof(when));
	printf("%s ", when);
	muxctl_fmt_put_str(stdout, muxctl_get_str(ev, "event"), 0);
	json_object_foreach((json_t *)ev, key, v) {
		if (strcmp(key, "v") == 0 || strcmp(key, "event") == 0 ||
		    strcmp(key, "time") == 0)
			continue;
		putchar(' ');
		muxctl_fmt_put_str(stdout, key, 0);
		putchar('=');
		muxctl_show_value(v);
	}
	putchar('\n');
}

/* Print the result of a command for people. */
void
muxctl_show(const char *cmd, const json_t *result)
{
	int	c = protocol_cmd_find(cmd);

	if (c == PROTOCOL_CMD_STATUS)
		muxctl_show_status(result);
	else if (c == PROTOCOL_CMD_ROUND_START) {
		muxctl_show_round(result, "started at");
		muxctl_show_placements(result);
	} else if (c == PROTOCOL_CMD_ROUND_STOP) {
		printf("round ");
		muxctl_show_text(json_object_get(result, "number"));
		printf(json_is_true(json_object_get(result, "waited")) ?
		    " no longer waits for its lines\n" : " stopped\n");
	} else if (c == PROTOCOL_CMD_CONNECT) {
		result = json_object_get(result, "link");
		printf("connected ");
		muxctl_show_text(json_object_get(result, "a"));
		printf(" <-> ");
		muxctl_show_text(json_object_get(result, "b"));
		printf(" as link ");
		muxctl_show_text(json_object_get(result, "name"));
		putchar('\n');
	} else if (c == PROTOCOL_CMD_DISCONNECT ||
	    c == PROTOCOL_CMD_RELEASE) {
		printf("%s link ", c == PROTOCOL_CMD_RELEASE ?
		    "released the held output of" : "disconnected");
		muxctl_show_text(json_object_get(result, "link"));
		putchar('\n');
	} else if (c == PROTOCOL_CMD_RELOAD) {
		printf("reloaded");
		if (json_is_string(json_object_get(result, "config"))) {
			putchar(' ');
			muxctl_show_text(json_object_get(result, "config"));
		}
		putchar('\n');
	} else if (c == PROTOCOL_CMD_SCHEDULE)
		muxctl_show_schedule(result);
	else if (c == PROTOCOL_CMD_PORTS)
		muxctl_show_serial(json_object_get(result, "ports"));
}

/*
 * Say who holds a serial port: the muxd port (from muxd), the process
 * with its lock (a local listing), or a libusb program for an FTDI chip
 * bound to usbfs.
 */
static void
muxctl_show_holder(const json_t *o, char *buf, size_t len)
{
	const json_t	*lk = json_object_get(o, "locked_by");
	const char	*port, *state, *drv, *prog;
	char		 pid[32];

	port = muxctl_get_str(o, "port");
	state = muxctl_get_str(o, "port_state");
	drv = muxctl_get_str(o, "driver");
	if (port != NULL)
		snprintf(buf, len, "muxd %s (%s)", port,
		    json_is_false(json_object_get(o, "present")) ? "missing" :
		    state != NULL ? state : "?");
	else if (lk != NULL) {
		prog = muxctl_get_str(lk, "program");
		snprintf(buf, len, "%s[%s]", prog != NULL ? prog : "?",
		    muxctl_fmt_int(lk, "pid", pid, sizeof(pid)));
	} else if (drv != NULL && strcmp(drv, "usbfs") == 0)
		snprintf(buf, len, "a libusb program");
	else
		snprintf(buf, len, "-");
}

/*
 * Print the host's serial ports, one a line: device, driver, USB vendor
 * and product, serial number, holder; the stable names and the ftdi:
 * address on a line below.
 */
static void
muxctl_show_serial(const json_t *list)
{
	static const int	 right[] = { 0, 0, 0, 0, 0 };
	static const char	*head[] = { "DEVICE", "DRIVER", "USB",
	    "SERIAL", "HELD-BY" };
	struct muxctl_table	 t;
	const json_t		*o, *l;
	const char		*row[5], *vid, *pid, *s;
	char			 usb[16], holder[160], *note;
	size_t			 i, j, len;
	FILE			*fp;

	if (json_array_size(list) == 0) {
		printf("no serial ports\n");
		return;
	}
	muxctl_fmt_table_init(&t, 5, right);
	muxctl_fmt_table_add(&t, head, NULL);
	json_array_foreach(list, i, o) {
		vid = muxctl_get_str(o, "vid");
		pid = muxctl_get_str(o, "pid");
		snprintf(usb, sizeof(usb), "%s:%s", vid != NULL ? vid : "",
		    pid != NULL ? pid : "");
		muxctl_show_holder(o, holder, sizeof(holder));
		row[0] = muxctl_get_str(o, "device");
		row[1] = muxctl_get_str(o, "driver");
		row[2] = vid != NULL ? usb : NULL;
		row[3] = muxctl_get_str(o, "serial");
		row[4] = holder;
		note = NULL;
		if ((fp = open_memstream(&note, &len)) == NULL)
			err(PROTOCOL_EXIT_PROTOCOL, "open_memstream");
		if ((s = muxctl_get_str(o, "options")) != NULL)
			fprintf(fp, " ,%s", s);
		if ((s = muxctl_get_str(o, "by_id")) != NULL)
			fprintf(fp, " %s", s);
		if ((s = muxctl_get_str(o, "by_path")) != NULL &&
		    muxctl_get_str(o, "serial") == NULL)
			fprintf(fp, " %s", s);
		json_array_foreach(json_object_get(o, "links"), j, l)
			if (json_is_string(l))
				fprintf(fp, " %s", json_string_value(l));
		if ((s = muxctl_get_str(o, "ftdi")) != NULL)
			fprintf(fp, " %s", s);
		if ((s = muxctl_get_str(o, "address")) != NULL)
			fprintf(fp, " %s", s);
		fclose(fp);
		muxctl_fmt_table_add(&t, row, len > 0 ? note + 1 : NULL);
		free(note);
	}
	muxctl_fmt_table_print(&t);
}
