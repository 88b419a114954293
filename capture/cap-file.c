/*
 * Whole files read into memory: the transcripts that verify.c checks and
 * the LPP logs that transcripts import parses; small files written
 * whole: keys, signatures, manifests; files hashed; and the unwritten
 * tail of a capture whose writer died, trimmed.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"

/*
 * Read a whole regular file of at most max bytes into a new buffer, a NUL
 * after its *len bytes.  CAP_ESYS (or CAP_ENOMEM) with
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
	int		 fd;
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
	p[done] = '\0';
	*buf = p;
	*len = done;
	return (CAP_OK);
fail:
	cap_error_sys(err, e, path, 0, -1, NULL);
	free(p);
	if (fd != -1)
		close(fd);
	return (e);
}

/*
 * Write a file whole: created exclusively (excl) or replaced by a rename
 * from a temporary name beside it, with mode; synced.
 */
enum cap_err
cap_file_write(const char *path, const char *text, int mode, int excl,
    struct cap_error *err)
{
	char	*tmp = NULL;
	size_t	 len = strlen(text);
	int	 fd, saved;
	enum cap_err e;

	if (!excl && asprintf(&tmp, "%s.tmp", path) == -1) {
		cap_error_set(err, CAP_ENOMEM, path, 0, -1, "out of memory");
		return (CAP_ENOMEM);
	}
	fd = open(excl ? path : tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, mode);
	if (fd == -1 && !excl && errno == EEXIST && unlink(tmp) == 0)
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, mode);
	if (fd == -1)
		goto fail;
	if (write(fd, text, len) != (ssize_t)len || fsync(fd) == -1) {
		saved = errno;
		close(fd);
		unlink(excl ? path : tmp);
		errno = saved;
		goto fail;
	}
	if (close(fd) == -1 || (!excl && rename(tmp, path) == -1))
		goto fail;
	free(tmp);
	return (CAP_OK);
fail:
	if (errno == EEXIST) {
		e = CAP_EEXIST;
		cap_error_set(err, e, path, 0, -1, "exists, not overwritten");
		if (err != NULL)
			err->sys = EEXIST;
	} else
		e = cap_error_sys(err, CAP_ESYS, path, 0, -1, NULL);
	free(tmp);
	return (e);
}

/*
 * Cut off the NUL bytes that end a file: the blocks a mapped capture had
 * allocated ahead (cap-write.c) and never wrote, when its writer died
 * (SIGKILL, a crash) before it could truncate them.  What was written,
 * a torn last line included, stays.  *cut gets the bytes cut.
 */
enum cap_err
cap_file_trim(const char *path, int64_t *cut, struct cap_error *err)
{
	unsigned char	 buf[65536];
	struct stat	 st;
	off_t		 end, at;
	ssize_t		 n, i;
	int		 fd;

	*cut = 0;
	if ((fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return (cap_error_sys(err, CAP_ESYS, path, 0, -1, NULL));
	if (fstat(fd, &st) == -1) {
		cap_error_sys(err, CAP_ESYS, path, 0, -1, "fstat");
		close(fd);
		return (CAP_ESYS);
	}
	/* Back from the end, a block at a time, to the last byte not NUL. */
	for (end = st.st_size; end > 0; end = at) {
		at = end > (off_t)sizeof(buf) ? end - (off_t)sizeof(buf) : 0;
		if ((n = pread(fd, buf, (size_t)(end - at), at)) <= 0) {
			cap_error_sys(err, CAP_ESYS, path, 0, (int64_t)at,
			    "read");
			close(fd);
			return (CAP_ESYS);
		}
		for (i = n; i > 0 && buf[i - 1] == 0; i--)
			;
		if (i > 0) {
			end = at + i;
			break;
		}
	}
	if (end < st.st_size && ftruncate(fd, end) == -1) {
		cap_error_sys(err, CAP_ESYS, path, 0, (int64_t)end,
		    "ftruncate");
		close(fd);
		return (CAP_ESYS);
	}
	close(fd);
	*cut = (int64_t)(st.st_size - end);
	return (CAP_OK);
}

/*
 * The BLAKE2b of a file's first len bytes (all, when len is -1), hashlen
 * bytes of it (32 for the manifests' BLAKE2b-256, 64 for a minisign
 * prehash): the bytes hashed in *got (fewer when the file is shorter).
 */
enum cap_err
cap_file_hash(const char *path, int64_t len, unsigned char *hash,
    size_t hashlen, int64_t *got, struct cap_error *err)
{
	crypto_generichash_state	 st;
	unsigned char			 buf[65536];
	ssize_t				 n;
	size_t				 want;
	int				 fd;

	*got = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1) {
		return (cap_error_sys(err, CAP_ESYS, path, 0, -1, NULL));
	}
	crypto_generichash_init(&st, NULL, 0, hashlen);
	for (;;) {
		want = sizeof(buf);
		if (len >= 0 && (int64_t)want > len - *got)
			want = (size_t)(len - *got);
		if (want == 0)
			break;
		if ((n = read(fd, buf, want)) == -1) {
			cap_error_sys(err, CAP_ESYS, path, 0, *got, "read");
			close(fd);
			return (CAP_ESYS);
		}
		if (n == 0)
			break;
		crypto_generichash_update(&st, buf, (size_t)n);
		*got += n;
	}
	close(fd);
	crypto_generichash_final(&st, hash, hashlen);
	return (CAP_OK);
}
