/*
 * libFuzzer harness for the auditor's checks of a capture's hash chain,
 * seals, end and segments (transcripts/verify-chain.c,
 * capture/cap-chain.c), and of compliance.txt against the verdict
 * markers (verify-compliance.c): the input is checked as a capture,
 * then as a compliance file against the verdicts it held.  Every finding
 * must say what; the chain of a capture that reads covers every whole
 * line of the file.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transcripts.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* One input: a capture, and the same bytes as a compliance file. */
int
LLVMFuzzerTestOneInput(const uint8_t *buf, size_t len)
{
	struct verify_opts	 o;
	struct verify_report	 rep;
	struct verify_verdicts	 vs;
	struct cap_error	 e;
	unsigned char		 head[CAP_CHAIN_BYTES];
	unsigned long		 lines, nl = 0;
	char			 path[64];
	size_t			 i;
	int			 fd, end;

	if ((fd = memfd_create("fuzz_verify", MFD_CLOEXEC)) == -1)
		abort();
	if (len > 0 && write(fd, buf, len) != (ssize_t)len)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&vs, 0, sizeof(vs));
	verify_opts_init(&o);
	o.verdicts = &vs;
	if (verify_report_init(&rep, path) == -1 ||
	    verify_capture(path, &o, &rep, &e) != CAP_OK)
		abort();
	for (i = 0; i < rep.findings.n; i++)
		if (rep.findings.item[i].msg[0] == '\0')
			abort();
	for (i = 0; i < len; i++)
		nl += buf[i] == '\n';
	if (rep.chain_lines != 0 && rep.chain_lines != nl)
		abort();
	verify_report_free(&rep);
	if (verify_report_init(&rep, path) == -1 ||
	    verify_compliance(path, &vs, &rep, &e) != CAP_OK)
		abort();
	verify_report_free(&rep);
	verify_verdicts_free(&vs);
	/* A seal's text parses back to what it was made from. */
	if (len >= CAP_CHAIN_BYTES) {
		char	text[CAP_MARKER_MAX];
		size_t	n;

		n = cap_chain_seal_format(text, sizeof(text), len, buf,
		    buf[0] & 1);
		if (n == 0 || cap_chain_seal_parse((unsigned char *)text, n,
		    &lines, head, &end) != 1 || lines != len ||
		    memcmp(head, buf, CAP_CHAIN_BYTES) != 0 ||
		    end != (buf[0] & 1))
			abort();
	}
	close(fd);
	return (0);
}
