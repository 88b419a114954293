/*
 * The contest rules' own parts, bottom up: rules-verdict.c (verdicts
 * reported and kept), rules-screen.c (the judge's screen, the referees'
 * text), rules-entity.c (the entity's output checked, held back, injected)
 * and rules.c (the link's machines); muxd.h has what the rest of muxd
 * calls.
 */
#ifndef RULES_H
#define RULES_H

#include "capture.h"

struct rules {
	/* What each chunk touches first, on as few cache lines as can be. */
	struct link		*link;
	struct assertion	*assertion;	/* NULL: not checked here */
	int			 convention;
	enum cap_encoding	 charset;	/* the entity's */
	int			 spoke;		/* the entity wrote something */
	int			 holding;	/* hold is in use */
	size_t			 ninject;	/* inject: its length */
	struct timeval		 last;		/* time of its last chunk */
	size_t			 run;		/* its characters within 1 ms */
	int			 counted;	/* the run counted a burst */
	enum assertion_verdict	 said;		/* last verdict announced */
	uint64_t		 chars;
	size_t			 longest;
	uint64_t		 bursts;
	uint64_t		 released;	/* characters that waited */
	struct judgeterm	 jt;
	struct filter		 filter;
	struct utf8		 text8[2];	/* utf-8: judge's, entity's */
	char			 entity[64];	/* its name */
	int			 judge;		/* from the schedule */
	enum conf_assert	 policy;
	struct hold		 hold;		/* inject, hold: held output */
	struct event		*ev;		/* next injected key, release */
	char			 inject[ASSERTION_NAMEMAX + 64];
	size_t			 injected;	/* inject: its bytes typed */
	size_t			 keys;		/* inject: keys typed */
	struct typing		 typing;
};

extern const struct conf	*rules_conf;

/* rules-screen.c */
void		 rules_screen_send(struct rules *, const unsigned char *, size_t);
void		 rules_screen_text(struct rules *, const char *,
		    const unsigned char *, size_t);

/* rules-entity.c */
void		 rules_entity_hold(struct rules *, const char *);
void		 rules_entity_push(struct rules *, const unsigned char *, size_t,
		    const struct timeval *);
void		 rules_entity_out(struct rules *, const unsigned char *, size_t,
		    const struct timeval *, int);
void		 rules_entity_assertion(struct rules *);
void		 rules_entity_end(struct rules *);

/* rules-verdict.c */
int		 rules_verdict_find(const char *, int);
void		 rules_verdict_keep(const char *, int, enum assertion_verdict);
void		 rules_verdict_free(void);
void		 rules_verdict_escape(const char *, char *, size_t);
void		 rules_verdict_escape_n(const unsigned char *, size_t, char *,
		    size_t, int);
void		 rules_verdict_report(struct rules *, int, const char *,
		    const char *, const char *, ...)
		    __attribute__((format(printf, 5, 6)));

#endif /* RULES_H */
