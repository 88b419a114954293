/*
 * The control socket's commands on the room (control.c reads them and
 * replies; the client's own, watch and screens, are its): the status,
 * the rounds, the manual links, an entity's release, the scans of the
 * ports and cables, a witness's countersigning, and the reload of the
 * configuration, through the function muxd.c gives.
 */
#include <stdio.h>
#include <string.h>

#include "muxd.h"

static control_reload_fn	 control_cmd_reload;	/* muxd.c's reload */

static json_t	*control_cmd_witness(json_t *, char *, size_t);
static struct link *control_cmd_target(const char *, json_t *, char *,
		    size_t);

/* Take the function that reloads the configuration ("reload"). */
void
control_cmd_reloader(control_reload_fn reload)
{
	control_cmd_reload = reload;
}

/*
 * The room's status: every port and link, the round, the recordings'
 * ends that wait, the entries' sandboxes, and the control socket's own
 * figures (taken).
 */
json_t *
control_cmd_status(json_t *control)
{
	struct port	*p;
	struct link	*l;
	json_t		*ps, *ls, *o;

	ps = json_array();
	TAILQ_FOREACH(p, &ports, entry) {
		o = port_json(p);
		json_object_set_new(o, "link", link_of(p) != NULL ?
		    json_string(link_of(p)->name) : json_null());
		json_object_set_new(o, "record", record_port_status(p));
		json_array_append_new(ps, o);
	}
	ls = json_array();
	TAILQ_FOREACH(l, &links, entry) {
		o = link_json(l);
		json_object_set_new(o, "record", record_link_status(l));
		json_array_append_new(ls, o);
	}
	return (json_pack("{ss ss? so so so so so s{ss?} so}",
	    "version", MUXD_VERSION, "config", muxd_conf != NULL ?
	    muxd_conf->file : NULL, "round", round_json(), "ports", ps,
	    "links", ls, "ends_waiting", record_closing_status(), "control",
	    control, "state", "error", state_failure(), "entries",
	    spawn_json()));
}

/*
 * A witness's countersigning: with "signature" (a minisign signature
 * file's text) and "sequence", keep it; else the manifest "sequence"
 * (the newest when absent), a piece from "offset" on.
 */
static json_t *
control_cmd_witness(json_t *req, char *err, size_t errlen)
{
	const char	*sig = NULL;
	json_int_t	 seq = 0, offset = 0;

	if (json_unpack(req, "{s?I s?I s?s}", "sequence", &seq, "offset",
	    &offset, "signature", &sig) == -1 || seq < 0 || seq > 9999999 ||
	    offset < 0) {
		snprintf(err, errlen, "witness takes \"sequence\": a manifest's "
		    "number, \"offset\": a byte offset, and \"signature\": "
		    "a countersignature's text");
		return (NULL);
	}
	if (sig == NULL)
		return (seal_witness_get((int)seq, (int64_t)offset, err,
		    errlen));
	if (seq == 0) {
		snprintf(err, errlen, "witness: a signature needs the "
		    "\"sequence\" of the manifest it countersigns");
		return (NULL);
	}
	return (seal_witness_put((int)seq, sig, err, errlen));
}

/* The link a command's "target" names, itself or by a port; NULL: err. */
static struct link *
control_cmd_target(const char *cmd, json_t *req, char *err, size_t errlen)
{
	struct link	*l;
	struct port	*p;
	const char	*target;

	if (json_unpack(req, "{ss}", "target", &target) == -1) {
		snprintf(err, errlen, "%s needs \"target\": a port or link "
		    "name", cmd);
		return (NULL);
	}
	if ((l = link_find(target)) == NULL && (p = port_find(target)) !=
	    NULL)
		l = link_of(p);
	if (l == NULL)
		snprintf(err, errlen, "%s is neither a link nor a linked port",
		    target);
	return (l);
}

/*
 * Carry out a command on the room, cmd as the client named it; NULL with
 * a message in err on failure.
 */
json_t *
control_cmd_room(const char *cmd, json_t *req, char *err, size_t errlen)
{
	struct port	*a, *b;
	struct link	*l;
	const char	*sa, *sb;
	char		 name[128];
	json_int_t	 n;
	int		 number, force;

	switch (protocol_cmd_find(cmd)) {
	case PROTOCOL_CMD_SCHEDULE:
		return (round_schedule_json());
	case PROTOCOL_CMD_PORTS:
		return (scanports_json(err, errlen));
	case PROTOCOL_CMD_CABLECHECK:
		return (cablecheck_start(json_object_get(req, "ports"),
		    (int)json_integer_value(json_object_get(req, "window_ms")),
		    err, errlen));
	case PROTOCOL_CMD_ROUND_START:
		force = 0;
		if (json_unpack(req, "{sI s?b}", "round", &n, "force",
		    &force) == -1 || n < 1 || n > 1000000) {
			snprintf(err, errlen, "round.start needs \"round\": "
			    "a positive integer (and \"force\": a boolean)");
			return (NULL);
		}
		number = (int)n;
		if (round_start(number, force, err, errlen) == -1) {
			/* The watchers (referees' pages) learn why too. */
			events_post(PROTOCOL_EV_ROUND_REFUSED, json_pack(
			    "{si ss}", "number", number, "reason", err));
			return (NULL);
		}
		/* A round waiting for its lines: the reply says so. */
		return (round_json());
	case PROTOCOL_CMD_ROUND_STOP:
		number = round_cur.number;
		if (round_stop("stopped by operator") == 0)
			return (json_pack("{si}", "number", number));
		if ((number = round_cancel("cancelled by operator")) != -1)
			return (json_pack("{sisb}", "number", number, "waited",
			    1));
		snprintf(err, errlen, "no round is running");
		return (NULL);
	case PROTOCOL_CMD_CONNECT:
		if (json_unpack(req, "{ssss}", "a", &sa, "b", &sb) == -1) {
			snprintf(err, errlen, "connect needs \"a\" and \"b\": "
			    "two port names");
			return (NULL);
		}
		if ((a = port_find(sa)) == NULL || (b = port_find(sb)) ==
		    NULL) {
			snprintf(err, errlen, "no port named %s",
			    a == NULL ? sa : sb);
			return (NULL);
		}
		snprintf(name, sizeof(name), "%s=%s", sa, sb);
		if ((l = link_new(name, a, b, LINK_MANUAL, err, errlen)) ==
		    NULL)
			return (NULL);
		link_started(l);
		state_save();
		return (json_pack("{so}", "link", link_json(l)));
	case PROTOCOL_CMD_DISCONNECT:
		if ((l = control_cmd_target(cmd, req, err, errlen)) == NULL)
			return (NULL);
		snprintf(name, sizeof(name), "%s", l->name);
		link_free(l, "disconnected by operator");
		state_save();
		return (json_pack("{ss}", "link", name));
	case PROTOCOL_CMD_RELEASE:
		if ((l = control_cmd_target(cmd, req, err, errlen)) == NULL ||
		    rules_entity_release(l, err, errlen) == -1)
			return (NULL);
		return (json_pack("{ss}", "link", l->name));
	case PROTOCOL_CMD_WITNESS:
		return (control_cmd_witness(req, err, errlen));
	case PROTOCOL_CMD_RELOAD:
		if (control_cmd_reload == NULL) {
			snprintf(err, errlen, "muxd cannot reload here");
			return (NULL);
		}
		if (control_cmd_reload(err, errlen) == -1)
			return (NULL);
		return (json_pack("{ss?}", "config", muxd_conf != NULL ?
		    muxd_conf->file : NULL));
	default:
		break;
	}
	snprintf(err, errlen, "unknown command '%s' (%s)", cmd,
	    protocol_cmd_list());
	return (NULL);
}

