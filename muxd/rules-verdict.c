/*
 * The verdicts of the contest rules (rules.c): each final verdict goes to
 * the watchers, to the link's capture as a marker and to compliance.txt
 * in the state directory, in ASCII, the same text in all three; the
 * assertion verdict of each entity and judge pair is kept, and saved in
 * the state file, so that only the first interaction of a pair is
 * checked, across rounds and restarts.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "muxd.h"
#include "rules.h"

#define RULES_VERDICTS_MAX	4096

struct rules_verdict {			/* one entity and judge pair */
	char			*entity;
	int			 judge;
	enum assertion_verdict	 verdict;
};

static struct rules_verdict	 rules_verdicts[RULES_VERDICTS_MAX];
static size_t			 rules_nverdicts;

static struct rules_verdict *rules_verdict_get(const char *, int);

/* Find the recorded verdict of an entity and judge pair. */
static struct rules_verdict *
rules_verdict_get(const char *entity, int judge)
{
	size_t	i;

	for (i = 0; i < rules_nverdicts; i++)
		if (rules_verdicts[i].judge == judge &&
		    strcmp(rules_verdicts[i].entity, entity) == 0)
			return (&rules_verdicts[i]);
	return (NULL);
}

/* Tell whether the verdict of an entity and judge pair is kept. */
int
rules_verdict_find(const char *entity, int judge)
{
	return (rules_verdict_get(entity, judge) != NULL);
}

/* Keep the final assertion verdict of an entity and judge pair. */
void
rules_verdict_keep(const char *entity, int judge, enum assertion_verdict vd)
{
	struct rules_verdict	*v;

	if (rules_verdict_get(entity, judge) != NULL)
		return;
	if (rules_nverdicts == RULES_VERDICTS_MAX) {
		log_warnx("verdict of %s and judge %02d not kept: %d pairs "
		    "already", entity, judge, RULES_VERDICTS_MAX);
		return;
	}
	v = &rules_verdicts[rules_nverdicts++];
	v->entity = xstrdup(entity);
	v->judge = judge;
	v->verdict = vd;
	state_save_soon();
}

/* Forget the verdicts kept (muxd stops). */
void
rules_verdict_free(void)
{
	size_t	i;

	for (i = 0; i < rules_nverdicts; i++)
		free(rules_verdicts[i].entity);
	rules_nverdicts = 0;
}

/*
 * Write n bytes for a report in ASCII: bytes outside the printable range
 * and the backslash escaped (\\, \xNN), and the space too when the text
 * must be one word, so that events, markers and compliance.txt all take
 * it as it is.
 */
void
rules_verdict_escape_n(const unsigned char *s, size_t n, char *dst, size_t len,
    int word)
{
	size_t	i, k = 0;

	for (i = 0; i < n && k + 5 < len; i++) {
		if (s[i] > (word ? 0x20 : 0x1f) && s[i] < 0x7f && s[i] != '\\')
			dst[k++] = (char)s[i];
		else
			k += snprintf(dst + k, len - k, s[i] == '\\' ? "\\\\" :
			    "\\x%02x", s[i]);
	}
	dst[k] = '\0';
}

/* Write a string for a report in ASCII (rules_verdict_escape_n). */
void
rules_verdict_escape(const char *src, char *dst, size_t len)
{
	rules_verdict_escape_n((const unsigned char *)src, strlen(src), dst,
	    len, 0);
}

/*
 * Report a verdict of a kind ("assertion", "character"): to the watchers
 * at once and, when it is final, to the link's capture and the compliance
 * file.  The text starts with the kind and the entity.
 */
void
rules_verdict_report(struct rules *r, int final, const char *kind,
    const char *verdict, const char *fmt, ...)
{
	char		 text[512], stamp[32], up[16], line[700];
	struct link	*l = r->link;
	time_t		 now = time(NULL);
	struct tm	 tm;
	va_list		 ap;
	size_t		 i;
	int		 n;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (i = 0; verdict[i] != '\0' && i < sizeof(up) - 1; i++)
		up[i] = toupper((unsigned char)verdict[i]);
	up[i] = '\0';
	verdict = up;
	log_info("verdict %s judge %02d link %s: %s", verdict, r->judge,
	    l->name, text);
	events_post(PROTOCOL_EV_VERDICT, json_pack("{sssssiss si sb ss ss}",
	    "verdict", verdict, "link", l->name, "judge", r->judge, "what",
	    text, "round", l->round, "final", final, "kind", kind, "entity",
	    r->entity));
	if (!final)
		return;
	record_link_note(l, "verdict %s judge %02d %s", verdict, r->judge,
	    text);
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y/%m/%d %H:%M:%S", &tm);
	n = snprintf(line, sizeof(line), "%s round %d %s judge %02d %s %s\n",
	    stamp, l->round, l->name, r->judge, verdict, text);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = (int)strlen(line);
	state_append("compliance.txt", NULL, line, (size_t)n, "compliance");
}

/* The kept assertion verdicts, the state file's member "assertions". */
json_t *
rules_verdict_save(void)
{
	json_t	*a;
	size_t	 i;

	a = json_array();
	for (i = 0; i < rules_nverdicts; i++)
		json_array_append_new(a, json_pack("{sssiss}", "entity",
		    rules_verdicts[i].entity, "judge", rules_verdicts[i].judge,
		    "verdict",
		    assertion_verdict_name(rules_verdicts[i].verdict)));
	return (json_pack("{so}", "assertions", a));
}

/*
 * Take the assertion verdicts back from the state file; entries not
 * understood are left out (check: there is nothing to check).
 */
int
rules_verdict_load(const json_t *o, int check, char *err, size_t errlen)
{
	json_t		*a, *e;
	const char	*entity, *verdict;
	size_t		 i;
	int		 judge, k;

	(void)err;
	(void)errlen;
	if (check || (a = json_object_get(o, "assertions")) == NULL ||
	    !json_is_array(a))
		return (0);
	json_array_foreach(a, i, e) {
		if (json_unpack(e, "{sssiss}", "entity", &entity, "judge",
		    &judge, "verdict", &verdict) == -1 ||
		    rules_nverdicts == RULES_VERDICTS_MAX ||
		    rules_verdict_get(entity, judge) != NULL)
			continue;
		for (k = ASSERTION_PASS; k <= ASSERTION_FAIL; k++)
			if (strcmp(verdict, assertion_verdict_name(k)) == 0)
				break;
		if (k > ASSERTION_FAIL)
			continue;
		rules_verdicts[rules_nverdicts].entity = strdup(entity);
		rules_verdicts[rules_nverdicts].judge = judge;
		rules_verdicts[rules_nverdicts].verdict = k;
		if (rules_verdicts[rules_nverdicts].entity != NULL)
			rules_nverdicts++;
	}
	return (0);
}
