/*
 * msg.c -- messages for people: a bounded buffer that never overflows,
 * and card names in the reader's language.
 *
 * Refusals are written into the caller's RULES_ERRLEN buffer.  A long
 * discard area could make a message longer than that; stm_msg_add() then
 * cuts it, ends it with "..." and ignores what follows, so a message is
 * always a valid, NUL-terminated string.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stmissions.h"

#define MSG_CUT_MARK	"..."

void
stm_msg_init(struct stm_msg *m, char *buf, size_t cap)
{
	m->buf = buf;
	m->cap = cap;
	m->len = 0;
	m->cut = 0;
	if (cap > 0)
		buf[0] = '\0';
}

void
stm_msg_add(struct stm_msg *m, const char *fmt, ...)
{
	va_list	ap;
	size_t	room, pos;
	int	n;

	if (m->cut || m->cap == 0)
		return;
	room = m->cap - m->len;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, room, fmt, ap);
	va_end(ap);
	if (n < 0) {
		m->buf[m->len] = '\0';
		return;
	}
	if ((size_t)n < room) {
		m->len += (size_t)n;
		return;
	}
	/* It did not fit: keep what did, end with the mark, and never leave
	 * half a UTF-8 sequence before it. */
	m->cut = 1;
	if (m->cap < sizeof(MSG_CUT_MARK)) {
		m->len = 0;
		m->buf[0] = '\0';
		return;
	}
	pos = m->cap - sizeof(MSG_CUT_MARK);
	while (pos > 0 && ((unsigned char)m->buf[pos] & 0xc0) == 0x80)
		pos--;
	memcpy(m->buf + pos, MSG_CUT_MARK, sizeof(MSG_CUT_MARK));
	m->len = pos + sizeof(MSG_CUT_MARK) - 1;
}

const char *
stm_tr(enum rules_lang lang, const char *en, const char *fr)
{
	return lang == RULES_LANG_FR ? fr : en;
}

const char *
stm_name_in(int card, enum rules_lang lang)
{
	return stm_tr(lang, stm_cards[card].name_en, stm_cards[card].name_fr);
}

/* "Borg Cube (M02)" */
void
stm_msg_card(struct stm_msg *m, int card, enum rules_lang lang)
{
	stm_msg_add(m, "%s (%s)", stm_name_in(card, lang),
	    stm_cards[card].id);
}

/* "Borg Cube (M02), Computer (G12)", or "none"; past eight cards only the
 * ids, so that a full discard area still fits in a message. */
void
stm_msg_pile(struct stm_msg *m, const struct stm_pile *p,
    enum rules_lang lang)
{
	int	i;

	if (p->n == 0) {
		stm_msg_add(m, "%s", stm_tr(lang, "none", "aucune"));
		return;
	}
	for (i = 0; i < p->n; i++) {
		if (i > 0)
			stm_msg_add(m, ", ");
		if (p->n <= 8)
			stm_msg_card(m, p->cards[i], lang);
		else
			stm_msg_add(m, "%s", stm_cards[p->cards[i]].id);
	}
}
