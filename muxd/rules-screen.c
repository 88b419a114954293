/*
 * What the rules send a judge's screen and show referees: the entity's
 * output drawn as the screen shows it (view.c), and the conversation's
 * text for the watchers.
 *
 * The buffers of a chunk's way (RULES_BUF, rules.c) are static.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "muxd.h"
#include "rules.h"

/*
 * Send the entity's output to the judge's screen as the screen shows it
 * (view.c, the model the transcript is made with): each line end as CR
 * LF, an erase as BS SP BS of the entity's own characters, tabs as
 * spaces, the judge's unfinished line taken off and drawn again below.
 * With the filter in pass-through (rules filter = false) the room asked
 * for the entity's bytes as they are, control sequences and all: they go
 * so, and the model follows them for the record alone.
 */
void
rules_screen_send(struct rules *r, const unsigned char *buf, size_t n)
{
	static char		 screen[VIEW_OUTLEN(PORT_CHUNK)];	/* RULES_BUF */
	struct link		*l = r->link;
	size_t			 chunk, m;
	int			 full = 0;

	if (r->filter.passthrough) {
		(void)view_output(&r->jt.view, buf, n, 0, NULL);
		if (port_send(l->a, buf, n) == 1)
			link_flow_hold(l->b);
		return;
	}
	while (n > 0) {
		chunk = n < PORT_CHUNK ? n : PORT_CHUNK;
		m = view_output(&r->jt.view, buf, chunk, 0, screen);
		if (m > 0 && port_send(l->a, (unsigned char *)screen, m) == 1)
			full = 1;
		buf += chunk;
		n -= chunk;
	}
	if (full)
		link_flow_hold(l->b);
}

/*
 * Show referees the text of a conversation as it goes: the judge's
 * keystrokes and the entity's output as the judge gets it, only when
 * someone watches.  ISO-8859-1: each byte one code point; UTF-8: each
 * character whole (read with a reader per side, so that one split over
 * reads is whole too), what is no character as U+FFFD.
 */
void
rules_screen_text(struct rules *r, const char *who, const unsigned char *buf,
    size_t n)
{
	static char	 u[(PORT_CHUNK + FILTER_HELDMAX) * 3];	/* RULES_BUF */
	struct utf8	*rd = &r->text8[*who == 'j' ? 0 : 1];
	size_t		 i, k = 0;

	if (n == 0 || !events_wanted(PROTOCOL_EV_TEXT))
		return;
	for (i = 0; i < n; i++) {
		if (r->charset == CAP_UTF8) {
			switch (utf8_byte(rd, buf[i])) {
			case UTF8_MORE:
				break;
			case UTF8_CHAR:
				memcpy(u + k, rd->b, rd->n);
				k += rd->n;
				break;
			case UTF8_CUT:
				i--;		/* read again */
				/* FALLTHROUGH */
			case UTF8_BAD:
				memcpy(u + k, "\xef\xbf\xbd", 3);
				k += 3;
				break;
			}
		} else if (buf[i] < 0x80)
			u[k++] = buf[i];
		else {
			u[k++] = 0xc0 | (buf[i] >> 6);
			u[k++] = 0x80 | (buf[i] & 0x3f);
		}
	}
	if (k == 0)
		return;
	events_post(PROTOCOL_EV_TEXT, json_pack("{ss ss si ss ss#}", "link",
	    r->link->name, "entity", r->entity, "judge", r->judge, "who", who,
	    "text", u, (int)k));
}
