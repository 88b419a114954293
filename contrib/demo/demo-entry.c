/*
 * demo-entry: a tiny ELIZA-like contest Entry for the demo room.
 *
 * Runs on a raw line (stdin and stdout a raw pty, as muxd's exec: gives it):
 * it gets the judge's keystrokes byte by byte and never echoes.  A turn ends
 * with two line ends in a row, a line end being CR, LF, CRLF or LFCR.  A line
 * "@@nn" announces judge nn (1996 convention).  The first reply to each judge
 * opens with the 2004 assertion "Hello, my name is NAME and I am the human."
 * Replies are typed a key at a time, like a person.
 */

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define DEMO_TEXT_MAX	4096	/* judge text kept per turn, the rest dropped */

/* The judge's side of the conversation, fed one byte at a time. */
struct demo_turn {
	char	text[DEMO_TEXT_MAX];
	size_t	len;
	size_t	line;		/* where the current line starts */
	int	eols;		/* line ends in a row */
	int	pend;		/* CR or LF that may pair with the next */
	int	annc;		/* an announcement may take one more EOL */
	int	judge;		/* 0 until announced */
};

static const char	*demo_name = "Ada";
static long		 demo_delay = 60;
static unsigned int	 demo_seed;
static unsigned int	 demo_rot;
static char		 demo_greeted[100];

static const char *demo_defaults[] = { "Tell me more about that.",
	"I see. And how does that make you feel?", "Interesting. Go on.",
	"Hmm, I had not thought of it that way.",
	"That reminds me of something my sister once said." };
static const char *demo_counters[] = { "Why do you ask?",
	"What do you think?", "Does that question interest you?",
	"What would you answer yourself?" };

static void	usage(void) __attribute__((noreturn));

/* Print the command line summary and exit. */
static void
usage(void)
{
	fprintf(stderr, "usage: demo-entry [-n name] [-d delay_ms] "
	    "[-s seed]\n");
	exit(1);
}

/* Leave quietly on SIGTERM. */
static void
demo_term(int sig)
{
	(void)sig;
	_exit(0);
}

/* Write bytes to stdout; a line that has gone away ends the program. */
static void
demo_write(const char *p, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		if ((n = write(STDOUT_FILENO, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EIO || errno == EPIPE)
				exit(0);
			err(1, "write");
		}
		p += n;
		len -= n;
	}
}

/* Type a string a key at a time, with a typist's uneven delay. */
static void
demo_type(const char *s)
{
	struct timespec	ts;
	long		ms;

	for (; *s != '\0'; s++) {
		demo_write(s, 1);
		if (demo_delay == 0)
			continue;
		ms = demo_delay / 2 + rand_r(&demo_seed) % (demo_delay + 1);
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = ms % 1000 * 1000000;
		while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
			;
	}
}

/* Say whether text holds word, ignoring case, as a whole word. */
static int
demo_word(const char *text, const char *word)
{
	size_t		 l = strlen(word);
	const char	*p;

	for (p = text; *p != '\0'; p++) {
		if (strncasecmp(p, word, l) != 0)
			continue;
		if ((p == text || !isalpha((unsigned char)p[-1])) &&
		    !isalpha((unsigned char)p[l]))
			return (1);
	}
	return (0);
}

/* Compose and type the reply to a finished turn. */
static void
demo_reply(struct demo_turn *t)
{
	char		 buf[128], hello[128];
	const char	*a;
	size_t		 n;

	t->text[t->len] = '\0';
	if (demo_word(t->text, "name")) {
		snprintf(buf, sizeof buf, "My name is %s. What is yours?",
		    demo_name);
		a = buf;
	} else if (demo_word(t->text, "weather"))
		a = "Grey and drizzly here, as usual. Do you like rain?";
	else if (demo_word(t->text, "where"))
		a = "I live in a small town by the sea. Where are you from?";
	else if (demo_word(t->text, "why"))
		a = "Why not? Most things have their reasons, I suppose.";
	else if (demo_word(t->text, "hello") || demo_word(t->text, "hi"))
		a = "Hi there! How are you today?";
	else if (strchr(t->text, '?') != NULL) {
		n = sizeof demo_counters / sizeof demo_counters[0];
		a = demo_counters[demo_rot++ % n];
	} else {
		n = sizeof demo_defaults / sizeof demo_defaults[0];
		a = demo_defaults[demo_rot++ % n];
	}
	if (!demo_greeted[t->judge]) {
		demo_greeted[t->judge] = 1;
		snprintf(hello, sizeof hello, "Hello, my name is %s and I am "
		    "the human. ", demo_name);
		demo_type(hello);
	}
	demo_type(a);
	demo_write("\r\n", 2);
	t->len = t->line = 0;
	t->eols = 0;
}

/* Close the current line; return 1 if it ends the turn. */
static int
demo_eol(struct demo_turn *t)
{
	const char	*l = t->text + t->line;
	size_t		 n = t->len - t->line;

	if (t->annc) {			/* the optional second EOL */
		t->annc = 0;
		return (0);
	}
	while (n > 4 && l[n - 1] == ' ')
		n--;
	if (n == 4 && l[0] == '@' && l[1] == '@' && isdigit((unsigned char)l[2])
	    && isdigit((unsigned char)l[3])) {
		t->judge = (l[2] - '0') * 10 + (l[3] - '0');
		t->len = t->line = 0;	/* a new judge: drop the rest */
		t->eols = 0;
		t->annc = 1;
		return (0);
	}
	if (t->len < DEMO_TEXT_MAX - 1)
		t->text[t->len++] = '\n';
	t->line = t->len;
	return (++t->eols == 2);
}

/* Feed one byte of the judge's input; return 1 when a turn is complete. */
static int
demo_feed(struct demo_turn *t, unsigned char c)
{
	if (c == '\r' || c == '\n') {
		if (t->pend != 0 && t->pend != c) {
			t->pend = 0;	/* second half of CRLF or LFCR */
			return (0);
		}
		t->pend = c;
		return (demo_eol(t));
	}
	t->pend = 0;
	if (c == 0x08 || c == 0x7f) {
		if (t->len > t->line)
			t->len--;
	} else if (c < 0x20)
		return (0);		/* other controls: ignored */
	else if (t->len < DEMO_TEXT_MAX - 1)
		t->text[t->len++] = c;
	t->eols = 0;
	t->annc = 0;
	return (0);
}

/* Read the judge byte by byte and answer each finished turn. */
int
main(int argc, char *argv[])
{
	static struct demo_turn	 turn;
	unsigned char		 buf[512];
	char			*end;
	ssize_t			 n, i;
	int			 ch;

	demo_seed = (unsigned int)time(NULL) ^ (unsigned int)getpid() << 16;
	while ((ch = getopt(argc, argv, "d:n:s:")) != -1) {
		switch (ch) {
		case 'd':
			demo_delay = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || demo_delay < 0 ||
			    demo_delay > 10000)
				errx(1, "-d %s: must be 0 to 10000 ms", optarg);
			break;
		case 'n':
			demo_name = optarg;
			if (*optarg == '\0' || strlen(optarg) > 64)
				errx(1, "-n %s: must be 1 to 64 characters",
				    optarg);
			break;
		case 's':
			demo_seed = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0')
				errx(1, "-s %s: must be a number", optarg);
			demo_rot = demo_seed;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, demo_term);

	for (;;) {
		if ((n = read(STDIN_FILENO, buf, sizeof buf)) == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EIO)
				return (0);
			err(1, "read");
		}
		if (n == 0)
			return (0);
		for (i = 0; i < n; i++)
			if (demo_feed(&turn, buf[i]))
				demo_reply(&turn);
	}
}
