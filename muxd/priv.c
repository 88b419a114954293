/*
 * Dropping root: muxd opens its lines, its control socket and its files
 * as the user that starts it, then, given -u, becomes that user for good,
 * as OpenBSD's daemons do.  The directories it writes in afterwards (state,
 * captures, transcripts) and the control socket are given to the user
 * first; lines reopened later (a cable pulled out, a reload) need the
 * user's groups to have access to the devices (group muxd, from the
 * room's 62-muxd-room.rules that muxd-udev(8) writes), and exec: entries
 * run as the user too.
 */
#include <sys/stat.h>

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "muxd.h"

/* Give a path to the user; a path that does not exist is left alone. */
static int
priv_give(const char *path, uid_t uid, gid_t gid, char *err, size_t errlen)
{
	if (path == NULL || chown(path, uid, gid) == 0 || errno == ENOENT)
		return (0);
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return (-1);
}

/*
 * Become user for good, giving it the paths first (NULL-terminated);
 * -1 with a reason.
 */
int
priv_drop(const char *user, const char **paths, char *err, size_t errlen)
{
	struct passwd	*pw;
	size_t		 i;

	errno = 0;
	if ((pw = getpwnam(user)) == NULL) {
		snprintf(err, errlen, "user %s: %s", user, errno != 0 ?
		    strerror(errno) : "no such user");
		return (-1);
	}
	for (i = 0; paths[i] != NULL; i++)
		if (priv_give(paths[i], pw->pw_uid, pw->pw_gid, err,
		    errlen) == -1)
			return (-1);
	if (initgroups(pw->pw_name, pw->pw_gid) == -1 ||
	    setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) == -1 ||
	    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) == -1) {
		snprintf(err, errlen, "cannot become user %s: %s", user,
		    strerror(errno));
		return (-1);
	}
	if (pw->pw_uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
		snprintf(err, errlen, "user %s: root could be taken back",
		    user);
		return (-1);
	}
	log_info("running as user %s (uid %ld, gid %ld)", user,
	    (long)pw->pw_uid, (long)pw->pw_gid);
	return (0);
}
