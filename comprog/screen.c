/*
 * The terminal, drawn with ncurses from the panes' text (pane.c).
 *
 * Why ncurses: terminfo knows the judge's and the confederate's terminal
 * types (a VT100, a console, an xterm, tmux), a split screen with a status
 * line is redrawn with the fewest bytes, colours degrade to attributes on
 * a monochrome terminal, and endwin() gives the terminal back as it was.
 * Keys are not read through curses: comprog reads its standard input
 * itself, a byte at a time, so every key goes to the line as typed.
 *
 * Layouts.  SCREEN_SINGLE (the judge): the conversation, then a status
 * line.  SCREEN_SPLIT (the confederate): a top line (the reminder of the
 * opening assertion), a title bar over the judge's pane, the judge's pane,
 * a title bar over the confederate's pane, that pane (which holds the
 * cursor), and the status line.  Panes are wrapped at the profile's line
 * width or the screen's, whichever is smaller, and everything is drawn
 * again from the text after a resize (SIGWINCH, screen_resize()).
 * A character takes the columns pane.c gives it (two for CJK and emoji),
 * a combining mark is drawn in the cell of the character before it, and
 * the locale says how the terminal takes them (a terminal with the C
 * locale is taken to be UTF-8).
 *
 * The terminal is restored on every exit path: screen_end() runs from the
 * normal path, from the signal handlers (SIGINT, SIGTERM, SIGHUP end the
 * loop) and from atexit(3), which covers fatal(); it is idempotent, and
 * after endwin() it puts back the termios settings saved before curses
 * started, as picocom's term.c does.  A crash (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGABRT) cannot call curses: its handler writes the terminal's
 * own "leave the full screen" string, noted at start, and the saved
 * termios, both async-signal-safe, then dies of the same signal.
 */
#include <sys/ioctl.h>

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>
#include <term.h>

#include "comprog.h"

#define SCREEN_TEXTMAX	512
#define SCREEN_MINROWS	24
#define SCREEN_MINCOLS	80

static struct termios	 screen_saved;		/* as found at start */
static int		 screen_saved_ok;
static int		 screen_on;
static SCREEN		*screen_term;
static enum screen_layout screen_layout;
static struct pane	*screen_panes[2];
static const struct profile *screen_prof;
static char		 screen_toptext[SCREEN_TEXTMAX];
static char		 screen_titles[2][SCREEN_TEXTMAX];
static char		 screen_stat[SCREEN_TEXTMAX];
static int		 screen_alert;
static int		 screen_pairs;		/* colours are on */
static char		 screen_leave[64];	/* rmcup and a line end */
static size_t		 screen_nleave;

static void	screen_colours(void);
static int	screen_attr(int);
static unsigned int screen_utf8(const unsigned char *, size_t, size_t *);
static void	screen_bar(int, const char *, int);
static void	screen_cell(int, int, const struct pane_line *, size_t,
		    size_t);
static int	screen_pane(const struct pane *, int, int, int, int *, int *);
static void	screen_atexit(void);
static void	screen_crash(int);
static void	screen_crash_arm(void);

/* Restore the terminal at exit, whatever the path. */
static void
screen_atexit(void)
{
	screen_end();
}

/*
 * Take the terminal: save its settings, start curses in raw mode without
 * echo, and lay out the panes (the second only for SCREEN_SPLIT).
 */
int
screen_init(const struct profile *prof, enum screen_layout layout,
    struct pane *first, struct pane *second, char *err, size_t errlen)
{
	static int	registered;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen, "standard input and output must be a "
		    "terminal");
		return (-1);
	}
	if (tcgetattr(STDIN_FILENO, &screen_saved) == 0)
		screen_saved_ok = 1;
	if (!registered) {
		atexit(screen_atexit);
		registered = 1;
	}
	/*
	 * The terminal's characters are the locale's; the C locale's are
	 * ASCII alone, where nothing but '?' could show é or 日, so a
	 * terminal with no locale is taken to be UTF-8 (SPEC: the judges'
	 * terminals are), whatever the line's charset.
	 */
	if (setlocale(LC_CTYPE, "") == NULL ||
	    strcmp(nl_langinfo(CODESET), "ANSI_X3.4-1968") == 0)
		setlocale(LC_CTYPE, "C.UTF-8");
	if ((screen_term = newterm(NULL, stdout, stdin)) == NULL) {
		snprintf(err, errlen, "cannot use terminal type '%s'",
		    getenv("TERM") != NULL ? getenv("TERM") : "(TERM unset)");
		return (-1);
	}
	screen_on = 1;
	screen_crash_arm();
	raw();
	noecho();
	nonl();
	keypad(stdscr, FALSE);
	leaveok(stdscr, FALSE);
	screen_prof = prof;
	screen_layout = layout;
	screen_panes[0] = first;
	screen_panes[1] = second;
	screen_colours();
	screen_draw();
	return (0);
}

/*
 * Note how to leave the full screen without curses, and restore the
 * terminal from a crash.
 */
static void
screen_crash_arm(void)
{
	static const int	 sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
	    SIGABRT };
	struct sigaction	 sa;
	char			*rmcup;
	size_t			 i, n;

	rmcup = tigetstr("rmcup");
	n = rmcup != NULL && rmcup != (char *)-1 ? strlen(rmcup) : 0;
	if (n + 2 < sizeof(screen_leave)) {
		memcpy(screen_leave, rmcup, n);
		memcpy(screen_leave + n, "\r\n", 2);
		screen_nleave = n + 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = screen_crash;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* A crash: give the terminal back, then die of the same signal. */
static void
screen_crash(int sig)
{
	int	saved = errno;

	if (screen_on && screen_nleave > 0 &&
	    write(STDOUT_FILENO, screen_leave, screen_nleave) == -1)
		errno = saved;
	if (screen_saved_ok)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &screen_saved);
	raise(sig);
}

/* Set the colour pairs of the profile, when the terminal has colours. */
static void
screen_colours(void)
{
	int	i;

	if (!has_colors() || start_color() == ERR)
		return;
	use_default_colors();
	for (i = 0; i < PROFILE_NCOLOURS; i++)
		init_pair(i + 1, screen_prof->fg[i], screen_prof->bg[i]);
	screen_pairs = 1;
}

/* The attributes of a profile colour. */
static int
screen_attr(int which)
{
	int	a = 0;

	if (screen_prof->bold[which])
		a |= A_BOLD;
	if (screen_pairs)
		a |= COLOR_PAIR(which + 1);
	if (which == PROFILE_STATUS || which == PROFILE_ALERT ||
	    (which == PROFILE_REMINDER && !screen_pairs))
		a |= A_REVERSE;
	return (a);
}

/* Give the terminal back as it was; safe to call more than once. */
void
screen_end(void)
{
	if (screen_on) {
		screen_on = 0;
		endwin();
		delscreen(screen_term);
		screen_term = NULL;
	}
	if (screen_saved_ok) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &screen_saved);
		screen_saved_ok = 0;
	}
}

/* Tell whether curses has the terminal. */
int
screen_active(void)
{
	return (screen_on);
}

/* Take the new size of the terminal and draw everything again. */
void
screen_resize(void)
{
	struct winsize	ws;

	if (!screen_on)
		return;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	clear();
	screen_draw();
}

/* The size of the screen, rows and columns. */
void
screen_size(int *rows, int *cols)
{
	*rows = screen_on ? LINES : 0;
	*cols = screen_on ? COLS : 0;
}

/* Ring the terminal's bell. */
void
screen_beep(void)
{
	if (screen_on)
		beep();
}

/* Set the top line (the split layout's reminder). */
void
screen_top(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(screen_toptext, sizeof(screen_toptext), fmt, ap);
	va_end(ap);
}

/* Set the title bar over pane i (split layout). */
void
screen_title(int i, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(screen_titles[i & 1], sizeof(screen_titles[0]), fmt, ap);
	va_end(ap);
}

/* Set the status line; alert shows it in the alert colour. */
void
screen_status(int alert, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(screen_stat, sizeof(screen_stat), fmt, ap);
	va_end(ap);
	screen_alert = alert;
}

/*
 * A character of a bar's UTF-8 text from U+00A0 on at t, its length in
 * *used; 0 when there is none there.
 */
static unsigned int
screen_utf8(const unsigned char *t, size_t len, size_t *used)
{
	unsigned int	cp;

	if (len == 0 || t[0] < 0x80 || !utf8_decode(t, len, used, &cp) ||
	    cp < 0xa0)
		return (0);
	return (cp);
}

/*
 * Draw a bar: a whole row of text in a profile colour; with the UTF-8
 * charset a character from U+00A0 on is drawn as itself in its columns
 * (pane_charwidth), with the marks after it, else '?'.
 */
static void
screen_bar(int y, const char *text, int which)
{
	const unsigned char	*t = (const unsigned char *)text;
	size_t			 i = 0, len = strlen(text), used, n;
	unsigned int		 cp, mark;
	cchar_t			 cc;
	wchar_t			 wc[CCHARW_MAX + 1];
	int			 x = 0, w, attr = screen_attr(which);

	attrset(attr);
	while (x < COLS && i < len) {
		if (screen_prof->charset != CAP_UTF8 ||
		    (cp = screen_utf8(t + i, len - i, &used)) == 0) {
			mvaddch(y, x++, t[i] < 0x20 || t[i] >= 0x7f ? '?' :
			    (chtype)t[i]);
			i++;
			continue;
		}
		i += used;
		n = 0;
		if ((w = pane_charwidth(cp)) == 0) {
			wc[n++] = L' ';
			w = 1;
		}
		if (x + w > COLS)
			break;
		wc[n++] = wcwidth((wchar_t)cp) < 0 ? 0xfffd : (wchar_t)cp;
		while ((mark = screen_utf8(t + i, len - i, &used)) != 0 &&
		    pane_charwidth(mark) == 0) {
			if (n < CCHARW_MAX && wcwidth((wchar_t)mark) == 0)
				wc[n++] = (wchar_t)mark;
			i += used;
		}
		wc[n] = L'\0';
		if (setcchar(&cc, wc, (attr_t)attr, 0, NULL) == OK)
			mvadd_wch(y, x, &cc);
		else
			mvaddch(y, x, '?');
		x += w;
	}
	for (; x < COLS; x++)
		mvaddch(y, x, ' ');
	attrset(A_NORMAL);
}

/*
 * Draw the character of cell k of a line at y, x, with the marks (cells
 * of no column) that follow it up to end, as one curses cell; a mark
 * that begins a line is drawn on a space.  A character the locale has
 * no width for is drawn as U+FFFD, in the columns the pane gave it.
 */
static void
screen_cell(int y, int x, const struct pane_line *l, size_t k, size_t end)
{
	static const int	 colours[PANE_NWHO] = { PROFILE_JUDGE,
	    PROFILE_ENTITY, PROFILE_PROMPT, PROFILE_NOTE };
	const struct pane_cell	*cell = &l->cell[k];
	cchar_t			 cc;
	wchar_t			 wc[CCHARW_MAX + 1];
	size_t			 n = 0;
	int			 attr;

	attr = screen_attr(colours[cell->who < PANE_NWHO ? cell->who : 0]);
	if (cell->c < 0x80 && (k + 1 >= end || l->cell[k + 1].cols != 0)) {
		mvaddch(y, x, (chtype)cell->c | (chtype)attr);
		return;
	}
	if (pane_charwidth(cell->c) == 0)
		wc[n++] = L' ';
	wc[n++] = wcwidth((wchar_t)cell->c) < 0 ? 0xfffd : (wchar_t)cell->c;
	for (k++; k < end && l->cell[k].cols == 0; k++)
		if (n < CCHARW_MAX && wcwidth((wchar_t)l->cell[k].c) == 0)
			wc[n++] = (wchar_t)l->cell[k].c;
	wc[n] = L'\0';
	if (setcchar(&cc, wc, (attr_t)attr, 0, NULL) == OK)
		mvadd_wch(y, x, &cc);
	else
		mvaddch(y, x, '?' | (chtype)attr);
}

/*
 * Draw a pane's last lines in rows y0..y0+h-1, wrapped at width w
 * columns (pane_starts); the place after its last character goes to
 * *cy, *cx.  Returns 0.
 */
static int
screen_pane(const struct pane *p, int y0, int h, int w, int *cy, int *cx)
{
	static size_t		 starts[PANE_LINEMAX + 2];
	const struct pane_line	*l;
	size_t			 count, i, r, nr, off, k, end, cols = 0;
	size_t			 rowline[256], rowoff[256];
	int			 row, used, y, x;

	if (h <= 0 || w <= 0)
		return (0);
	if (h > 256)
		h = 256;
	count = pane_count(p);
	row = h - 1;
	for (i = count; i > 0 && row >= 0; i--) {
		l = pane_line(p, i - 1);
		nr = pane_starts(l, (size_t)w, i == count, starts);
		for (r = nr; r > 0 && row >= 0; r--) {
			rowline[row] = i - 1;
			rowoff[row] = starts[r - 1];
			row--;
		}
	}
	used = h - 1 - row;
	for (y = 0; y < used; y++) {
		l = pane_line(p, rowline[row + 1 + y]);
		off = rowoff[row + 1 + y];
		end = pane_row_end(l, off, (size_t)w, &cols);
		for (k = off, x = 0; k < end; k++) {
			if (l->cell[k].cols == 0 && k > off)
				continue;	/* drawn with the cell before */
			screen_cell(y0 + y, x, l, k, end);
			x += l->cell[k].cols;
		}
	}
	/* The last row drawn is the current line's last: the cursor's. */
	*cy = y0 + (used > 0 ? used - 1 : 0);
	*cx = used > 0 && cols < (size_t)w ? (int)cols : 0;
	return (0);
}

/* Draw the whole screen from the panes and the bars. */
void
screen_draw(void)
{
	int	width, h0, h1, cy = 0, cx = 0, y, x;

	if (!screen_on)
		return;
	erase();
	width = COLS < screen_prof->width ? COLS : screen_prof->width;
	if (screen_layout == SCREEN_SINGLE) {
		screen_pane(screen_panes[0], 0, LINES - 1, width, &cy, &cx);
	} else {
		h0 = (LINES - 4) / 2;
		h1 = LINES - 4 - h0;
		screen_bar(0, screen_toptext, PROFILE_REMINDER);
		screen_bar(1, screen_titles[0], PROFILE_STATUS);
		screen_pane(screen_panes[0], 2, h0, width, &y, &x);
		screen_bar(2 + h0, screen_titles[1], PROFILE_STATUS);
		screen_pane(screen_panes[1], 3 + h0, h1, width, &cy, &cx);
	}
	if (LINES < SCREEN_MINROWS || COLS < SCREEN_MINCOLS) {
		char	small[SCREEN_TEXTMAX];

		snprintf(small, sizeof(small), "terminal %dx%d: comprog "
		    "wants %dx%d at least | %s", COLS, LINES, SCREEN_MINCOLS,
		    SCREEN_MINROWS, screen_stat);
		screen_bar(LINES - 1, small, PROFILE_ALERT);
	} else
		screen_bar(LINES - 1, screen_stat, screen_alert ?
		    PROFILE_ALERT : PROFILE_STATUS);
	move(cy, cx);
	refresh();
}
