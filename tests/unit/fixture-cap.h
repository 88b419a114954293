/*
 * A fixture for the unit tests of captures and transcripts (test_cap.c,
 * test_txrender.c): a private directory under /tmp for the files a test
 * writes, made before the tests of a group and removed after them.
 */
#ifndef FIXTURE_CAP_H
#define FIXTURE_CAP_H

extern char	 fixture_cap_dir[64];	/* the directory, once made */

int		 fixture_cap_setup(void **);
int		 fixture_cap_teardown(void **);
char		*fixture_cap_path(const char *);
void		 fixture_cap_put(const char *, const char *, size_t);

#endif /* FIXTURE_CAP_H */
