/*
 * The messages between muxd and the entries' spawner: datagrams on a
 * socketpair.  A run carries the pty, its answer (started or failed)
 * comes before any other message on the way back, ends (exited) come
 * whenever a program has ended.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "spawn.h"

/* Send a message, with a descriptor when fd is not -1; -1 on error. */
int
spawn_msg_send(int s, const struct spawn_msg *m, int fd)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	} cbuf;
	struct msghdr	 msg;
	struct iovec	 iov;
	struct cmsghdr	*c;
	struct pollfd	 pfd;

	memset(&msg, 0, sizeof(msg));
	iov.iov_base = (void *)m;
	iov.iov_len = sizeof(*m);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (fd != -1) {
		memset(&cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf.buf;
		msg.msg_controllen = sizeof(cbuf.buf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	while (sendmsg(s, &msg, MSG_NOSIGNAL) == -1) {
		if (errno == EAGAIN) {
			pfd.fd = s;
			pfd.events = POLLOUT;
			if (poll(&pfd, 1, SPAWN_WAIT_MS) != 1)
				return (-1);
		} else if (errno != EINTR)
			return (-1);
	}
	return (0);
}

/*
 * Receive a message and the descriptor it carries (else *fd is -1):
 * 1, 0 at the end, -1 on error.  Text is always terminated.
 */
int
spawn_msg_recv(int s, struct spawn_msg *m, int *fd)
{
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	} cbuf;
	struct msghdr	 msg;
	struct iovec	 iov;
	struct cmsghdr	*c;
	ssize_t		 n;

	memset(&msg, 0, sizeof(msg));
	memset(m, 0, sizeof(*m));
	iov.iov_base = m;
	iov.iov_len = sizeof(*m);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf.buf;
	msg.msg_controllen = sizeof(cbuf.buf);
	while ((n = recvmsg(s, &msg, MSG_CMSG_CLOEXEC)) == -1)
		if (errno != EINTR)
			return (-1);
	if (n == 0)
		return (0);
	*fd = -1;
	for (c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	if ((size_t)n < offsetof(struct spawn_msg, text)) {
		if (*fd != -1)
			close(*fd);
		errno = EPROTO;
		return (-1);
	}
	m->text[sizeof(m->text) - 3] = '\0';
	m->text[sizeof(m->text) - 2] = '\0';
	m->text[sizeof(m->text) - 1] = '\0';
	return (1);
}
