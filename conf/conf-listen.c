/*
 * A warning for TCP listeners no one in the room can reach.
 *
 * tcp-listen:PORT, without a host, listens on loopback (127.0.0.1): only
 * a program on the mux host itself can connect, and a confederate's or a
 * judge's PC gets "connection refused".  That is right for a demonstration
 * on one machine and wrong in a room.  A listener on loopback is warned
 * about when the one who holds it is a person at another machine (a
 * confederate, a judge station), or when the room has other machines:
 * another port is tcp: or rfc2217: to a host that is not this one, or a
 * listener taking connections from the network (tcp-listen:*:PORT or an
 * address).  An entry on loopback in a room of serial lines alone is a
 * program started on this host (comprog entry), and is left alone.
 */
#include <stdio.h>
#include <string.h>

#include <libconfig.h>

#include "conf-parse.h"

static int	conf_listen_loopback(const char *);
static int	conf_listen_remote(const struct addr *);
static const char *conf_listen_holder(const struct conf *, int, char *,
		    size_t);
static const config_setting_t *conf_listen_setting(
		    const config_setting_t *, const struct conf_port *);

/* Tell whether a host names this machine's loopback (NULL: unset). */
static int
conf_listen_loopback(const char *host)
{
	return (host == NULL || strcmp(host, "localhost") == 0 ||
	    strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 ||
	    strcmp(host, "[::1]") == 0);
}

/* Tell whether an address reaches, or is reached from, another machine. */
static int
conf_listen_remote(const struct addr *a)
{
	switch (a->kind) {
	case ADDR_TCP:
	case ADDR_RFC2217:
	case ADDR_TCP_LISTEN:
		return (!conf_listen_loopback(a->host));
	default:
		return (0);
	}
}

/*
 * Name who holds port i when that is a person at a machine of their own
 * (a confederate, a judge station), in buf; NULL otherwise.
 */
static const char *
conf_listen_holder(const struct conf *conf, int i, char *buf, size_t len)
{
	size_t	k;

	for (k = 0; k < conf->nentities; k++)
		if (conf->entities[k].port == i &&
		    conf->entities[k].kind == CONF_CONFEDERATE) {
			snprintf(buf, len, "confederate '%s'",
			    conf->entities[k].name);
			return (buf);
		}
	for (k = 0; k < conf->nstations; k++)
		if (conf->stations[k].left == i ||
		    conf->stations[k].right == i) {
			snprintf(buf, len, "judge station '%s'",
			    conf->stations[k].name);
			return (buf);
		}
	return (NULL);
}

/* Find the setting of a port, for the warning's line. */
static const config_setting_t *
conf_listen_setting(const config_setting_t *root, const struct conf_port *p)
{
	const config_setting_t	*l, *g;
	const char		*name;
	int			 i;

	if ((l = config_setting_get_member(root, "ports")) == NULL)
		return (root);
	for (i = 0; (g = config_setting_get_elem(l, i)) != NULL; i++)
		if (config_setting_lookup_string(g, "name", &name) &&
		    strcmp(name, p->name) == 0)
			return (g);
	return (root);
}

/* Warn of each listener on loopback the room's machines cannot reach. */
void
conf_listen_check(struct conf_ctx *ctx, const config_setting_t *root)
{
	const struct conf	*conf = ctx->conf;
	const struct conf_port	*p, *remote = NULL;
	const char		*who;
	char			 buf[64];
	size_t			 i;

	if (conf == NULL)
		return;
	for (i = 0; i < conf->nports && remote == NULL; i++)
		if (conf_listen_remote(&conf->ports[i].addr))
			remote = &conf->ports[i];
	for (i = 0; i < conf->nports; i++) {
		p = &conf->ports[i];
		if (p->addr.kind != ADDR_TCP_LISTEN ||
		    !conf_listen_loopback(p->addr.host))
			continue;
		who = conf_listen_holder(conf, (int)i, buf, sizeof(buf));
		if (who != NULL)
			conf_warn(ctx, conf_listen_setting(root, p), "port "
			    "'%s': %s listens on loopback only, and %s is at "
			    "another machine, which cannot connect: write "
			    "tcp-listen:*:%s,allow=NETWORK", p->name,
			    p->address, who, p->addr.service);
		else if (remote != NULL)
			conf_warn(ctx, conf_listen_setting(root, p), "port "
			    "'%s': %s listens on loopback only, while the "
			    "room has other machines (port '%s' at line %d): "
			    "write tcp-listen:*:%s,allow=NETWORK", p->name,
			    p->address, remote->name, remote->line,
			    p->addr.service);
	}
}
