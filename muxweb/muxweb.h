/*
 * muxweb: the referee's and the auditor's browser for a muxd(8) room.
 *
 * It talks to muxd only through the control socket: one "watch"
 * connection, kept for the program's life, whose events every browser
 * shares (a ring of the latest lines, muxweb-ring.c), and a connection a
 * request for a status or a round command (muxweb-muxd.c).  The HTTP
 * server is libmicrohttpd's, the connections sharing one thread, what
 * takes time in threads of its own (muxweb-http.c); the
 * live room page is one HTML file built in (muxweb-page.c).
 */
#ifndef MUXWEB_H
#define MUXWEB_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <microhttpd.h>

#define MUXWEB_RING		4096	/* event lines kept for browsers */
#define MUXWEB_KEPT		1024	/* state events kept for arrivals */
#define MUXWEB_ERRLEN		512

/* muxweb-ring.c */
uint64_t	 muxweb_ring_add(const char *, size_t);
char		*muxweb_ring_next(uint64_t *);
uint64_t	 muxweb_ring_head(void);
json_t		*muxweb_ring_kept_json(uint64_t);

/* muxweb-muxd.c */
void		 muxweb_muxd_init(const char *);
json_t		*muxweb_muxd_call(const char *, json_t *, char *, size_t);
void		 muxweb_muxd_watch_start(void);
int		 muxweb_muxd_watching(void);
json_t		*muxweb_muxd_screens(char *, size_t);

/* muxweb-http.c */
struct muxweb_http;
struct muxweb_http *muxweb_http_start(const char *, const char *,
		    unsigned int, unsigned int, char *, size_t);
void		 muxweb_http_stop(struct muxweb_http *);
void		 muxweb_http_wake(void);

/* muxweb-guard.c */
const char	*muxweb_guard_init(const char *, int, unsigned int);
void		 muxweb_guard_free(void);
int		 muxweb_guard_allowed(struct MHD_Connection *, const char *);
void		 muxweb_guard_headers(struct MHD_Response *, const char *,
		    const char *, size_t);
enum MHD_Result	 muxweb_guard_login(struct MHD_Connection *);
void		 muxweb_guard_notify(void *, struct MHD_Connection *, void **,
		    enum MHD_ConnectionNotificationCode);
void		 muxweb_guard_asked(struct MHD_Connection *, int);
void		 muxweb_guard_completed(void *, struct MHD_Connection *,
		    void **, enum MHD_RequestTerminationCode);
void		 muxweb_guard_sweep(void);

/* muxweb-audit.c */
void		 muxweb_audit_init(const char *, const char *, const char *,
		    const char *);
unsigned int	 muxweb_audit_get(const char *, char **, size_t *,
		    const char **);

/* muxweb-page.c, made from the pages muxweb/NAME.html */
extern const char	muxweb_page_live[];
extern const char	muxweb_page_audit[];

#endif /* MUXWEB_H */
