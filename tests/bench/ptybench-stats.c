/*
 * ptybench: latency samples, kept, saved and summed up as percentiles
 * ("ptybench stats FILE ...").
 */
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ptybench.h"

/* Keep a latency sample, in ns. */
void
ptybench_stats_add(struct ptybench_samples *s, uint64_t ns)
{
	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 65536 : s->cap * 2;
		if ((s->v = reallocarray(s->v, s->cap, sizeof(*s->v))) == NULL)
			err(1, "samples");
	}
	s->v[s->n++] = ns;
}

/* Order two samples. */
int
ptybench_stats_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Print n and the percentiles of the samples, divided by unit. */
void
ptybench_stats_print(struct ptybench_samples *s, double unit)
{
	static const double	 pct[] = { 0.50, 0.90, 0.99, 0.999 };
	static const char	*name[] = { "p50", "p90", "p99", "p999" };
	size_t			 i, k;

	printf("n=%zu", s->n);
	if (s->n == 0) {
		printf(" p50=- p90=- p99=- p999=- max=-");
		return;
	}
	qsort(s->v, s->n, sizeof(*s->v), ptybench_stats_cmp);
	for (i = 0; i < 4; i++) {
		k = (size_t)(pct[i] * s->n + 0.999999);
		k = k == 0 ? 0 : k - 1;
		printf(" %s=%.1f", name[i], s->v[k] / unit);
	}
	printf(" max=%.1f", s->v[s->n - 1] / unit);
}

/* Write the samples to a file, in ns, one a line, for ptybench stats. */
void
ptybench_stats_save(struct ptybench_samples *s, const char *path)
{
	FILE	*f;
	size_t	 i;

	if ((f = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	for (i = 0; i < s->n; i++)
		fprintf(f, "%llu\n", (unsigned long long)s->v[i]);
	if (fclose(f) == EOF)
		err(1, "%s", path);
}

/* Percentiles of the samples (ns, one a line) in files written by -o. */
void
ptybench_stats_main(int argc, char *argv[])
{
	char	line[64];
	FILE	*f;
	int	i;

	for (i = 0; i < argc; i++) {
		if ((f = fopen(argv[i], "r")) == NULL)
			err(1, "%s", argv[i]);
		while (fgets(line, sizeof(line), f) != NULL)
			ptybench_stats_add(&ptybench_lat,
			    strtoull(line, NULL, 10));
		fclose(f);
	}
	ptybench_stats_print(&ptybench_lat, 1000.0);
	printf("\n");
}
