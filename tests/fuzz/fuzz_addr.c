/*
 * libFuzzer harness for endpoint addresses (line/addr.c), the one syntax
 * of the configuration, the command line and comprog.  Any text is either
 * refused with a message, or parsed into an address whose written form
 * (addr_format, what muxctl shows and the state file keeps) parses back
 * to the same address and the same text, and the same line (programs
 * and outgoing connections are never one line: each is its own); a copy
 * is the same address too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "line.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct addr	 a, b, c;
	char		*text, *fa, *fb, err[256];

	if ((text = malloc(size + 1)) == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&a, 0, sizeof(a));
	err[0] = '\0';
	if (addr_parse(text, &a, err, sizeof(err)) == -1) {
		if (err[0] == '\0')
			abort();	/* refused without a word */
		free(text);
		return (0);
	}
	if ((fa = addr_format(&a)) == NULL)
		abort();
	memset(&b, 0, sizeof(b));
	if (addr_parse(fa, &b, err, sizeof(err)) == -1)
		abort();	/* its written form is refused */
	if ((fb = addr_format(&b)) == NULL || strcmp(fa, fb) != 0 ||
	    !addr_equal(&a, &b))
		abort();	/* written and read back, another address */
	if (a.kind != ADDR_EXEC && a.kind != ADDR_TCP &&
	    !addr_same_line(&a, &b))
		abort();	/* read back, another line */
	memset(&c, 0, sizeof(c));
	if (addr_copy(&c, &a) == -1 || !addr_equal(&a, &c))
		abort();	/* a copy that differs */
	addr_free(&a);
	addr_free(&b);
	addr_free(&c);
	free(fa);
	free(fb);
	free(text);
	return (0);
}
