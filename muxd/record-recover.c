/*
 * The captures a muxd that died left open (SIGKILL, a crash), closed at
 * start-up before any is written again, so that each ends as a capture
 * closed by muxd would, and says how it ended.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

/*
 * Close the captures a muxd that died left open in the configuration's
 * captures directory: each one's unused tail cut off and its end marked
 * ("crash ..."), its transcript completed with the lines left unfinished
 * (rec_recover), whether or not a later segment follows.
 */
void
record_recover(const struct conf *cf)
{
	struct cap_recovery	 rc;
	struct cap_error	 err;
	struct dirent		*de;
	DIR			*d;
	char			 path[1024], *tx;
	size_t			 n;

	if ((d = opendir(cf->capture_dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (n <= 5 || strcmp(de->d_name + n - 5, ".cast") != 0 ||
		    de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", cf->capture_dir,
		    de->d_name);
		if (rec_recover(path, cf->transcript_dir, &rc, &tx,
		    &err) != CAP_OK)
			log_warnx("record: %s: left by a muxd that died: %s",
			    err.file[0] != '\0' ? err.file : path, err.msg);
		if (rc.crashed)
			log_warnx("record: %s: left open by a muxd that died: "
			    "%lld zero bytes and %lld of a torn line cut off, "
			    "closed with \"%s\"%s%s", path,
			    (long long)rc.trimmed, (long long)rc.torn, rc.marker,
			    tx != NULL ? "; completed " : "", tx != NULL ? tx :
			    "");
		else if (rc.trimmed > 0)
			log_info("record: %s: %lld zero bytes cut off its end",
			    path, (long long)rc.trimmed);
		free(tx);
	}
	closedir(d);
}
