/*
 * The commands of the transcripts(1) tool, one file each (cmd-NAME.c);
 * the table that dispatches them is in transcripts.c.  Each returns the
 * exit status: 0 done, 1 something was wrong (reported on stderr).
 */
#ifndef CMD_H
#define CMD_H

#include "transcripts.h"

struct cmd_entry {
	const char	*name;
	const char	*usage;		/* after "transcripts NAME " */
	int		 (*exec)(int, char **);
};

/* transcripts.c */
void		 cmd_usage(const struct cmd_entry *) __attribute__((noreturn));
void		 cmd_bad_option(const struct cmd_entry *, const char *,
		    char **) __attribute__((noreturn));
void		 cmd_warn_error(const struct cap_error *);

/* cmd-capture.c: reading captures, shared by the commands */
struct cap_reader *cmd_capture_open(const char *);
int		 cmd_capture_next(struct cap_reader *, struct cap_event *,
		    int *);
struct cmd_screen {			/* the judge's screen of a capture */
	struct view	 v;
	struct filter	 f;
	unsigned char	 shown[1024 + FILTER_HELDMAX];
	char		 key[VIEW_SHOWMAX];	/* muxd's bytes for a key */
};
void		 cmd_capture_screen(struct cmd_screen *,
		    const struct cap_reader *);
ssize_t		 cmd_capture_view(struct cmd_screen *, const struct cap_event *,
		    char **, size_t *);

/* cmd-files.c: lists of paths, and the walk of a directory */
struct cmd_files {
	char	**v;
	size_t	  n;
	size_t	  cap;
};
int		 cmd_files_push(struct cmd_files *, const char *);
int		 cmd_files_has(const struct cmd_files *, const char *);
int		 cmd_files_ends(const char *, const char *);
void		 cmd_files_sort(struct cmd_files *);
int		 cmd_files_walk(const char *, struct cmd_files *,
		    struct cmd_files *, struct cmd_files *, int);
const char	*cmd_files_base(const char *);
int		 cmd_files_is_manifest(const char *);
void		 cmd_files_free(struct cmd_files *);

/* cmd-render.c */
extern const struct cmd_entry cmd_render_entry;

/* cmd-replay.c */
extern const struct cmd_entry cmd_replay_entry;

/* cmd-export.c */
extern const struct cmd_entry cmd_export_entry;

/* cmd-import.c */
extern const struct cmd_entry cmd_import_entry;

/* cmd-stats.c */
extern const struct cmd_entry cmd_stats_entry;

/* cmd-verify.c */
extern const struct cmd_entry cmd_verify_entry;

/* cmd-index.c */
extern const struct cmd_entry cmd_index_entry;

/* cmd-score.c */
extern const struct cmd_entry cmd_score_entry;

#endif /* CMD_H */
