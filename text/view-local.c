/*
 * The judge's screen with a terminal that echoes the keys itself
 * (VIEW_LOCALECHO; view.c, "Local echo"): the prompt written before the
 * key that needs it, a key the terminal showed off the judge's line
 * taken back, the cursor put back after an erase key, and what the
 * terminal showed of each key, for export and replay.
 */
#include <string.h>

#include "text.h"
#include "view.h"

/*
 * A terminal that echoes by itself (VIEW_LOCALECHO) has shown key c, of
 * w columns, where its cursor stood before muxd reads it.  Where that is
 * not the screen's (the judge's line off the screen since the entity
 * wrote; an erase, which muxd draws itself), take the echo back so that
 * muxd echoes the key, on the line drawn again: 1 when it does, the
 * key's echo on until the key is done.
 */
int
view_local_unecho(struct view *v, enum conv_key key, unsigned char c, int w)
{
	size_t	col = v->shown ? v->jcol : v->ent.cols, to;

	if (!v->prompt || v->keyecho || v->dirty)
		return (0);
	if (key == CONV_ERASE) {
		/* Back where the key found it, whatever its echo moved. */
		if (v->shown && col == 0 && v->jrow > 0)
			view_puts(v, "\0338");	/* saved there: view_local_mark */
		else if (col > 0) {
			view_put(v, "\r", 1);
			view_move(v, 0, col);
		}
	} else if (v->shown)
		return (0);		/* the echo is where it belongs */
	else if (conv_ends_line(key)) {
		view_puts(v, "\033[A");	/* its CR LF undone */
		view_move(v, 0, col);
	} else {
		to = col + (c == '\t' ? conv_tab(col) : w > 0 ? (size_t)w : 0);
		if (to > v->width) {
			/* The terminal wrapped it to the next row. */
			view_puts(v, "\r\033[K\033[A");
			view_move(v, 0, col);
		} else {
			view_move(v, to, col);
			view_puts(v, "\033[K");
		}
	}
	v->keyecho = 1;
	return (1);
}

/*
 * With a terminal that echoes by itself, write the prompt as soon as the
 * cursor begins a fresh row and the judge's line is not on the screen:
 * the next key shows where the cursor is, before muxd could write the
 * prompt for it.  (Not after a row left unfinished: that would take the
 * prompt off and on again for every character the entity types.)
 */
void
view_local_ready(struct view *v)
{
	if (v->prompt && !v->keyecho && !v->shown && v->ent.ncell == 0 &&
	    v->ent.cols == 0)
		view_show(v);
}

/*
 * With a terminal that echoes by itself, save the cursor (DECSC) where
 * muxd's bytes left it at the start of a row of the judge's line after
 * its first: an erase key there is taken back by some terminals to the
 * end of the row above (tmux) and not by others (VT100, xterm), so
 * view_local_unecho restores it (DECRC) rather than guess.
 */
void
view_local_mark(struct view *v)
{
	if ((v->flags & VIEW_LOCALECHO) && v->prompt && v->shown &&
	    v->jcol == 0 && v->jrow > 0 && v->olen > 0)
		view_puts(v, "\0337");
}

/*
 * What a terminal that echoes by itself (VIEW_LOCALECHO) showed for the
 * judge's key c, which view_key read as k, before muxd wrote anything for
 * it: a character as the terminal writes it, Enter as CR LF (CR alone
 * with VIEW_ECHOCR), BS as a move
 * left, nothing else (DEL, keys the screen drops).  Written to out
 * (VIEW_SHOWMAX bytes), its length returned; nothing without the flag.
 */
size_t
view_local_key(struct view *v, unsigned char c, const struct view_key *k,
    char *out)
{
	if (!v->prompt || v->keyecho)
		return (0);
	v->o = out;
	v->olen = 0;
	v->osize = VIEW_SHOWMAX;
	switch (k->kind) {
	case VIEW_KEY_TEXT:
		if (c == VIEW_TAB)
			view_put(v, "\t", 1);
		else
			view_text_out(v, (const unsigned char *)k->text,
			    k->ntext);
		break;
	case VIEW_KEY_EOL:
		if (v->flags & VIEW_ECHOCR)
			view_put(v, "\r", 1);
		else
			view_put(v, "\r\n", 2);
		break;
	case VIEW_KEY_ERASE:
		if (c == '\b')
			view_put(v, "\b", 1);
		break;
	default:
		break;
	}
	v->o = NULL;
	return (v->olen);
}

/*
 * With a terminal that shows Enter as CR alone (VIEW_ECHOCR), write the
 * LF of the CR LF others show, as the key is read: the screen is then
 * the same for both, and what follows holds for either.
 */
void
view_local_enter(struct view *v)
{
	if ((v->flags & VIEW_ECHOCR) && v->prompt && !v->keyecho)
		view_put(v, "\n", 1);
}

/*
 * The view flags for a station's terminals as its "localecho" has them
 * (enum view_echo): none of their own, or echoing with Enter shown as
 * CR LF or as CR alone.
 */
int
view_local_flags(int echo)
{
	switch (echo) {
	case VIEW_ECHO_CRLF:
		return (VIEW_LOCALECHO);
	case VIEW_ECHO_CR:
		return (VIEW_LOCALECHO | VIEW_ECHOCR);
	default:
		return (0);
	}
}
