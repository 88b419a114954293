/*
 * The persisted state: the running round (number, seed, times), its
 * placements as shown to operators, and every link.  It is rewritten
 * whole on every change (temporary file, fsync, rename), so a daemon
 * killed at any moment finds either the old state or the new one, and a
 * restarted daemon resumes the round and the manual links.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "muxd.h"

static char	state_path[PATH_MAX];
static char	state_dir[PATH_MAX];

/* Create a directory and its parents. */
int
state_mkdirs(const char *dir)
{
	char	tmp[PATH_MAX], *s;

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (s = tmp + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(tmp, 0750) == -1 && errno != EEXIST)
			return (-1);
		*s = '/';
	}
	if (mkdir(tmp, 0750) == -1 && errno != EEXIST)
		return (-1);
	return (0);
}

/* Choose the state directory, creating it if needed. */
void
state_init(const char *dir)
{
	snprintf(state_dir, sizeof(state_dir), "%s", dir);
	snprintf(state_path, sizeof(state_path), "%s/state.json", dir);
	if (state_mkdirs(dir) == -1)
		log_warn("state directory %s", dir);
}

/* Write the state file atomically; failures are logged, not fatal. */
int
state_save(void)
{
	char		 tmp[PATH_MAX + 8];
	struct link	*l;
	json_t		*o, *ls, *rj, *pl;
	int		 fd, dfd;

	if (state_path[0] == '\0')
		return (0);
	ls = json_array();
	TAILQ_FOREACH(l, &links, entry)
		json_array_append_new(ls, json_pack("{ssssssss}", "name",
		    l->name, "a", l->a->name, "b", l->b->name, "origin",
		    l->origin == LINK_ROUND ? "round" : "manual"));
	rj = round_json();
	pl = json_object_get(rj, "placements");
	o = json_pack("{sisIs{sbsisisIsIsI}sOsoso}", "v", 1,
	    "saved", (json_int_t)time(NULL),
	    "round", "active", round_cur.active, "number", round_cur.number,
	    "last", round_cur.last, "seed", (json_int_t)round_cur.seed,
	    "started", (json_int_t)round_cur.started,
	    "ends", (json_int_t)round_cur.ends,
	    "placements", pl != NULL ? pl : json_null(), "links", ls,
	    "assertions", rules_verdicts_json());
	json_decref(rj);
	snprintf(tmp, sizeof(tmp), "%s.tmp", state_path);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640)) ==
	    -1) {
		log_warn("state %s", tmp);
		json_decref(o);
		return (-1);
	}
	if (json_dumpfd(o, fd, JSON_INDENT(1)) == -1 || write(fd, "\n", 1) != 1 ||
	    fsync(fd) == -1 || close(fd) == -1 || rename(tmp, state_path) == -1) {
		log_warn("state %s", state_path);
		json_decref(o);
		return (-1);
	}
	if ((dfd = open(state_dir, O_RDONLY | O_DIRECTORY)) != -1) {
		fsync(dfd);
		close(dfd);
	}
	json_decref(o);
	return (0);
}

/* Read the state file, restoring the round and the manual links. */
int
state_load(void)
{
	json_error_t	 jerr;
	json_t		*o, *ls, *e;
	json_int_t	 seed = 0, started = 0, ends = 0;
	const char	*a, *b, *origin;
	char		 name[128], err[MUXD_ERRLEN];
	struct port	*pa, *pb;
	struct link	*l;
	size_t		 i;
	int		 active = 0, number = 0, last = 0, v = 0;

	if ((o = json_load_file(state_path, 0, &jerr)) == NULL) {
		if (access(state_path, F_OK) == 0)
			log_warnx("state %s:%d: %s; starting afresh",
			    state_path, jerr.line, jerr.text);
		return (0);
	}
	if (json_unpack_ex(o, &jerr, 0, "{si s{sb si si sI sI sI} so}", "v", &v,
	    "round", "active", &active, "number", &number, "last", &last,
	    "seed", &seed, "started", &started, "ends", &ends,
	    "links", &ls) == -1 || v != 1 || !json_is_array(ls)) {
		log_warnx("state %s: not a muxd state file (%s); starting "
		    "afresh", state_path, jerr.text);
		json_decref(o);
		return (-1);
	}
	round_cur.active = active;
	round_cur.number = number;
	round_cur.last = last;
	round_cur.seed = (uint64_t)seed;
	round_cur.started = (time_t)started;
	round_cur.ends = (time_t)ends;
	json_array_foreach(ls, i, e) {
		if (json_unpack(e, "{ssssss}", "a", &a, "b", &b, "origin",
		    &origin) == -1 || strcmp(origin, "manual") != 0)
			continue;
		if ((pa = port_find(a)) == NULL || (pb = port_find(b)) == NULL) {
			log_warnx("state: link %s=%s not restored: port gone",
			    a, b);
			continue;
		}
		snprintf(name, sizeof(name), "%s=%s", a, b);
		if ((l = link_new(name, pa, pb, LINK_MANUAL, err,
		    sizeof(err))) == NULL)
			log_warnx("state: link %s not restored: %s", name, err);
		else
			link_started(l);
	}
	if ((e = json_object_get(o, "assertions")) != NULL &&
	    json_is_array(e))
		rules_verdicts_load(e);
	json_decref(o);
	round_resume();
	return (0);
}
