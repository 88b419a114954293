/*
 * The flow of a link's bytes: a port whose bytes its link's other end
 * cannot take (port_send() found that end's queue full) is no longer
 * read, until that queue takes more (PORT_EVENT_WRITABLE).  The link
 * decides, not the line: a port whose peer is itself held back is not
 * stopped, since with both ends of a link held, each waiting for the
 * other's queue to drain, a peer that will not read while it cannot
 * write (socat, for one) would never be read again.  Below the rules and
 * link.c, which call it; it calls the line alone.
 */
#include "muxd.h"

/* The other end of the link a port is in, or NULL. */
static struct port *
link_flow_peer(const struct port *p)
{
	struct link	*l;

	if ((l = link_of(p)) == NULL)
		return (NULL);
	return (l->a == p ? l->b : l->a);
}

/*
 * Hold back a port whose link's other end has a full queue, unless that
 * end is itself held back.
 */
void
link_flow_hold(struct port *p)
{
	struct port	*peer;

	if ((peer = link_flow_peer(p)) != NULL && peer->paused)
		return;
	port_pause(p, 1);
}

/* A port's queue takes more: read its link's other end again. */
void
link_flow_writable(struct port *p)
{
	struct port	*peer;

	if ((peer = link_flow_peer(p)) != NULL)
		port_pause(peer, 0);
}
