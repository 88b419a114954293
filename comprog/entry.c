/*
 * The entry adapter: puts a console chatbot, any program that reads the
 * judge's words on its standard input and writes its answers on its
 * standard output a line at a time, on the line, character by character.
 *
 * The program runs with pipes for its standard input, output and error;
 * each line it writes on its standard error goes to comprog's log (-l),
 * as "program: LINE", so that its complaints are kept with the rest.  The judge's keys are followed with
 * muxd's judgeterm.c: each completed turn (two line ends) is handed to the
 * program as one line, the turn's lines joined by a space; an "@@nn"
 * announcement is logged and recorded, not handed.  What the program
 * writes is typed out on the line one key at a time with the typing model
 * (contest/typing.c), each LF as the profile's line end (CR LF by default), CRs
 * dropped.  Typing waits while the line is down and resumes when it is
 * back.  With --echo the adapter also prompts and echoes the judge's keys
 * itself, for a plain terminal with no muxd in between.
 *
 * A program that dies is started again with backoff (250 ms doubling to
 * 8 s, afresh once it ran 10 s) and handed the judge's last turn again if
 * it had not answered it.  That is said in the log and as a marker in the
 * capture, never on the line: the judge sees only the entity's words.
 * Answers waiting to be typed are bounded by ENTRY_ANSWER_MAX; beyond it
 * bytes are dropped, counted and logged.
 *
 * A program writing to a pipe through stdio must flush each answer (most
 * flush at a line end only on a terminal): PYTHONUNBUFFERED is set, and
 * stdbuf -oL helps C programs.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "comprog.h"

#define ENTRY_ANSWER_MAX	65536	/* bytes of answers waiting */
#define ENTRY_BACKOFF_MIN	250	/* ms */
#define ENTRY_BACKOFF_MAX	8000
#define ENTRY_STABLE		10	/* s running before the backoff resets */
#define ENTRY_ERRLINE		1024	/* longest stderr line logged whole */

static const struct profile	*entry_prof;
static struct typing		 entry_typing;
static char			**entry_argv;
static int			 entry_echo;
static pid_t			 entry_pid = -1;
static int			 entry_to = -1;	/* the program's stdin */
static int			 entry_from = -1; /* its stdout */
static int			 entry_err = -1;	/* its stderr */
static struct event		*entry_ev_err;
static struct evbuffer		*entry_errline;	/* a stderr line so far */
static struct event		*entry_ev_to;
static struct event		*entry_ev_from;
static struct event		*entry_ev_restart;
static struct event		*entry_ev_type;
static struct evbuffer		*entry_tochild;	/* turns for the program */
static struct evbuffer		*entry_answer;	/* its words, to be typed */
static struct evbuffer		*entry_turn;	/* the judge's current turn */
static struct judgeterm		 entry_jt;
static char			*entry_last;	/* the last turn handed */
static int			 entry_answered;
static unsigned char		 entry_prev;	/* the last byte typed */
static int			 entry_backoff = ENTRY_BACKOFF_MIN;
static time_t			 entry_started;
static uint64_t			 entry_dropped;

static void	entry_spawn(void);
static void	entry_child_exec(int, int, int) __attribute__((noreturn));
static void	entry_err_cb(evutil_socket_t, short, void *);
static void	entry_err_line(int);
static void	entry_close_pipes(void);
static void	entry_hand(const char *, size_t);
static void	entry_to_cb(evutil_socket_t, short, void *);
static void	entry_from_cb(evutil_socket_t, short, void *);
static int	entry_take(int);
static void	entry_restart_cb(evutil_socket_t, short, void *);
static void	entry_type_cb(evutil_socket_t, short, void *);
static void	entry_type_next(void);
static size_t	entry_key(unsigned char *);
static void	entry_read(const unsigned char *, size_t,
		    const struct timeval *);
static void	entry_change(enum cline_change, const char *);

const struct cline_cb entry_line_cb = { entry_read, entry_change };

/* Set up and start the program. */
void
entry_start(const struct profile *prof, const struct typing *typing,
    char **argv, int echo)
{
	entry_prof = prof;
	entry_typing = *typing;
	entry_argv = argv;
	entry_echo = echo;
	judgeterm_init(&entry_jt, !echo, JUDGETERM_EOL_LF);
	judgeterm_charset(&entry_jt, prof->charset);
	if ((entry_tochild = evbuffer_new()) == NULL ||
	    (entry_answer = evbuffer_new()) == NULL ||
	    (entry_turn = evbuffer_new()) == NULL ||
	    (entry_errline = evbuffer_new()) == NULL ||
	    (entry_ev_restart = evtimer_new(comprog_base, entry_restart_cb,
	    NULL)) == NULL ||
	    (entry_ev_type = evtimer_new(comprog_base, entry_type_cb,
	    NULL)) == NULL)
		fatalx("cannot allocate the entry adapter");
	entry_spawn();
}

/* In the child: the pipes as stdin, stdout and stderr, then the program. */
static void
entry_child_exec(int in, int out, int err)
{
	static const char *const env[] = { "PYTHONUNBUFFERED", "1", NULL };
	struct port_exec x = { .tty = -1, .fd = { in, out, err },
			    .env = env, .argv = entry_argv };

	port_exec_run(&x);
	fprintf(stderr, "comprog: cannot run %s: %s\n", entry_argv[0],
	    strerror(errno));
	_exit(127);
}

/* Start the program with a pipe each way. */
static void
entry_spawn(void)
{
	struct timeval	retry;
	int		p[3][2], i;
	pid_t		pid = -1;

	for (i = 0; i < 3; i++)
		if (pipe2(p[i], O_CLOEXEC) == -1)
			break;
	if (i == 3 && (pid = fork()) == 0)
		entry_child_exec(p[0][0], p[1][1], p[2][1]);
	if (pid == -1) {
		while (i-- > 0) {
			close(p[i][0]);
			close(p[i][1]);
		}
		goto fail;
	}
	close(p[0][0]);
	close(p[1][1]);
	close(p[2][1]);
	entry_pid = pid;
	entry_to = p[0][1];
	entry_from = p[1][0];
	entry_err = p[2][0];
	fcntl(entry_to, F_SETFL, fcntl(entry_to, F_GETFL) | O_NONBLOCK);
	fcntl(entry_from, F_SETFL, fcntl(entry_from, F_GETFL) | O_NONBLOCK);
	fcntl(entry_err, F_SETFL, fcntl(entry_err, F_GETFL) | O_NONBLOCK);
	entry_ev_to = event_new(comprog_base, entry_to, EV_WRITE | EV_PERSIST,
	    entry_to_cb, NULL);
	entry_ev_from = event_new(comprog_base, entry_from, EV_READ | EV_PERSIST,
	    entry_from_cb, NULL);
	entry_ev_err = event_new(comprog_base, entry_err, EV_READ | EV_PERSIST,
	    entry_err_cb, NULL);
	if (entry_ev_to == NULL || entry_ev_from == NULL ||
	    entry_ev_err == NULL)
		fatalx("cannot allocate the program's events");
	event_add(entry_ev_from, NULL);
	event_add(entry_ev_err, NULL);
	if (evbuffer_get_length(entry_tochild) > 0)
		event_add(entry_ev_to, NULL);
	entry_started = time(NULL);
	log_info("program %s started, pid %ld", entry_argv[0], (long)pid);
	return;
fail:
	log_warn("cannot start %s", entry_argv[0]);
	retry.tv_sec = entry_backoff / 1000;
	retry.tv_usec = (entry_backoff % 1000) * 1000;
	evtimer_add(entry_ev_restart, &retry);
}

/* Close the pipes to a program that ended. */
static void
entry_close_pipes(void)
{
	if (entry_ev_to != NULL)
		event_free(entry_ev_to);
	if (entry_ev_from != NULL)
		event_free(entry_ev_from);
	if (entry_ev_err != NULL)
		event_free(entry_ev_err);
	entry_ev_to = entry_ev_from = entry_ev_err = NULL;
	if (entry_to != -1)
		close(entry_to);
	if (entry_from != -1)
		close(entry_from);
	if (entry_err != -1) {
		entry_err_cb(entry_err, EV_READ, NULL);
		entry_err_line(1);
		close(entry_err);
	}
	entry_to = entry_from = entry_err = -1;
}

/* Log what the program wrote on its standard error, a line at a time. */
static void
entry_err_cb(evutil_socket_t fd, short what, void *arg)
{
	int	n;

	(void)what;
	(void)arg;
	while ((n = evbuffer_read(entry_errline, fd, PORT_CHUNK)) > 0)
		entry_err_line(0);
	if (n == 0 && entry_ev_err != NULL)
		event_del(entry_ev_err);	/* the program is ending */
}

/*
 * Log each whole line of the program's standard error (all that is left,
 * when it ended), cut at ENTRY_ERRLINE bytes, controls shown as "?".
 */
static void
entry_err_line(int end)
{
	char	line[ENTRY_ERRLINE + 1];
	size_t	n, i, len;
	struct evbuffer_ptr	eol;

	for (;;) {
		eol = evbuffer_search(entry_errline, "\n", 1, NULL);
		len = evbuffer_get_length(entry_errline);
		if (eol.pos == -1 && !end && len < ENTRY_ERRLINE)
			return;
		if (len == 0)
			return;
		n = eol.pos != -1 ? (size_t)eol.pos : len;
		if (n > ENTRY_ERRLINE)
			n = ENTRY_ERRLINE;
		evbuffer_remove(entry_errline, line, n);
		if (eol.pos != -1 && (size_t)eol.pos == n)
			evbuffer_drain(entry_errline, 1);
		if (n > 0 && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		for (i = 0; i < n; i++)
			if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
				line[i] = '?';
		log_info("program: %s", line);
	}
}

/* Start the program again after its backoff. */
static void
entry_restart_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	entry_spawn();
}

/*
 * A child ended: when it is the program, say so, and start it again with
 * backoff, handing it the last turn if that was not answered.
 */
void
entry_child(pid_t pid, int status)
{
	struct timeval	retry;
	char		how[64];

	if (pid != entry_pid)
		return;
	entry_pid = -1;
	if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "killed by signal %d",
		    WTERMSIG(status));
	else
		snprintf(how, sizeof(how), "exited with status %d",
		    WEXITSTATUS(status));
	/* Its last words are in the pipe still: they are typed too. */
	while (entry_from != -1 && entry_take(entry_from) == 1)
		;
	entry_close_pipes();
	if (time(NULL) - entry_started >= ENTRY_STABLE)
		entry_backoff = ENTRY_BACKOFF_MIN;
	log_warnx("program %s %s; restarting it in %d ms", entry_argv[0], how,
	    entry_backoff);
	transcript_marker("fault program %s restarting", how);
	if (!entry_answered && entry_last != NULL) {
		evbuffer_drain(entry_tochild,
		    evbuffer_get_length(entry_tochild));
		evbuffer_add_printf(entry_tochild, "%s\n", entry_last);
		log_info("the judge's last turn will be handed to it again");
	}
	retry.tv_sec = entry_backoff / 1000;
	retry.tv_usec = (entry_backoff % 1000) * 1000;
	evtimer_add(entry_ev_restart, &retry);
	entry_backoff *= 2;
	if (entry_backoff > ENTRY_BACKOFF_MAX)
		entry_backoff = ENTRY_BACKOFF_MAX;
}

/* Stop the program and free everything. */
void
entry_stop(void)
{
	int	i, status;

	entry_close_pipes();
	if (entry_pid > 0) {
		kill(entry_pid, SIGTERM);
		for (i = 0; i < 50; i++) {
			if (waitpid(entry_pid, &status, WNOHANG) != 0)
				break;
			usleep(20000);
		}
		if (i == 50) {
			kill(entry_pid, SIGKILL);
			waitpid(entry_pid, &status, 0);
		}
		entry_pid = -1;
	}
	if (entry_ev_restart != NULL)
		event_free(entry_ev_restart);
	if (entry_ev_type != NULL)
		event_free(entry_ev_type);
	entry_ev_restart = entry_ev_type = NULL;
	evbuffer_free(entry_tochild);
	evbuffer_free(entry_answer);
	evbuffer_free(entry_turn);
	free(entry_last);
	entry_last = NULL;
	if (entry_dropped > 0)
		log_warnx("%llu bytes of answers were dropped",
		    (unsigned long long)entry_dropped);
}

/* Hand a judge's turn to the program, as one line. */
static void
entry_hand(const char *text, size_t len)
{
	free(entry_last);
	if ((entry_last = strndup(text, len)) == NULL)
		fatal("strndup");
	entry_answered = 0;
	evbuffer_add(entry_tochild, text, len);
	evbuffer_add(entry_tochild, "\n", 1);
	log_info("turn for the program: %zu bytes", len);
	log_debug("turn: %s", entry_last);
	if (entry_ev_to != NULL)
		event_add(entry_ev_to, NULL);
}

/* Write waiting turns to the program's standard input. */
static void
entry_to_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)what;
	(void)arg;
	if (evbuffer_get_length(entry_tochild) > 0 &&
	    evbuffer_write(entry_tochild, fd) == -1) {
		if (errno == EAGAIN || errno == EINTR)
			return;
		log_warn("writing to the program");	/* it is ending */
		event_del(entry_ev_to);
		return;
	}
	if (evbuffer_get_length(entry_tochild) == 0)
		event_del(entry_ev_to);
}

/*
 * Read what the program wrote and queue it for typing; 0 at its end of
 * file, -1 when nothing more is there for now, else 1.
 */
static int
entry_take(int fd)
{
	unsigned char	buf[PORT_CHUNK];
	ssize_t		n, i;

	if ((n = read(fd, buf, sizeof(buf))) <= 0)
		return (n == 0 ? 0 : -1);
	entry_answered = 1;
	for (i = 0; i < n; i++) {
		if (buf[i] == '\r')
			continue;
		if (evbuffer_get_length(entry_answer) >= ENTRY_ANSWER_MAX) {
			if (entry_dropped++ == 0)
				log_warnx("the program's answers exceed %d "
				    "bytes waiting; dropping", ENTRY_ANSWER_MAX);
			continue;
		}
		evbuffer_add(entry_answer, &buf[i], 1);
	}
	if (!evtimer_pending(entry_ev_type, NULL))
		entry_type_next();
	return (1);
}

/* Read the program's answer as it comes. */
static void
entry_from_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)what;
	(void)arg;
	switch (entry_take(fd)) {
	case 0:
		event_del(entry_ev_from);	/* the program is ending */
		break;
	case -1:
		if (errno != EAGAIN && errno != EINTR)
			event_del(entry_ev_from);
		break;
	}
}

/* Arm the typing timer for the next key, if any and the line is up. */
static void
entry_type_next(void)
{
	struct timeval	tv;
	unsigned char	key;
	int		ms;

	if (!cline_is_up() || evbuffer_get_length(entry_answer) == 0 ||
	    evtimer_pending(entry_ev_type, NULL))
		return;
	evbuffer_copyout(entry_answer, &key, 1);
	ms = typing_delay(&entry_typing, entry_prev, key);
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(entry_ev_type, &tv);
}

/*
 * Copy the next key of the answer into b (4 bytes): a byte, or with the
 * UTF-8 charset a character's bytes as far as they are there; its length.
 */
static size_t
entry_key(unsigned char *b)
{
	size_t	got, len, n = 1;

	got = (size_t)evbuffer_copyout(entry_answer, b, 4);
	if (entry_prof->charset != CAP_UTF8 || (len = utf8_len(b[0])) < 2)
		return (1);
	while (n < len && n < got && utf8_cont(b[n]))
		n++;
	return (n);
}

/* Type one key of the answer. */
static void
entry_type_cb(evutil_socket_t fd, short what, void *arg)
{
	static const char	*eols[] = { "\r", "\n", "\r\n", "\r\n" };
	struct timeval		 tv;
	const unsigned char	*out;
	unsigned char		 key[4];
	size_t			 n, m;

	(void)fd;
	(void)what;
	(void)arg;
	if (!cline_is_up() || evbuffer_get_length(entry_answer) == 0)
		return;
	m = entry_key(key);
	if (key[0] == '\n') {
		out = (const unsigned char *)eols[entry_prof->eol & 3];
		n = strlen((const char *)out);
	} else {
		out = key;
		n = m;
	}
	if (cline_send(out, n) == -1) {
		tv.tv_sec = 0;
		tv.tv_usec = 100000;
		evtimer_add(entry_ev_type, &tv);
		return;
	}
	evbuffer_drain(entry_answer, m);
	comprog_time(&tv);
	transcript_entity(out, n, &tv);
	if (entry_echo)
		judgeterm_screen(&entry_jt, out, n);
	entry_prev = key[0];
	entry_type_next();
}

/* Take the judge's keys: prompt and echo if asked, turns to the program. */
static void
entry_read(const unsigned char *buf, size_t n, const struct timeval *tv)
{
	struct judgeterm_out	out;
	size_t			i, len;

	transcript_judge(buf, n, tv);
	for (i = 0; i < n; i++) {
		judgeterm_byte(&entry_jt, buf[i], &out);
		if (entry_echo && out.necho > 0 &&
		    cline_send(out.echo, out.necho) == -1)
			log_warnx("echo not sent: the line's queue is full");
		switch (out.event) {
		case JUDGETERM_NONE:
			break;
		case JUDGETERM_LINE:
			len = out.linelen < JUDGETERM_LINEMAX ? out.linelen :
			    JUDGETERM_LINEMAX;
			if (evbuffer_get_length(entry_turn) > 0)
				evbuffer_add(entry_turn, " ", 1);
			evbuffer_add(entry_turn, out.line, len);
			break;
		case JUDGETERM_TURN:
			len = evbuffer_get_length(entry_turn);
			if (len > 0)
				entry_hand((const char *)evbuffer_pullup(
				    entry_turn, -1), len);
			evbuffer_drain(entry_turn, len);
			break;
		case JUDGETERM_JUDGE:
			log_info("judge %02d announced", out.judge);
			break;
		}
	}
}

/* Follow the line: typing resumes when it is back. */
static void
entry_change(enum cline_change what, const char *msg)
{
	struct judgeterm_out	out;

	switch (what) {
	case CLINE_UP:
		if (entry_echo) {
			judgeterm_prompt(&entry_jt, &out);
			cline_send(out.echo, out.necho);
		}
		if (evbuffer_get_length(entry_answer) > 0)
			log_info("line up: typing the %zu bytes that wait",
			    evbuffer_get_length(entry_answer));
		entry_type_next();
		break;
	case CLINE_DOWN:
		log_warnx("line down: %s; typing waits for it", msg);
		break;
	case CLINE_DROP:
		log_warnx("line: %s", msg);
		break;
	}
}
