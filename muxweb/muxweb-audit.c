/*
 * The auditor's side (-a DIR): a directory of captures, read-only.
 *
 *	/audit			the audit page
 *	/audit/list		the captures: name, size, time, header (or
 *				why it does not read), and what verify
 *				says of each ("verify": its state, finding)
 *	/audit/cast/NAME	a capture as it is (the raw capture)
 *	/audit/screen/NAME	the judge's screen of a capture, as
 *				"transcripts export --screen" makes it, for
 *				the player
 *	/audit/transcript/NAME	its transcript, "transcripts render"
 *	/audit/verify/NAME	what "transcripts verify" says of it, and its
 *				exit status
 *	/audit/index		the round index, "transcripts index -j" of
 *				the state directory (DIR/..) or of DIR
 *	/audit/manifests	what "transcripts verify" says of the round
 *				manifests (DIR/manifests or DIR/../manifests,
 *				muxd's layout), with the room's key (-k)
 *	/player/FILE		asciinema-player's script and style (-p DIR,
 *				installed from the npm registry)
 *
 * A NAME is a file of DIR, letters, digits, '.', '-' and '_' alone, no
 * link followed: nothing outside the directory is served.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocol.h"
#include "muxweb.h"

#define MUXWEB_AUDIT_MAX	(64 * 1024 * 1024)	/* bytes of a file */

static char	*muxweb_audit_dir;
static char	*muxweb_audit_player;
static char	*muxweb_audit_tool;
static char	*muxweb_audit_key;

static char	*muxweb_audit_run(char *const [], int);
static json_t	*muxweb_audit_verify_json(const char *);

/*
 * Take the captures' directory, the player's, the transcripts tool and
 * the room's public key (or NULL).
 */
void
muxweb_audit_init(const char *dir, const char *player, const char *tool,
    const char *key)
{
	muxweb_audit_dir = dir != NULL ? strdup(dir) : NULL;
	muxweb_audit_player = player != NULL ? strdup(player) : NULL;
	muxweb_audit_tool = strdup(tool);
	muxweb_audit_key = key != NULL ? strdup(key) : NULL;
}

/* Tell whether a name is a plain file name of the directory's kind. */
static int
muxweb_audit_name_ok(const char *name)
{
	size_t	i;

	if (name[0] == '\0' || name[0] == '.')
		return (0);
	for (i = 0; name[i] != '\0'; i++)
		if (!(name[i] >= 'a' && name[i] <= 'z') &&
		    !(name[i] >= 'A' && name[i] <= 'Z') &&
		    !(name[i] >= '0' && name[i] <= '9') &&
		    strchr(".-_", name[i]) == NULL)
			return (0);
	return (i < 256);
}

/* Read a file of a directory, no link followed; NULL with errno set. */
static char *
muxweb_audit_read(const char *dir, const char *name, size_t *len)
{
	struct stat	 st;
	char		*buf;
	ssize_t		 n;
	size_t		 off = 0;
	int		 dfd, fd;

	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return (NULL);
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(dfd);
	if (fd == -1)
		return (NULL);
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > MUXWEB_AUDIT_MAX ||
	    (buf = malloc((size_t)st.st_size + 1)) == NULL) {
		close(fd);
		errno = EINVAL;
		return (NULL);
	}
	while (off < (size_t)st.st_size &&
	    (n = read(fd, buf + off, (size_t)st.st_size - off)) > 0)
		off += (size_t)n;
	close(fd);
	buf[off] = '\0';
	*len = off;
	return (buf);
}

/* The captures of the directory, newest first by name, as JSON. */
static char *
muxweb_audit_list(void)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	json_t		*list = json_array(), *hdr;
	char		 path[4096], line[4096];
	FILE		*f;
	size_t		 n;
	char		*text;
	const char	*why;

	if ((d = opendir(muxweb_audit_dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			n = strlen(de->d_name);
			if (n < 6 || strcmp(de->d_name + n - 5, ".cast") != 0 ||
			    !muxweb_audit_name_ok(de->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s", muxweb_audit_dir,
			    de->d_name);
			if (lstat(path, &st) == -1 || !S_ISREG(st.st_mode))
				continue;
			hdr = NULL;
			why = "cannot be opened";
			if ((f = fopen(path, "r")) != NULL) {
				why = "its header (line 1) is not JSON";
				if (fgets(line, sizeof(line), f) != NULL)
					hdr = json_loads(line, 0, NULL);
				fclose(f);
			}
			if (hdr != NULL && !json_is_object(json_object_get(hdr,
			    "muxd")))
				why = "its header (line 1) has no \"muxd\" "
				    "object";
			else if (hdr != NULL)
				why = NULL;
			json_array_append_new(list, json_pack("{ss sI sI so "
			    "ss? so}", "name", de->d_name, "size",
			    (json_int_t)st.st_size, "mtime",
			    (json_int_t)st.st_mtime, "header", hdr != NULL ?
			    hdr : json_null(), "error", why, "verify",
			    muxweb_audit_verify_json(path)));
		}
		closedir(d);
	}
	text = json_dumps(list, JSON_COMPACT);
	json_decref(list);
	return (text);
}

/*
 * Run "transcripts verify" (with the room's key when there is one) on a
 * path: its output and status, JSON.
 */
static char *
muxweb_audit_verify(const char *path)
{
	char	*argv[6];
	int	 n = 0;

	argv[n++] = "transcripts";
	argv[n++] = "verify";
	if (muxweb_audit_key != NULL) {
		argv[n++] = "-k";
		argv[n++] = muxweb_audit_key;
	}
	argv[n++] = (char *)path;
	argv[n] = NULL;
	return (muxweb_audit_run(argv, 1));
}

/*
 * What verify says of one capture, in the one place that reads verify's
 * report (transcripts(1): a capture named alone exits 1 on an integrity
 * failure, else 3, intact but not proven by the manifests, which the
 * manifests' panel checks; 2 when it cannot check; each finding a line
 * "FILE[:LINE]: [offset N: ]KIND: what", notes and the summaries aside):
 * {"state": "sealed" (its own chain and closing seal intact) | "broken" |
 * "unchecked", "finding": the first finding or null, "status", "output"}.
 */
static json_t *
muxweb_audit_verify_json(const char *path)
{
	json_t		*o, *res;
	char		*text, *line, *next, *rest;
	const char	*out;
	char		*finding = NULL;
	int		 status;
	size_t		 plen = strlen(path);

	if ((text = muxweb_audit_verify(path)) == NULL ||
	    (res = json_loads(text, 0, NULL)) == NULL) {
		free(text);
		return (json_pack("{ss sn si ss}", "state", "unchecked",
		    "finding", "status", -1, "output",
		    "transcripts verify could not be run"));
	}
	free(text);
	status = (int)json_integer_value(json_object_get(res, "status"));
	out = json_string_value(json_object_get(res, "output"));
	text = xstrdup(out != NULL ? out : "");
	for (line = text; finding == NULL && line != NULL && *line != '\0';
	    line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strncmp(line, path, plen) != 0)
			continue;
		rest = line + plen;
		if (*rest == ':')	/* a line number, maybe */
			rest += 1 + strspn(rest + 1, "0123456789");
		if (*rest == ':')
			rest++;
		rest += strspn(rest, " ");
		if (strncmp(rest, "ok", 2) == 0 ||
		    strncmp(rest, "note:", 5) == 0 ||
		    (*rest >= '0' && *rest <= '9' &&
		    strstr(rest, " finding") != NULL))
			continue;
		finding = line + plen + (line[plen] == ':');
	}
	o = json_pack("{ss ss? si ss}", "state", status == 0 || status == 3 ||
	    status == 4 ? "sealed" : status == 1 ? "broken" : "unchecked",
	    "finding", finding,
	    "status", status, "output", out != NULL ? out : "");
	free(text);
	json_decref(res);
	return (o);
}

/*
 * A capture through the transcripts tool into a file of its own:
 * "export --screen" (screen) or "render"; what it wrote, or NULL.
 */
static char *
muxweb_audit_make(const char *name, int screen, size_t *len)
{
	char	 path[4096], tmp[] = "/tmp/muxweb.XXXXXX", out[64], *res;
	char	*argv[7], *body = NULL;
	json_t	*o;
	int	 n = 0;

	/* A directory of its own: the tool overwrites no file. */
	if (mkdtemp(tmp) == NULL)
		return (NULL);
	snprintf(path, sizeof(path), "%s/%s", muxweb_audit_dir, name);
	snprintf(out, sizeof(out), "%s/screen.cast", tmp);
	argv[n++] = "transcripts";
	if (screen) {
		argv[n++] = "export";
		argv[n++] = "--screen";
		argv[n++] = "-o";
		argv[n++] = out;
	} else {
		argv[n++] = "render";
		argv[n++] = "-o";
		argv[n++] = "-";
	}
	argv[n++] = path;
	argv[n] = NULL;
	if ((res = muxweb_audit_run(argv, 0)) == NULL)
		goto done;
	o = json_loads(res, 0, NULL);
	free(res);
	if (!screen && json_string_value(json_object_get(o, "output")) !=
	    NULL) {
		if ((body = strdup(json_string_value(json_object_get(o,
		    "output")))) != NULL)
			*len = strlen(body);
	} else if (screen && json_integer_value(json_object_get(o, "status"))
	    == 0)
		body = muxweb_audit_read(tmp, "screen.cast", len);
	json_decref(o);
done:
	unlink(out);
	rmdir(tmp);
	return (body);
}

/*
 * Run the transcripts tool with argv (its standard error too, or left to
 * muxweb's): its output, exit status and path (the last argument), JSON.
 */
static char *
muxweb_audit_run(char *const argv[], int witherr)
{
	char	 *out = NULL, *text;
	size_t	 len = 0;
	FILE	*fp;
	json_t	*o;
	int	 pfd[2], status = -1, n;
	pid_t	 pid;

	for (n = 0; argv[n + 1] != NULL; n++)
		;
	if (pipe2(pfd, O_CLOEXEC) == -1)
		return (NULL);
	switch (pid = fork()) {
	case -1:
		close(pfd[0]);
		close(pfd[1]);
		return (NULL);
	case 0:
		dup2(pfd[1], 1);
		if (witherr)
			dup2(pfd[1], 2);
		execv(muxweb_audit_tool, argv);
		if (errno == ENOENT)	/* not installed there: on PATH */
			execvp("transcripts", argv);
		fprintf(stderr, "muxweb: %s: %s\n", muxweb_audit_tool,
		    strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	if ((fp = open_memstream(&out, &len)) != NULL) {
		char	buf[4096];
		ssize_t	k;

		while ((k = read(pfd[0], buf, sizeof(buf))) > 0 &&
		    len < 4 * 1024 * 1024)
			fwrite(buf, 1, (size_t)k, fp);
		fclose(fp);
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	o = json_pack("{si ss ss}", "status", WIFEXITED(status) ?
	    WEXITSTATUS(status) : -1, "output", out != NULL ? out : "",
	    "path", argv[n]);
	free(out);
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return (text);
}

/*
 * The auditors' index of the evidence (transcripts index -j): of the
 * state directory when the captures are muxd's (DIR/..), else of DIR.
 */
static char *
muxweb_audit_index(void)
{
	struct stat	 st;
	char		 path[4096];
	char		*argv[] = { "transcripts", "index", "-j", path, NULL };

	snprintf(path, sizeof(path), "%s/../manifests", muxweb_audit_dir);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "%s/..", muxweb_audit_dir);
	else
		snprintf(path, sizeof(path), "%s", muxweb_audit_dir);
	return (muxweb_audit_run(argv, 0));
}

/*
 * The round manifests' verify: of DIR/manifests, or muxd's layout,
 * DIR/../manifests; a status of -1 when there are none.
 */
static char *
muxweb_audit_manifests(void)
{
	struct stat	 st;
	char		 path[4096], *text;
	json_t		*o;

	snprintf(path, sizeof(path), "%s/manifests", muxweb_audit_dir);
	if (stat(path, &st) == -1 || !S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "%s/../manifests",
		    muxweb_audit_dir);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return (muxweb_audit_verify(path));
	o = json_pack("{si ss}", "status", -1, "output", "no round "
	    "manifests beside these captures");
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return (text);
}

/*
 * Answer an audit request: an HTTP status with a body (to free) and its
 * type; 0 when the url is none of the audit's.
 */
unsigned int
muxweb_audit_get(const char *url, char **body, size_t *len,
    const char **type)
{
	const char	*name;
	char		 path[4096], *buf;

	*body = NULL;
	if (strncmp(url, "/player/", 8) == 0) {
		name = url + 8;
		if (muxweb_audit_player == NULL || !muxweb_audit_name_ok(name))
			return (404);
		if ((*body = muxweb_audit_read(muxweb_audit_player, name,
		    len)) == NULL)
			return (404);
		*type = strstr(name, ".css") != NULL ? "text/css" :
		    "text/javascript";
		return (200);
	}
	if (strncmp(url, "/audit", 6) != 0)
		return (0);
	if (muxweb_audit_dir == NULL)
		return (404);
	if (strcmp(url, "/audit") == 0) {
		*body = strdup(muxweb_page_audit);
		*len = strlen(*body);
		*type = "text/html; charset=utf-8";
		return (200);
	}
	if (strcmp(url, "/audit/list") == 0) {
		*body = muxweb_audit_list();
		*len = *body != NULL ? strlen(*body) : 0;
		*type = "application/json";
		return (*body != NULL ? 200 : 500);
	}
	if (strncmp(url, "/audit/cast/", 12) == 0) {
		name = url + 12;
		if (!muxweb_audit_name_ok(name) ||
		    (*body = muxweb_audit_read(muxweb_audit_dir, name,
		    len)) == NULL)
			return (404);
		*type = "text/plain; charset=utf-8";
		return (200);
	}
	if (strncmp(url, "/audit/screen/", 14) == 0 ||
	    strncmp(url, "/audit/transcript/", 18) == 0) {
		name = strchr(url + 7, '/') + 1;
		if (!muxweb_audit_name_ok(name) ||
		    (buf = muxweb_audit_read(muxweb_audit_dir, name,
		    len)) == NULL)
			return (404);
		free(buf);
		if ((*body = muxweb_audit_make(name, url[7] == 's', len)) ==
		    NULL)
			return (500);
		*type = "text/plain; charset=utf-8";
		return (200);
	}
	if (strcmp(url, "/audit/index") == 0) {
		if ((*body = muxweb_audit_index()) == NULL)
			return (500);
		*len = strlen(*body);
		*type = "application/json";
		return (200);
	}
	if (strcmp(url, "/audit/manifests") == 0) {
		if ((*body = muxweb_audit_manifests()) == NULL)
			return (500);
		*len = strlen(*body);
		*type = "application/json";
		return (200);
	}
	if (strncmp(url, "/audit/verify/", 14) == 0) {
		name = url + 14;
		snprintf(path, sizeof(path), "%s/%s", muxweb_audit_dir, name);
		if (!muxweb_audit_name_ok(name))
			return (404);
		/* A file of the directory (one too large to serve too). */
		errno = 0;
		if ((buf = muxweb_audit_read(muxweb_audit_dir, name, len)) ==
		    NULL && errno != EINVAL)
			return (404);
		free(buf);
		if ((*body = muxweb_audit_verify(path)) == NULL)
			return (404);
		*len = strlen(*body);
		*type = "application/json";
		return (200);
	}
	return (404);
}
