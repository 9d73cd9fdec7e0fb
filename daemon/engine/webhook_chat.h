/*
 * webhook_chat.h -- the chat formats of a webhook delivery
 * (docs/WEBHOOKS.md "Chat formats").
 *
 * A registration's format is "pbem" (the signed JSON event of
 * webhook_body()) or the body a chat platform's incoming webhooks take:
 *   slack       {"text", "blocks": [one mrkdwn section of the same text]}
 *   discord     {"content", "allowed_mentions": {"parse": []},
 *                "embeds": [{"title", "url"}] when there is a link}
 *   mattermost  {"text", "username": "pbem"}
 * The text is the event's one-line summary in the registration's language
 * (en, fr), escaped for the platform's markup so that a player's name can
 * neither format the post nor mention anybody, bounded to what the
 * platform accepts, with a link to the game's public page when a public
 * base URL is given.  The summary is public information only (summary.c),
 * and nothing else of the event is posted.
 */
#ifndef PBEM_WEBHOOK_CHAT_H
#define PBEM_WEBHOOK_CHAT_H

#include <stddef.h>

/* Longest text posted, in bytes, "…" included: Discord's content limit
 * (2000 characters), within Slack's section text (3000) and well within
 * a Mattermost post (16383). */
#define WEBHOOK_DISCORD_MAX	2000
#define WEBHOOK_SLACK_MAX	3000
#define WEBHOOK_MATTERMOST_MAX	4000

/* Check a registration's format (NULL or "": "pbem"; else "slack",
 * "discord" or "mattermost") and lang (NULL or "": "en"; else "fr") and
 * copy them to format_out (16 bytes) and lang_out (4 bytes).  0, or -1
 * with a refusal in English and French in err. */
int	webhook_chat_choice(const char *format, const char *lang,
	    char *format_out, char *lang_out, char *err, size_t errlen);
/* The body to POST in a chat format for the pbem body pbem_body
 * (webhook_body()), with the summary in lang and a link under base_url
 * (no trailing '/'; NULL or "": no link).  Malloc'd JSON text, or NULL if
 * pbem_body cannot be read or format is not a chat format. */
char   *webhook_chat_body(const char *format, const char *lang,
	    const char *pbem_body, const char *base_url);

#endif /* PBEM_WEBHOOK_CHAT_H */
