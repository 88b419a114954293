/*
 * muxctl: the control client of muxd(8).  It speaks the control protocol
 * (protocol.h) and links nothing of the daemon.
 */
#ifndef MUXCTL_H
#define MUXCTL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "protocol.h"

/* muxctl.c */
const char	*muxctl_get_str(const json_t *, const char *);
json_t		*muxctl_ask(const char *, json_t *, json_t **);
int		 muxctl_positive(const char *);
void		 muxctl_print_json(const json_t *);

/* muxctl-witness.c */
int		 muxctl_witness(int, char **, int);

/* muxctl-cablecheck.c */
int		 muxctl_cablecheck(const char *, int, int, char **);

/* muxctl-show.c */
void		 muxctl_show(const char *, const json_t *);
void		 muxctl_show_event(const json_t *);

/* muxctl-referee.c: watch --text */
struct timespec;
void		 muxctl_referee_init(void);
void		 muxctl_referee_event(const json_t *);
int		 muxctl_referee_deadline(struct timespec *);
void		 muxctl_referee_quiet(void);
void		 muxctl_referee_end(void);

#endif /* MUXCTL_H */
