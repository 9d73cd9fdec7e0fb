/*
 * fuzz_mail.c -- libFuzzer harness for the mail intake's parse of one
 * message from its bytes: GMime's MIME parse with our header reading
 * (mail_parse), the HTML-to-text conversion (mail_html_to_text), the
 * choice of the block to play (mail_block_pick) and the protocol's
 * reading of it, and the unsigned command words.
 *
 * Built by `make fuzz`, never by `make check`; tests/fuzz-run.sh runs it
 * for a bounded time (docs/MAIL.md, "Fuzzing").  Besides "does not crash,
 * does not read out of bounds, does not leak", it checks what the gateway
 * promises for every input:
 *
 *   - the text searched is at most MAIL_TEXT_RATIO times the message plus
 *     MAIL_TEXT_SLACK bytes, valid UTF-8, as long as it says;
 *   - no header value the gateway copies (Message-ID, addresses, subject,
 *     Auto-Submitted, Precedence) holds a control character;
 *   - the HTML conversion never writes more than its limit, and what it
 *     writes is NUL-terminated at the length it returns;
 *   - the block picked is the start of a line inside the text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gmime/gmime.h>

#include "mail.h"
#include "protocol.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* 1 if s holds a C0 control, DEL, or a C1 control written in UTF-8. */
static int
has_control(const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			return 1;
		if (c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
		    (unsigned char)s[1] <= 0x9f)
			return 1;
	}
	return 0;
}

static void
check_html(const char *data, size_t size)
{
	size_t limit = size * 2 + 64, n;
	char *text;

	if ((text = mail_html_to_text(data, size, limit, &n)) == NULL)
		return;
	if (n > limit || strlen(text) > n || text[n] != '\0')
		abort();
	free(text);
}

static void
check_message(const char *data, size_t size)
{
	struct proto_move pm;
	struct mail_msg m;
	char err[512];
	long off;
	int fr = 0;

	if (mail_parse(data, size, &m, err, sizeof(err)) != 0) {
		if (err[0] == '\0')
			abort();
		return;
	}
	if (m.text == NULL || m.textlen > size * MAIL_TEXT_RATIO +
	    MAIL_TEXT_SLACK || m.text[m.textlen] != '\0' ||
	    !g_utf8_validate(m.text, (gssize)m.textlen, NULL))
		abort();
	if (has_control(m.message_id) || has_control(m.from) ||
	    has_control(m.reply_to) || has_control(m.return_path) ||
	    has_control(m.subject) || has_control(m.auto_submitted) ||
	    has_control(m.precedence))
		abort();
	off = mail_block_pick(m.text, m.textlen);
	if (off >= 0) {
		if ((size_t)off >= m.textlen || (off > 0 &&
		    m.text[off - 1] != '\n' && m.text[off - 1] != '\r'))
			abort();
		(void)proto_move_find(m.text + off, m.textlen - (size_t)off,
		    &pm, err, sizeof(err));
	} else
		(void)mail_command_find(m.subject, m.text, m.textlen, &fr);
	mail_msg_clear(&m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	char *copy;

	if (!ready) {
		g_mime_init();
		ready = 1;
	}
	/* The parsers get exactly size bytes, with nothing after them. */
	if ((copy = malloc(size > 0 ? size : 1)) == NULL)
		return 0;
	memcpy(copy, data, size);
	check_message(copy, size);
	check_html(copy, size);
	free(copy);
	return 0;
}
