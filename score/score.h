/*
 * libscore: the judges' ballots and the contests' scoring, by the rules
 * of 2004 (pairs won, points), 2009 (picks, mean rank), 2003 (mean
 * rating) and the Long Now wager (the Human Determination and Rank Order
 * Tests).  The configuration names a rule (muxd.conf(5), rules.ballot:
 * score_rule_parse), muxd writes it into the ballots it takes
 * (score_rule_name), and the auditors' tool scores a ballots file
 * (`transcripts score`: score_ballots_read, score_run).
 *
 *	score-ballots	a ballots file read (CSV, as muxd writes it, or JSON),
 *			with the pairs that met when it lists them
 *	score-check	the ballots checked against the schedule: missing,
 *			duplicated, for a pair that never met, a rank given
 *			twice
 *	score		the rules' names, and the scoring
 *
 * Like the capture library it sits on, it never logs and never exits:
 * a file that does not read is an enum cap_err and a struct cap_error,
 * and what a ballot gets wrong is a finding, kept with its line.
 */
#ifndef SCORE_H
#define SCORE_H

#include <stddef.h>

#include "capture.h"	/* enum cap_err, struct cap_error, findings */

/* score-ballots.c, score.c: the judges' ballots and the contests' scoring */
enum score_kind { SCORE_UNKNOWN, SCORE_ENTRY, SCORE_CONFEDERATE };
enum score_rule { SCORE_2004, SCORE_2009, SCORE_2003, SCORE_LONGNOW };
#define SCORE_NAME	64
#define SCORE_TRIALS	64
#define SCORE_FOILS	8
struct score_ballot {
	int		 round;		/* 0: none */
	char		 judge[SCORE_NAME];
	char		 entity[SCORE_NAME];
	char		 vs[SCORE_NAME];	/* the other of the pair */
	enum score_kind	 kind;
	double		 points;	/* 2004, or NAN */
	int		 human;		/* 1 human, 0 machine, -1 not said */
	double		 rank;		/* 1..4, or NAN */
	double		 rating;	/* 0..5, or NAN */
	unsigned long	 line;		/* in the ballots file */
};
struct score_pair {			/* a judge met a pair, or one */
	int		 round;		/* 0: not said */
	char		 judge[SCORE_NAME];
	char		 a[SCORE_NAME];
	char		 b[SCORE_NAME];	/* "": a single interview */
	enum score_kind	 kind[2];	/* of a and b */
	unsigned long	 line;		/* in the ballots file, 0: none */
};
struct score_ballots {
	struct score_ballot *v;
	size_t		 n;
	size_t		 cap;
	struct finding_list findings;	/* what did not read */
	struct score_pair *pair;	/* the schedule: who met whom */
	size_t		 npair;
	size_t		 cappair;
	int		 scheduled;	/* the pairs are the schedule (else
					   only those the ballots name) */
	char		 schedule[256];	/* where the schedule came from */
};
struct score_value {
	double		 v;		/* points, pick, rating or rank */
	char		 judge[SCORE_NAME];
};
struct score_entity {
	char		 name[SCORE_NAME];
	enum score_kind	 kind;
	double		 score;		/* 2004 pairs won, 2009 picks, 2003
					   mean rating, Long Now fooled */
	double		 tiebreak;	/* 2004 points, 2009 mean rank */
	size_t		 nballot;
	int		 partial;	/* a ballot of it is in error */
	struct score_value *value;	/* each judge's, for the chart */
	size_t		 nvalue;
	size_t		 capvalue;
};
struct score_trial {			/* Long Now */
	int		 round;
	char		 computer[SCORE_NAME];
	int		 judges;	/* judges who ranked the computer */
	int		 fooled;	/* ... and took it for human */
	double		 computer_median;
	char		 foil[SCORE_FOILS][SCORE_NAME];
	double		 foil_median[SCORE_FOILS];
	int		 nfoil;
	int		 beaten;	/* foils ranked at or below it */
	int		 determination;	/* the Human Determination Test */
	int		 rank_order;	/* the Rank Order Test */
	int		 passed;
};
struct score_result {
	enum score_rule	 rule;
	struct score_entity *e;
	size_t		 n;
	size_t		 cap;
	char		 winner[SCORE_NAME];	/* "" when none */
	char		 medal[16];	/* "bronze", "silver", "" */
	char		 decided[512];	/* which rule decided, and how */
	struct score_trial trial[SCORE_TRIALS];
	size_t		 ntrial;
	int		 passed;	/* Long Now trials passed */
	struct finding_list findings;	/* what the ballots get wrong */
};
void		 score_ballots_init(struct score_ballots *);
void		 score_ballots_free(struct score_ballots *);
void		 score_ballot_init(struct score_ballot *);
enum cap_err	 score_ballots_read(const char *, struct score_ballots *,
		    struct cap_error *);
int		 score_pair_add(struct score_ballots *, int, const char *,
		    const char *, const char *, enum score_kind,
		    enum score_kind, unsigned long);
int		 score_judge_same(const char *, const char *);
int		 score_check(enum score_rule, const struct score_ballots *,
		    unsigned char *, struct score_result *);
struct score_entity *score_result_entity(struct score_result *,
		    const char *, enum score_kind);
int		 score_rule_parse(const char *, enum score_rule *);
const char	*score_rule_name(enum score_rule);
void		 score_run(enum score_rule, const struct score_ballots *,
		    struct score_result *);
void		 score_result_free(struct score_result *);
int		 score_note(struct finding_list *, unsigned long, const char *,
		    ...) __attribute__((format(printf, 3, 4)));

#endif /* SCORE_H */
