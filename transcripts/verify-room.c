/*
 * The room's chain of manifests (manifest.c), as a whole: what one
 * manifest's check (verify-manifest.c) cannot tell.  The chain must run
 * from manifest 1, the room's start, through every sequence number once,
 * each run of muxd after the first beginning with a "start" after a
 * shutdown or a "crash recovery" after a run that wrote none, to a
 * "shutdown"; every manifest signed by the key given, or the evidence is
 * not proven (unverified); and every capture and transcript on disk must
 * be in it, as large as its last manifest sealed it.
 *
 * A chain that ends without a shutdown is open: muxd is running, or it
 * stopped without sealing and was not started again, or the manifests
 * after its last were removed, which no check can tell apart.  Then the
 * files written since the last manifest (the round still open) are
 * notes, not sealed yet, and a capture still without its closing seal is
 * one being written; but one closed at a round's stop or at muxd's,
 * after which muxd always writes a manifest, that no manifest has whole
 * tells that manifest removed.  A capture that a crash left without its
 * closing seal is an event once a crash recovery manifest sealed it as it
 * is.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transcripts.h"

struct verify_room_man {
	char		*path;
	int		 seq;
	int		 format;
	char		*why;		/* "" when it has none */
	char		*time;
	enum verify_sig	 sig;
	int		 witnessed;	/* 1 good, -1 bad, 0 none */
	char		 hex[CAP_CHAIN_HEX];	/* its BLAKE2b-256 */
	json_t		*files;
	char		*base;
};

struct verify_room_file {
	char		*path;		/* resolved */
	int64_t		 size;		/* as last sealed */
	int		 seq;		/* the manifest that sealed it so */
	int		 crash;		/* a crash recovery sealed that size */
};

struct verify_room {
	const struct sign_pub	*key;	/* NULL: none */
	int			 given;	/* the key was given (-k) */
	const struct sign_pub	*witness;
	struct verify_room_man	*m;
	size_t			 n, cap;
	struct verify_room_file	*f;
	size_t			 nf, fcap;
	int			 finished;
	int			 complete;	/* ends with a shutdown */
	int			 last;		/* its sequence number */
	char			 lastwhy[64];
};

static int	verify_room_cmp(const void *, const void *);
static int	verify_room_cover(struct verify_room *,
		    const struct verify_room_man *, int);
static const struct verify_room_file *verify_room_find(
		    const struct verify_room *, const char *);
static int	verify_room_keys(struct verify_room *, struct verify_report *);

/*
 * A room to check manifests into, with the room's public key (NULL:
 * none), whether it was given rather than found beside the evidence, and
 * a witness's key (NULL: none).  NULL when out of memory.
 */
struct verify_room *
verify_room_new(const struct sign_pub *key, int given,
    const struct sign_pub *witness)
{
	struct verify_room	*r;

	if ((r = calloc(1, sizeof(*r))) == NULL)
		return (NULL);
	r->key = key;
	r->given = given;
	r->witness = witness;
	return (r);
}

/* Free a room. */
void
verify_room_free(struct verify_room *r)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->m[i].path);
		free(r->m[i].why);
		free(r->m[i].time);
		free(r->m[i].base);
		json_decref(r->m[i].files);
	}
	for (i = 0; i < r->nf; i++)
		free(r->f[i].path);
	free(r->m);
	free(r->f);
	free(r);
}

/* The room's public key, or NULL. */
const struct sign_pub *
verify_room_key(const struct verify_room *r)
{
	return (r != NULL ? r->key : NULL);
}

/* The witness's public key, or NULL. */
const struct sign_pub *
verify_room_witness(const struct verify_room *r)
{
	return (r != NULL ? r->witness : NULL);
}

/*
 * Add a manifest that read (its JSON, how its signature and its
 * countersignature went, the hex of its BLAKE2b-256) to the chain.  -1
 * when out of memory.
 */
int
verify_room_add(struct verify_room *r, const char *path, json_t *m,
    enum verify_sig sig, int witnessed, const char *hex)
{
	struct verify_room_man	*v;
	const char		*why, *t;
	size_t			 n;

	if (r == NULL)
		return (0);
	if (r->n == r->cap) {
		n = r->cap == 0 ? 16 : r->cap * 2;
		if ((v = reallocarray(r->m, n, sizeof(*v))) == NULL)
			return (-1);
		r->m = v;
		r->cap = n;
	}
	v = &r->m[r->n];
	memset(v, 0, sizeof(*v));
	why = json_string_value(json_object_get(m, "why"));
	t = json_string_value(json_object_get(m, "time"));
	v->seq = (int)json_integer_value(json_object_get(m, "sequence"));
	v->format = (int)json_integer_value(json_object_get(m,
	    "muxd_manifest"));
	v->sig = sig;
	v->witnessed = witnessed;
	snprintf(v->hex, sizeof(v->hex), "%s", hex);
	v->files = json_incref(json_object_get(m, "files"));
	if ((v->path = strdup(path)) == NULL ||
	    (v->why = strdup(why != NULL ? why : "")) == NULL ||
	    (v->time = strdup(t != NULL ? t : "?")) == NULL ||
	    (v->base = verify_manifest_base(path)) == NULL) {
		free(v->path);
		free(v->why);
		free(v->time);
		json_decref(v->files);
		return (-1);
	}
	r->n++;
	return (0);
}

/*
 * The hex of the BLAKE2b-256 of manifest seq in the chain, or NULL when
 * it is not there.
 */
const char *
verify_room_hash(const struct verify_room *r, int seq)
{
	size_t	i;

	for (i = 0; r != NULL && i < r->n; i++)
		if (r->m[i].seq == seq)
			return (r->m[i].hex);
	return (NULL);
}

/* Order manifests by sequence number, then by path. */
static int
verify_room_cmp(const void *a, const void *b)
{
	const struct verify_room_man	*x = a, *y = b;

	if (x->seq != y->seq)
		return (x->seq < y->seq ? -1 : 1);
	return (strcmp(x->path, y->path));
}

/* Find a file in what the chain covers (a resolved path). */
static const struct verify_room_file *
verify_room_find(const struct verify_room *r, const char *real)
{
	size_t	i;

	for (i = 0; i < r->nf; i++)
		if (strcmp(r->f[i].path, real) == 0)
			return (&r->f[i]);
	return (NULL);
}

/*
 * Take a manifest's files into what the chain covers, in chain order;
 * crash: the manifest is a crash recovery.  -1 when out of memory.
 */
static int
verify_room_cover(struct verify_room *r, const struct verify_room_man *v,
    int crash)
{
	struct verify_room_file	*f;
	const char		*rel;
	char			*p, real[PATH_MAX];
	json_t			*e;
	int64_t			 size;
	size_t			 i, n;

	json_array_foreach(v->files, i, e) {
		if ((rel = json_string_value(json_object_get(e, "path"))) ==
		    NULL || (p = verify_manifest_path(v->base, rel)) == NULL)
			continue;
		size = json_integer_value(json_object_get(e, "size"));
		f = (struct verify_room_file *)verify_room_find(r,
		    realpath(p, real) != NULL ? real : p);
		if (f == NULL) {
			if (r->nf == r->fcap) {
				n = r->fcap == 0 ? 64 : r->fcap * 2;
				if ((f = reallocarray(r->f, n,
				    sizeof(*f))) == NULL) {
					free(p);
					return (-1);
				}
				r->f = f;
				r->fcap = n;
			}
			f = &r->f[r->nf];
			memset(f, 0, sizeof(*f));
			f->size = -1;
			if ((f->path = strdup(realpath(p, real) != NULL ?
			    real : p)) == NULL) {
				free(p);
				return (-1);
			}
			r->nf++;
		}
		free(p);
		if (f->size != size) {
			f->size = size;
			f->seq = v->seq;
			f->crash = 0;
		}
		f->crash |= crash;
	}
	return (0);
}

/*
 * The keys: every manifest signed by the key given, or the evidence is
 * unverified (no key, another key); some by it and some by another is a
 * replacement.  -1 when out of memory.
 */
static int
verify_room_keys(struct verify_room *r, struct verify_report *rep)
{
	char	 id[SIGN_ID_LEN], list[256];
	size_t	 i, nok = 0, nother = 0, nunsigned = 0, len = 0;

	for (i = 0; i < r->n; i++) {
		if (r->m[i].sig == VERIFY_SIG_OK)
			nok++;
		else if (r->m[i].sig == VERIFY_SIG_OTHER) {
			nother++;
			if (len < sizeof(list) - 16)
				len += (size_t)snprintf(list + len,
				    sizeof(list) - len, "%s%d", len > 0 ?
				    ", " : "", r->m[i].seq);
		} else if (r->m[i].sig == VERIFY_SIG_UNSIGNED)
			nunsigned++;
	}
	if (r->key == NULL)
		return (verify_add(rep, VERIFY_KEY, 0, -1, "no public key: "
		    "the signatures are not checked (-k room.pub)"));
	sign_key_id(r->key->keynum, id);
	if (nok > 0 && nother > 0)
		return (verify_add(rep, VERIFY_CHAIN, 0, -1, "manifest%s %s "
		    "%s signed with another key than the others (%s): "
		    "replaced", nother == 1 ? "" : "s", list, nother == 1 ?
		    "is" : "are", id));
	if (nother > 0)
		return (verify_add(rep, VERIFY_KEY, 0, -1, "no manifest is "
		    "signed with key %s, the key given: not the room's key, or "
		    "the manifests were all made again", id));
	if (nunsigned > 0 && verify_add(rep, VERIFY_KEY, 0, -1, "%zu "
	    "manifest%s not signed", nunsigned, nunsigned == 1 ? " is" :
	    "s are") == -1)
		return (-1);
	if (!r->given)
		return (verify_add(rep, VERIFY_KEY, 0, -1, "checked with key "
		    "%s found beside the evidence, not with a key given (-k)",
		    id));
	return (0);
}

/*
 * Check the chain as a whole into rep, once every manifest was added;
 * flags VERIFY_ROOM_WALKED: a directory was searched (its files must all
 * be in the chain), VERIFY_ROOM_ENDED: the room is over, so a chain that
 * does not end with a shutdown lost its end.  -1 when out of memory.
 */
int
verify_room_finish(struct verify_room *r, int flags,
    struct verify_report *rep)
{
	int	walked = (flags & VERIFY_ROOM_WALKED) != 0;
	struct verify_room_man	*v, *p;
	char			 wid[SIGN_ID_LEN], list[256];
	size_t			 i, len = 0, nw = 0;
	int			 crash;

	r->finished = 1;
	if (r->n == 0)
		return (verify_add(rep, r->given && walked ? VERIFY_CHAIN :
		    VERIFY_KEY, 0, -1, "no manifest: nothing proves the files "
		    "sealed%s", walked ? " (manifests/ removed?)" : ""));
	qsort(r->m, r->n, sizeof(*r->m), verify_room_cmp);
	for (i = 0; i < r->n; i++) {
		v = &r->m[i];
		p = i > 0 ? &r->m[i - 1] : NULL;
		crash = 0;
		if (p != NULL && p->seq == v->seq) {
			if (verify_add(rep, VERIFY_CHAIN, 0, -1, "%s and %s "
			    "both say manifest %d: one is a replay", p->path,
			    v->path, v->seq) == -1)
				return (-1);
			continue;
		}
		if (p == NULL && v->seq != 1 && verify_add(rep, VERIFY_CHAIN,
		    0, -1, "the chain begins at manifest %d (%s): manifest 1, "
		    "the room's start%s, %s missing", v->seq, v->why,
		    v->seq > 2 ? ", and those after it" : "", v->seq > 2 ?
		    "are" : "is") == -1)
			return (-1);
		if (p != NULL && v->seq != p->seq + 1 && verify_add(rep,
		    VERIFY_CHAIN, 0, -1, "manifest%s %d%s%.0d missing: the "
		    "chain goes from manifest %d (%s) to manifest %d (%s)",
		    v->seq - p->seq > 2 ? "s" : "", p->seq + 1,
		    v->seq - p->seq > 2 ? " to " : " is", v->seq - p->seq > 2 ?
		    v->seq - 1 : 0, p->seq, p->why, v->seq, v->why) == -1)
			return (-1);
		if (v->seq == 1 && strcmp(v->why, "start") != 0 &&
		    verify_add(rep, VERIFY_CHAIN, 0, -1, "manifest 1 is a "
		    "\"%s\", not the room's start", v->why) == -1)
			return (-1);
		/* A run begins after a shutdown, or after a crash. */
		if (p != NULL && strcmp(v->why, "crash recovery") == 0) {
			crash = 1;
			if (strcmp(p->why, "shutdown") == 0 && verify_add(rep,
			    VERIFY_CHAIN, 0, -1, "manifest %d is a crash "
			    "recovery, but manifest %d before it is a shutdown",
			    v->seq, p->seq) == -1)
				return (-1);
		} else if (p != NULL && strcmp(v->why, "start") == 0 &&
		    strcmp(p->why, "shutdown") != 0) {
			if (v->format >= MANIFEST_FORMAT) {
				if (verify_add(rep, VERIFY_CHAIN, 0, -1,
				    "manifest %d is a start, but manifest %d "
				    "before it (%s) is no shutdown: a shutdown "
				    "manifest was removed", v->seq, p->seq,
				    p->why) == -1)
					return (-1);
			} else
				crash = 1;	/* format 1's crash recovery */
		}
		if (crash && verify_add(rep, VERIFY_CRASH, 0, -1, "manifest %d "
		    "(%s, %s): muxd started again after manifest %d (%s) "
		    "without a shutdown", v->seq, v->why, v->time, p->seq,
		    p->why) == -1)
			return (-1);
		if (verify_room_cover(r, v, crash) == -1)
			return (-1);
		if (v->witnessed == 1) {
			nw++;
			if (len < sizeof(list) - 16)
				len += (size_t)snprintf(list + len,
				    sizeof(list) - len, "%s%d", len > 0 ?
				    ", " : "", v->seq);
		}
	}
	v = &r->m[r->n - 1];
	r->last = v->seq;
	snprintf(r->lastwhy, sizeof(r->lastwhy), "%s", v->why);
	r->complete = strcmp(v->why, "shutdown") == 0;
	if (verify_room_keys(r, rep) == -1)
		return (-1);
	if (r->witness != NULL) {
		sign_key_id(r->witness->keynum, wid);
		if (verify_add(rep, VERIFY_NOTE, 0, -1, "witness key %s: %s%s",
		    wid, nw == 0 ? "no manifest is witnessed" : nw == r->n ?
		    "every manifest witnessed: " : "manifests witnessed: ",
		    list) == -1)
			return (-1);
	}
	if (!r->complete && (flags & VERIFY_ROOM_ENDED))
		return (verify_add(rep, VERIFY_CHAIN, 0, -1, "the chain ends "
		    "at manifest %d (%s, %s), not at a shutdown, and the room "
		    "is over (-e): the manifests after it were removed, or "
		    "muxd was not started again after a crash", v->seq, v->why,
		    v->time));
	if (!r->complete)
		return (verify_add(rep, VERIFY_OPENCHAIN, 0, -1, "the chain "
		    "ends at manifest %d (%s, %s), not at a shutdown: muxd is "
		    "running, or stopped without sealing and was not started "
		    "again, or the manifests after it were removed; what was "
		    "written since is not sealed", v->seq, v->why, v->time));
	return (verify_add(rep, VERIFY_NOTE, 0, -1, "a chain of %d manifests, "
	    "from the room's start to its shutdown at %s", v->seq, v->time));
}

/*
 * Tell in a file's report whether the chain covers it: a file in no
 * manifest, or bytes past what the last sealed, are an integrity failure
 * once the chain ends with a shutdown, and a note while it is open (for
 * a capture, the whole lines its check chained into rep).  -1 when out
 * of memory.
 */
int
verify_room_check(const struct verify_room *r, const char *file,
    struct verify_report *rep)
{
	const struct verify_room_file	*f;
	char				 real[PATH_MAX];
	struct stat			 st;
	int64_t				 size;
	size_t				 n;

	if (r == NULL || !r->finished || r->n == 0)
		return (0);
	if (realpath(file, real) == NULL)
		return (0);
	if ((f = verify_room_find(r, real)) == NULL)
		return (r->complete ? verify_add(rep, VERIFY_MANIFEST, 0, -1,
		    "in no manifest of the chain, which ends with manifest %d "
		    "at muxd's shutdown: added afterwards", r->last) :
		    verify_add(rep, VERIFY_NOTE, 0, -1, "not sealed yet: in no "
		    "manifest, and the chain is open after manifest %d (%s)",
		    r->last, r->lastwhy));
	if (stat(file, &st) == -1)
		return (0);
	size = st.st_size;
	/* A capture's whole lines, as its check chained them. */
	n = strlen(file);
	if (n > 5 && strcmp(file + n - 5, ".cast") == 0 && rep->chain_lines > 0)
		size = rep->chain_bytes;
	if (size > f->size)
		return (verify_add(rep, r->complete ? VERIFY_MANIFEST :
		    VERIFY_NOTE, 0, f->size, "%lld bytes past what manifest "
		    "%d sealed%s", (long long)(size - f->size), f->seq,
		    r->complete ? ", after muxd's shutdown" : " (not sealed "
		    "yet: the chain is open)"));
	return (0);
}

/*
 * A capture without its closing seal, of bytes whole lines ending at
 * line last: an event when a crash recovery manifest sealed it so, a note
 * while the chain is open and it is being written, else for the caller
 * to report (0).  1 when told, -1 when out of memory.
 */
int
verify_room_unclosed(const struct verify_room *r, const char *file,
    int64_t bytes, struct verify_report *rep, unsigned long last)
{
	const struct verify_room_file	*f;
	char				 real[PATH_MAX];

	if (r == NULL || !r->finished || r->n == 0 ||
	    realpath(file, real) == NULL)
		return (0);
	f = verify_room_find(r, real);
	if (f != NULL && f->crash && f->size == bytes)
		return (verify_add(rep, VERIFY_CRASH, last, -1, "muxd stopped "
		    "without closing it after line %lu (a crash); manifest %d "
		    "sealed it as it was", last, f->seq) == -1 ? -1 : 1);
	if (!r->complete)
		return (verify_add(rep, VERIFY_NOTE, last, -1, "no closing "
		    "seal yet: being written (the chain is open after "
		    "manifest %d)", r->last) == -1 ? -1 : 1);
	return (0);
}

/*
 * A capture of bytes whole lines, closed at a round's stop or muxd's
 * (why, its link down's reason), after which muxd writes a manifest:
 * while the chain is open, in no manifest at that size means that
 * manifest was removed, an integrity failure.  -1 when out of memory.
 */
int
verify_room_closed(const struct verify_room *r, const char *file,
    int64_t bytes, struct verify_report *rep, const char *why)
{
	const struct verify_room_file	*f;
	char				 real[PATH_MAX];

	if (r == NULL || !r->finished || r->n == 0 || r->complete ||
	    realpath(file, real) == NULL)
		return (0);
	f = verify_room_find(r, real);
	if (f != NULL && f->size >= bytes)
		return (0);
	return (verify_add(rep, VERIFY_CHAIN, 0, -1, "closed at \"%s\", "
	    "after which muxd seals it in a manifest, but no manifest has it "
	    "whole: the manifests after manifest %d (%s) were removed",
	    why, r->last, r->lastwhy));
}
