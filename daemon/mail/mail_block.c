/*
 * mail_block.c -- which signed block of a mail to play, and the words
 * that are commands.
 *
 * proto_move_find() reads the first block of a text.  A reply usually
 * quotes the mail it answers, and a player's earlier block may be quoted
 * there above the new one; so the gateway picks the block itself, among
 * the BEGIN lines proto_move_begin_next() finds with the protocol's own
 * notion of quoting (docs/PROTOCOL.md), and hands proto_move_find() the
 * text from that block's BEGIN line on.
 */
#include <string.h>
#include <strings.h>

#include "mail.h"
#include "protocol.h"

long
mail_block_pick(const char *text, size_t len)
{
	size_t from = 0, depth, best_depth = 0;
	long at, best = -1;

	while ((at = proto_move_begin_next(text, len, &from, &depth)) >= 0)
		if (best < 0 || depth < best_depth) {
			best = at;
			best_depth = depth;
		}
	return best;
}

/* ASCII fold of a command word: É/é to e, upper to lower; the rest as
 * is.  Returns 0, or -1 if the word is too long to be a command. */
static int
fold(const char *w, size_t n, char *out, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)w[i];

		if (o + 1 >= size)
			return -1;
		if (c == 0xc3 && i + 1 < n && ((unsigned char)w[i + 1] ==
		    0x89 || (unsigned char)w[i + 1] == 0xa9)) {
			out[o++] = 'e';
			i++;
		} else
			out[o++] = (c >= 'A' && c <= 'Z') ? c + 32 : c;
	}
	out[o] = '\0';
	return 0;
}

enum mail_command
mail_command_word(const char *word, int *fr)
{
	static const struct {
		const char		*word;
		enum mail_command	 cmd;
		int			 fr;
	} words[] = {
		{ "help", MAIL_CMD_HELP, 0 },
		{ "?", MAIL_CMD_HELP, 0 },
		{ "aide", MAIL_CMD_HELP, 1 },
		{ "status", MAIL_CMD_STATUS, 0 },
		{ "etat", MAIL_CMD_STATUS, 1 },
		{ "statut", MAIL_CMD_STATUS, 1 },
	};
	char f[16];
	size_t n, i;

	while (*word == ' ' || *word == '\t')
		word++;
	n = strlen(word);
	while (n > 0 && (word[n - 1] == ' ' || word[n - 1] == '\t' ||
	    word[n - 1] == '\r' || word[n - 1] == '.' || word[n - 1] == '!'))
		n--;
	if (n == 0 || fold(word, n, f, sizeof(f)) != 0)
		return MAIL_CMD_NONE;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(f, words[i].word) == 0) {
			*fr = words[i].fr;
			return words[i].cmd;
		}
	return MAIL_CMD_NONE;
}

enum mail_command
mail_command_find(const char *subject, const char *text, size_t len, int *fr)
{
	enum mail_command c;
	char line[64];
	size_t pos = 0, end, i, n;

	*fr = 0;
	if (subject != NULL &&
	    (c = mail_command_word(subject, fr)) != MAIL_CMD_NONE)
		return c;
	while (text != NULL && pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);

		end = nl != NULL ? (size_t)(nl - text) : len;
		for (i = pos; i < end && (text[i] == ' ' || text[i] == '\t' ||
		    text[i] == '\r'); i++)
			;
		if (i < end && text[i] == '>')
			return MAIL_CMD_NONE;	/* quoting starts: no command */
		if (i < end) {
			n = end - i;
			if (n >= sizeof(line))
				return MAIL_CMD_NONE;
			memcpy(line, text + i, n);
			line[n] = '\0';
			return mail_command_word(line, fr);
		}
		pos = end + 1;
	}
	return MAIL_CMD_NONE;
}
