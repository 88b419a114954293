/*
 * Whole files read into memory: the transcripts that verify.c checks and
 * the LPP logs that transcripts import parses.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transcripts.h"

/*
 * Read a whole regular file of at most max bytes into a new buffer, with
 * room for a NUL after its *len bytes.  CAP_ESYS (or CAP_ENOMEM) with
 * .sys set and its strerror(3) text, or CAP_EINVAL (.sys 0) when it is
 * not a regular file or is larger than max.
 */
enum cap_err
cap_file_read(const char *path, size_t max, char **buf, size_t *len,
    struct cap_error *err)
{
	struct stat	 st;
	size_t		 done = 0;
	ssize_t		 n;
	char		*p = NULL;
	int		 fd, sys;
	enum cap_err	 e = CAP_ESYS;

	cap_error_clear(err);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		goto fail;
	if (fstat(fd, &st) == -1)
		goto fail;
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		close(fd);
		cap_error_set(err, CAP_EINVAL, path, 0, -1,
		    "not a regular file of at most %zu bytes", max);
		return (CAP_EINVAL);
	}
	if ((p = malloc((size_t)st.st_size + 1)) == NULL) {
		e = CAP_ENOMEM;
		goto fail;
	}
	while (done < (size_t)st.st_size) {
		n = read(fd, p + done, (size_t)st.st_size - done);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			goto fail;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	*buf = p;
	*len = done;
	return (CAP_OK);
fail:
	sys = errno;
	free(p);
	if (fd != -1)
		close(fd);
	cap_error_set(err, e, path, 0, -1, "%s", strerror(sys));
	if (err != NULL)
		err->sys = sys;
	return (e);
}
