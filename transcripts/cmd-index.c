/*
 * transcripts index: the auditors' index of a room's evidence.  For each
 * round, each judge's links: which entity met which judge on which side,
 * the final verdicts of the contest rules (the captures' "verdict"
 * markers), the capture's segments and the transcript, each with its
 * size and BLAKE2b-256 (as `b2sum -l 256` prints it) and whether the
 * capture closed with its seal; and the newest round manifest.  Text, or
 * with -j one JSON object; the text is printed from that object.
 */
#include <sys/stat.h>

#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static int	 cmd_index_exec(int, char **);
static json_t	*cmd_index_file(const char *);
static json_t	*cmd_index_capture(const char *, json_t *);
static json_t	*cmd_index_link(json_t *, const struct cap_meta *);
static json_t	*cmd_index_round(json_t *, int);
static void	 cmd_index_print(json_t *);
static void	 cmd_index_print_file(const char *, json_t *);
static int	 cmd_index_cmp(const void *, const void *);

const struct cmd_entry cmd_index_entry = {
	"index", "[-j] dir ...", cmd_index_exec
};

/* A file's entry: path, size, hash; NULL when out of memory. */
static json_t *
cmd_index_file(const char *path)
{
	unsigned char		 hash[CAP_CHAIN_BYTES];
	char			 hex[CAP_CHAIN_HEX];
	struct cap_error	 e;
	int64_t			 size;

	if (cap_file_hash(path, -1, hash, CAP_CHAIN_BYTES, &size, &e) != CAP_OK)
		return (json_pack("{ssss}", "path", path, "error", e.msg));
	return (json_pack("{sssIss}", "path", path, "size", (json_int_t)size,
	    "blake2b", cap_chain_hex(hash, hex)));
}

/* The entry of a round in rounds (made when new). */
static json_t *
cmd_index_round(json_t *rounds, int number)
{
	json_t	*r;
	size_t	 i;

	json_array_foreach(rounds, i, r)
		if (json_integer_value(json_object_get(r, "round")) == number)
			return (r);
	r = json_pack("{sisi}", "round", number, "links", 0);
	json_object_set_new(r, "links", json_array());
	json_array_append_new(rounds, r);
	return (r);
}

/* The entry of a capture's link in its round (made when new). */
static json_t *
cmd_index_link(json_t *round, const struct cap_meta *m)
{
	json_t		*links = json_object_get(round, "links"), *l;
	const char	*title = m->title != NULL ? m->title : "";
	size_t		 i;

	json_array_foreach(links, i, l)
		if (strcmp(json_string_value(json_object_get(l, "link")),
		    title) == 0)
			return (l);
	l = json_pack("{ss}", "link", title);
	if (m->station != NULL)
		json_object_set_new(l, "station", json_string(m->station));
	if (m->judge != TX_JUDGE_NONE)
		json_object_set_new(l, "judge", json_integer(m->judge));
	if (m->side != NULL)
		json_object_set_new(l, "side", json_string(m->side));
	if (m->entity != NULL)
		json_object_set_new(l, "entity", json_string(m->entity));
	if (m->kind != NULL)
		json_object_set_new(l, "kind", json_string(m->kind));
	if (m->program != NULL)
		json_object_set_new(l, "program", json_string(m->program));
	if (m->contestant != NULL)
		json_object_set_new(l, "contestant",
		    json_string(m->contestant));
	json_object_set_new(l, "verdicts", json_array());
	json_object_set_new(l, "captures", json_array());
	json_object_set_new(l, "transcripts", json_array());
	json_array_append_new(links, l);
	return (l);
}

/*
 * Read a capture into the index: its link, its verdicts, the file with
 * its segment and seal, its transcript.  NULL (warned) when it does not
 * read.
 */
static json_t *
cmd_index_capture(const char *path, json_t *rounds)
{
	struct verify_opts	 o;
	struct cap_reader	*r;
	struct cap_event	 ev;
	struct cap_error	 e;
	const struct cap_meta	*m;
	unsigned char		 head[CAP_CHAIN_BYTES];
	unsigned long		 lines;
	json_t			*l, *f, *tf;
	char			*tx, word[16], rest[CAP_MARKER_MAX];
	enum cap_err		 rc;
	int			 sealed = 0, end, named, n;

	if (cap_read_open(path, &r, &e) != CAP_OK) {
		cmd_warn_error(&e);
		return (NULL);
	}
	m = cap_read_meta(r);
	l = cmd_index_link(cmd_index_round(rounds, m->round), m);
	while ((rc = cap_read_event(r, &ev, &e)) != CAP_EOF) {
		if (rc == CAP_ENOMEM)
			errx(1, "%s: out of memory", path);
		if (rc != CAP_OK && rc != CAP_EORDER)
			continue;
		sealed = 0;
		if (ev.kind != CAP_MARKER)
			continue;
		if (cap_chain_seal_parse(ev.data, ev.len, &lines, head,
		    &end) == 1)
			sealed = end;
		else if (ev.len > 8 && memcmp(ev.data, "verdict ", 8) == 0 &&
		    sscanf((char *)ev.data + 8, "%15s judge %*d %n", word,
		    &n) == 1 && n > 0) {
			snprintf(rest, sizeof(rest), "%s", (char *)ev.data + 8 +
			    n);
			json_array_append_new(json_object_get(l, "verdicts"),
			    json_pack("{sssssssi}", "verdict", word, "what",
			    rest, "capture", path, "line", (int)ev.line));
		}
	}
	f = cmd_index_file(path);
	json_object_set_new(f, "segment", json_integer(m->segment));
	json_object_set_new(f, "sealed", json_boolean(sealed));
	json_array_append_new(json_object_get(l, "captures"), f);
	verify_opts_init(&o);
	if ((tx = verify_tx_path(path, m, &o, &named)) != NULL) {
		tf = cmd_index_file(tx);
		json_array_append_new(json_object_get(l, "transcripts"), tf);
		free(tx);
	}
	cap_read_close(r);
	return (l);
}

/* Order rounds by number. */
static int
cmd_index_cmp(const void *a, const void *b)
{
	json_int_t	x = json_integer_value(json_object_get(*(json_t *const *)
			    a, "round"));
	json_int_t	y = json_integer_value(json_object_get(*(json_t *const *)
			    b, "round"));

	return (x < y ? -1 : x > y);
}

/* Print a file of the index: path, size, hash. */
static void
cmd_index_print_file(const char *what, json_t *f)
{
	const char	*err = json_string_value(json_object_get(f, "error"));

	printf("    %s %s", what, json_string_value(json_object_get(f,
	    "path")));
	if (err != NULL) {
		printf(": %s\n", err);
		return;
	}
	printf(", %lld bytes, blake2b %s", (long long)json_integer_value(
	    json_object_get(f, "size")), json_string_value(json_object_get(f,
	    "blake2b")));
	if (json_object_get(f, "sealed") != NULL)
		printf(json_is_true(json_object_get(f, "sealed")) ?
		    ", sealed" : ", NOT CLOSED");
	printf("\n");
}

/* Print the index as text. */
static void
cmd_index_print(json_t *idx)
{
	json_t		*r, *l, *v, *f, *man;
	const char	*s;
	size_t		 i, j, k;

	json_array_foreach(json_object_get(idx, "rounds"), i, r) {
		if (json_integer_value(json_object_get(r, "round")) == 0)
			printf("outside the rounds\n");
		else
			printf("round %lld\n", (long long)json_integer_value(
			    json_object_get(r, "round")));
		json_array_foreach(json_object_get(r, "links"), j, l) {
			printf("  %s", json_string_value(json_object_get(l,
			    "link")));
			if (json_object_get(l, "judge") != NULL)
				printf(": judge %02lld", (long long)
				    json_integer_value(json_object_get(l,
				    "judge")));
			if ((s = json_string_value(json_object_get(l,
			    "entity"))) != NULL)
				printf(" met %s", s);
			if ((s = json_string_value(json_object_get(l,
			    "kind"))) != NULL)
				printf(" (%s)", s);
			if ((s = json_string_value(json_object_get(l,
			    "side"))) != NULL)
				printf(" on the %s", s);
			printf("\n");
			json_array_foreach(json_object_get(l, "verdicts"), k,
			    v)
				printf("    verdict %s: %s\n",
				    json_string_value(json_object_get(v,
				    "verdict")), json_string_value(
				    json_object_get(v, "what")));
			json_array_foreach(json_object_get(l, "captures"), k,
			    f)
				cmd_index_print_file("capture", f);
			json_array_foreach(json_object_get(l, "transcripts"),
			    k, f)
				cmd_index_print_file("transcript", f);
		}
	}
	if ((man = json_object_get(idx, "manifest")) != NULL) {
		printf("last manifest\n");
		cmd_index_print_file(json_is_true(json_object_get(man,
		    "signed")) ? "signed" : "UNSIGNED", man);
	}
}

/* Index the evidence under each directory. */
static int
cmd_index_exec(int argc, char **argv)
{
	struct cmd_files	 caps, txs, mans;
	struct stat		 st;
	json_t			*idx, *rounds, *man, **v;
	char			*sig;
	size_t			 i, n;
	int			 ch, json = 0, status = 0;

	while ((ch = getopt(argc, argv, "j")) != -1) {
		switch (ch) {
		case 'j':
			json = 1;
			break;
		default:
			cmd_bad_option(&cmd_index_entry, "j", argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		cmd_usage(&cmd_index_entry);
	memset(&caps, 0, sizeof(caps));
	memset(&txs, 0, sizeof(txs));
	memset(&mans, 0, sizeof(mans));
	for (; argc > 0; argc--, argv++)
		if (cmd_files_walk(argv[0], &caps, &txs, &mans, 0) == -1)
			status = 1;
	cmd_files_sort(&caps);
	cmd_files_sort(&mans);
	if ((idx = json_object()) == NULL || (rounds = json_array()) == NULL)
		errx(1, "out of memory");
	json_object_set_new(idx, "rounds", rounds);
	for (i = 0; i < caps.n; i++)
		if (cmd_index_capture(caps.v[i], rounds) == NULL)
			status = 1;
	/* Rounds in order, those outside the rounds (0) first. */
	if ((v = calloc(json_array_size(rounds) + 1, sizeof(*v))) == NULL)
		err(1, NULL);
	n = json_array_size(rounds);
	for (i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(rounds, i));
	qsort(v, n, sizeof(*v), cmd_index_cmp);
	json_array_clear(rounds);
	for (i = 0; i < n; i++)
		json_array_append_new(rounds, v[i]);
	free(v);
	if (mans.n > 0) {
		man = cmd_index_file(mans.v[mans.n - 1]);
		if (asprintf(&sig, "%s.minisig", mans.v[mans.n - 1]) == -1)
			err(1, NULL);
		json_object_set_new(man, "signed", json_boolean(stat(sig,
		    &st) == 0));
		free(sig);
		json_object_set_new(idx, "manifest", man);
	}
	if (json) {
		if (json_dumpf(idx, stdout, JSON_INDENT(1) |
		    JSON_PRESERVE_ORDER) == -1)
			status = 1;
		printf("\n");
	} else
		cmd_index_print(idx);
	json_decref(idx);
	cmd_files_free(&caps);
	cmd_files_free(&txs);
	cmd_files_free(&mans);
	return (status);
}
