/*
 * The screen's model inside: what view.c shares with view-local.c.
 */
#ifndef VIEW_H
#define VIEW_H

#define VIEW_BEL	0x07
#define VIEW_TAB	0x09

/* view.c */
void	view_put(struct view *, const void *, size_t);
void	view_puts(struct view *, const char *);
void	view_move(struct view *, size_t, size_t);
void	view_show(struct view *);
void	view_text_out(struct view *, const unsigned char *, size_t);

/* view-local.c */
int	view_local_unecho(struct view *, enum conv_key, unsigned char, int);
void	view_local_ready(struct view *);
void	view_local_mark(struct view *);
void	view_local_enter(struct view *);

#endif
