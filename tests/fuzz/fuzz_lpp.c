/*
 * libFuzzer harness for the LPP keystroke log parser (capture/lpp.c):
 * the input is a log.  Whatever it holds, the parser must account for
 * every line as a record, a header line or a defect, keep its records
 * within the input, and drop every record of a second copy of the log as
 * logged twice.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lpp.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void	fuzz_lpp_check(const struct lpp_log *, size_t);

/* Abort unless a parsed log is consistent with an input of len bytes. */
static void
fuzz_lpp_check(const struct lpp_log *log, size_t len)
{
	const struct lpp_record	*r;
	size_t			 i, sum = 0;
	int			 k;

	for (k = 0; k < LPP_D_COUNT; k++)
		sum += log->ndefect_kind[k];
	if (sum != log->ndefect_all || log->defects.n > log->ndefect_all ||
	    log->defects.n > LPP_DEFECT_MAX)
		abort();
	if (log->ncrlf + log->nlf > log->nline)
		abort();
	for (i = 0; i < log->nrecord; i++) {
		r = &log->record[i];
		if (r->side != LPP_LEFT && r->side != LPP_RIGHT)
			abort();
		if (r->byte < -1 || r->byte > 255 || r->keylen >= LPP_KEY_MAX ||
		    r->key[r->keylen] != '\0')
			abort();
		if (r->usec < 0 || r->line == 0 || r->line > log->nline ||
		    r->offset < 0 || (size_t)r->offset >= len)
			abort();
		if (i > 0 && r->line <= log->record[i - 1].line)
			abort();
		if ((r->byte == -1) != (lpp_key_byte(r->key, r->keylen) ==
		    -1) && r->keylen < LPP_KEY_MAX - 1)
			abort();
	}
	for (i = 0; i < log->defects.n; i++)
		if (log->defects.item[i].kind >= LPP_D_COUNT ||
		    (log->defects.item[i].offset >= 0 &&
		    (size_t)log->defects.item[i].offset > len) ||
		    memchr(log->defects.item[i].msg, '\0', FINDING_MSG) == NULL)
			abort();
	if (log->torn_line > 0 && (log->torn_line != log->nline ||
	    (size_t)log->torn_offset + log->torn_len != len))
		abort();
	if (log->nrecord == 0 && log->torn_line == 0 &&
	    log->ndefect_kind[LPP_D_EMPTY] != 1)
		abort();
}

/* One input: a log, parsed twice, the second copy deduplicated. */
int
LLVMFuzzerTestOneInput(const uint8_t *buf, size_t len)
{
	struct lpp_log		a, b;
	struct cap_error	e;

	if (lpp_parse("fuzz", buf, len, &a, &e) != CAP_OK) {
		lpp_free(&a);
		return (0);
	}
	fuzz_lpp_check(&a, len);
	if (lpp_parse("fuzz", buf, len, &b, &e) != CAP_OK) {
		lpp_free(&a);
		lpp_free(&b);
		return (0);
	}
	if (b.nrecord != a.nrecord || b.ndefect_all != a.ndefect_all)
		abort();
	if (!lpp_same_pair(&a, &b))
		abort();
	if (lpp_dedupe(&a, &b) == 0 && b.nrecord != 0)
		abort();
	lpp_free(&a);
	lpp_free(&b);
	return (0);
}
