/*
 * libFuzzer harness for the room configuration (muxd/conf*.c over
 * libconfig): any text is either a room or refused with one message
 * "fuzz.conf:LINE: what is wrong", LINE a line of the text, and nothing
 * leaks either way (libFuzzer's leak check).  Texts that include other
 * files (@include) are left out: they would read whatever file they name.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
const char	*__lsan_default_suppressions(void);
static void	fuzz_conf_where(const char *, const char *);

/*
 * libconfig before 1.7 loses the string token it was holding when a
 * syntax error follows it (hyperrealm/libconfig#142, fixed by #155);
 * Debian 12 ships 1.5.  Not muxd's leak: left to the library.
 */
const char *
__lsan_default_suppressions(void)
{
	return ("leak:libconfig.so\n");
}

/* Abort unless err names the file and a line of text, then says what. */
static void
fuzz_conf_where(const char *err, const char *text)
{
	const char	*p;
	unsigned long	 line, lines = 1;
	char		*end;

	if (strncmp(err, "fuzz.conf:", 10) != 0)
		abort();	/* the message does not name the file */
	line = strtoul(err + 10, &end, 10);
	for (p = text; *p != '\0'; p++)
		if (*p == '\n')
			lines++;
	if (end == err + 10 || line < 1 || line > lines)
		abort();	/* no line, or one the text does not have */
	if (strncmp(end, ": ", 2) != 0 || end[2] == '\0')
		abort();	/* no words for what is wrong */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conf_msgs msgs;
	struct conf	*conf;
	char		*text, err[1024];
	size_t		 i;

	if ((text = malloc(size + 1)) == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (strstr(text, "@include") != NULL) {
		free(text);
		return (0);
	}
	err[0] = '\0';
	if ((conf = conf_load_string("fuzz.conf", text, err,
	    sizeof(err))) != NULL)
		conf_free(conf);
	else
		fuzz_conf_where(err, text);
	/* The whole check too: past syntax errors, every message placed. */
	memset(&msgs, 0, sizeof(msgs));
	msgs.keep = 1;
	conf = conf_check_string("fuzz.conf", text, &msgs, err, sizeof(err));
	conf_free(conf);
	conf_free(msgs.room);
	for (i = 0; i < msgs.n; i++)
		fuzz_conf_where(msgs.v[i].text, text);
	conf_msgs_free(&msgs);
	free(text);
	return (0);
}
