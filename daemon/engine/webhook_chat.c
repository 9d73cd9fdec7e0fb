/*
 * webhook_chat.c -- the Slack, Discord and Mattermost bodies of a webhook
 * delivery (webhook_chat.h).  Nothing here talks to the network.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "webhook_chat.h"

#define ELLIPSIS	"\xe2\x80\xa6"		/* U+2026, 3 bytes */
#define ZERO_WIDTH	"\xe2\x80\x8b"		/* U+200B, 3 bytes */

enum chat_format { CHAT_SLACK, CHAT_DISCORD, CHAT_MATTERMOST, CHAT_NONE };

static enum chat_format
format_of(const char *name)
{
	if (strcmp(name, "slack") == 0)
		return CHAT_SLACK;
	if (strcmp(name, "discord") == 0)
		return CHAT_DISCORD;
	if (strcmp(name, "mattermost") == 0)
		return CHAT_MATTERMOST;
	return CHAT_NONE;
}

int
webhook_chat_choice(const char *format, const char *lang, char *format_out,
    char *lang_out, char *err, size_t errlen)
{
	if (format == NULL || format[0] == '\0')
		format = "pbem";
	if (lang == NULL || lang[0] == '\0')
		lang = "en";
	if (strcmp(format, "pbem") != 0 && format_of(format) == CHAT_NONE) {
		snprintf(err, errlen, "unknown webhook format \"%.32s\": it is "
		    "pbem, slack, discord or mattermost / format de webhook "
		    "« %.32s » inconnu : c'est pbem, slack, discord ou "
		    "mattermost", format, format);
		return -1;
	}
	if (strcmp(lang, "en") != 0 && strcmp(lang, "fr") != 0) {
		snprintf(err, errlen, "unknown webhook language \"%.32s\": it "
		    "is en (English) or fr (French) / langue de webhook "
		    "« %.32s » inconnue : c'est en (anglais) ou fr (français)",
		    lang, lang);
		return -1;
	}
	snprintf(format_out, 16, "%s", format);
	snprintf(lang_out, 4, "%s", lang);
	return 0;
}

/* The bytes of one UTF-8 character starting at p (1 if p is not a lead
 * byte, so that anything is walked through). */
static size_t
char_len(const unsigned char *p)
{
	size_t n = 1;

	if (*p >= 0xf0)
		n = 4;
	else if (*p >= 0xe0)
		n = 3;
	else if (*p >= 0xc0)
		n = 2;
	while (n > 1 && strnlen((const char *)p, n) < n)
		n--;
	return n;
}

/* What character c (of n bytes) becomes in fmt's markup, in out (at
 * least 8 bytes); its length. */
static size_t
escape_char(enum chat_format fmt, const char *c, size_t n, char *out)
{
	if (fmt == CHAT_SLACK) {
		/* Slack: only &, < and > are control characters. */
		if (*c == '&')
			return (size_t)snprintf(out, 8, "&amp;");
		if (*c == '<')
			return (size_t)snprintf(out, 8, "&lt;");
		if (*c == '>')
			return (size_t)snprintf(out, 8, "&gt;");
	} else {
		/* Discord and Mattermost: Markdown, and @ mentions
		 * (@everyone, @here, @channel, @all) broken by a zero-width
		 * space. */
		if (n == 1 && strchr("\\*_~`|<>#[]()", *c) != NULL) {
			out[0] = '\\';
			out[1] = *c;
			return 2;
		}
		if (*c == '@')
			return (size_t)snprintf(out, 8, "@" ZERO_WIDTH);
	}
	memcpy(out, c, n);
	return n;
}

/* text escaped for fmt, in at most max bytes (callers give at least 64):
 * cut at a whole escaped character and ended with "…" if longer.
 * Malloc'd, or NULL. */
static char *
escape_bounded(enum chat_format fmt, const char *text, size_t max)
{
	const unsigned char *p;
	char piece[8], *out;
	size_t n, k, total = 0, len = 0, limit;

	if (max < strlen(ELLIPSIS))
		max = strlen(ELLIPSIS);
	for (p = (const unsigned char *)text; *p != '\0'; p += n) {
		n = char_len(p);
		total += escape_char(fmt, (const char *)p, n, piece);
	}
	limit = total <= max ? total : max - strlen(ELLIPSIS);
	if ((out = malloc(limit + strlen(ELLIPSIS) + 1)) == NULL)
		return NULL;
	for (p = (const unsigned char *)text; *p != '\0'; p += n) {
		n = char_len(p);
		k = escape_char(fmt, (const char *)p, n, piece);
		if (len + k > limit)
			break;
		memcpy(out + len, piece, k);
		len += k;
	}
	if (total > max) {
		memcpy(out + len, ELLIPSIS, strlen(ELLIPSIS));
		len += strlen(ELLIPSIS);
	}
	out[len] = '\0';
	return out;
}

/* The summary of the pbem body in lang, or a plain line if it has none. */
static const char *
summary_of(json_t *body, const char *lang, char *plain, size_t plainlen)
{
	json_t *sum = json_object_get(json_object_get(body, "data"),
	    "summary");
	const char *text = json_string_value(json_object_get(sum, lang));
	json_int_t game = json_integer_value(json_object_get(body, "game"));
	const char *event = json_string_value(json_object_get(body, "event"));

	if (text != NULL && text[0] != '\0')
		return text;
	snprintf(plain, plainlen, strcmp(lang, "fr") == 0 ? "partie %lld : %s" :
	    "game %lld: %s", (long long)game, event != NULL ? event : "?");
	return plain;
}

/* The link after a Slack or Mattermost post's summary (malloc'd):
 * Slack's <url|label>, its URL escaped; Markdown's [label](url). */
static char *
link_text(enum chat_format fmt, const char *label, const char *link)
{
	char *url, *out;
	size_t n;

	url = fmt == CHAT_SLACK ? escape_bounded(fmt, link, 2048) :
	    strdup(link);
	if (url == NULL)
		return NULL;
	n = strlen(url) + strlen(label) + 8;
	if ((out = malloc(n)) != NULL && fmt == CHAT_SLACK)
		snprintf(out, n, " <%s|%s>", url, label);
	else if (out != NULL)
		snprintf(out, n, " [%s](%s)", label, url);
	free(url);
	return out;
}

/* The text of a Slack or Mattermost post, at most max bytes: the
 * summary, cut if needed, then the link. */
static char *
post_text(enum chat_format fmt, const char *summary, const char *label,
    const char *link, size_t max)
{
	char *text, *after = NULL, *out;
	size_t room = max, n;

	if (link != NULL) {
		if ((after = link_text(fmt, label, link)) == NULL)
			return NULL;
		/* A link longer than the post (a base URL of over a
		 * kilobyte) is left out rather than the summary. */
		if (strlen(after) + 64 > max) {
			free(after);
			after = NULL;
		} else
			room = max - strlen(after);
	}
	if ((text = escape_bounded(fmt, summary, room)) == NULL) {
		free(after);
		return NULL;
	}
	n = strlen(text) + (after != NULL ? strlen(after) : 0) + 1;
	if ((out = malloc(n)) != NULL)
		snprintf(out, n, "%s%s", text, after != NULL ? after : "");
	free(text);
	free(after);
	return out;
}

static json_t *
slack_body(const char *text)
{
	return json_pack("{s:s, s:[{s:s, s:{s:s, s:s}}]}", "text", text,
	    "blocks", "type", "section", "text", "type", "mrkdwn", "text",
	    text);
}

static json_t *
discord_body(const char *summary, const char *label, const char *link)
{
	char *content;
	json_t *body;

	if ((content = escape_bounded(CHAT_DISCORD, summary,
	    WEBHOOK_DISCORD_MAX)) == NULL)
		return NULL;
	body = json_pack("{s:s, s:{s:[]}}", "content", content,
	    "allowed_mentions", "parse");
	free(content);
	if (body != NULL && link != NULL)
		json_object_set_new(body, "embeds", json_pack("[{s:s, s:s}]",
		    "title", label, "url", link));
	return body;
}

char *
webhook_chat_body(const char *format, const char *lang,
    const char *pbem_body, const char *base_url)
{
	enum chat_format fmt = format_of(format);
	char plain[128], label[64], link[1200], *text = NULL, *out;
	const char *summary, *linkp = NULL;
	json_t *in, *body = NULL;
	json_int_t game;

	if (fmt == CHAT_NONE ||
	    (in = json_loads(pbem_body, 0, NULL)) == NULL)
		return NULL;
	if (strcmp(lang, "fr") != 0)
		lang = "en";
	summary = summary_of(in, lang, plain, sizeof(plain));
	game = json_integer_value(json_object_get(in, "game"));
	snprintf(label, sizeof(label), strcmp(lang, "fr") == 0 ?
	    "Partie %lld" : "Game %lld", (long long)game);
	if (base_url != NULL && base_url[0] != '\0' &&
	    strlen(base_url) < sizeof(link) - 64) {
		snprintf(link, sizeof(link), "%s/play/games/%lld/public",
		    base_url, (long long)game);
		linkp = link;
	}
	switch (fmt) {
	case CHAT_SLACK:
		if ((text = post_text(fmt, summary, label, linkp,
		    WEBHOOK_SLACK_MAX)) != NULL)
			body = slack_body(text);
		break;
	case CHAT_DISCORD:
		body = discord_body(summary, label, linkp);
		break;
	case CHAT_MATTERMOST:
		if ((text = post_text(fmt, summary, label, linkp,
		    WEBHOOK_MATTERMOST_MAX)) != NULL)
			body = json_pack("{s:s, s:s}", "text", text,
			    "username", "pbem");
		break;
	case CHAT_NONE:
		break;
	}
	free(text);
	json_decref(in);
	if (body == NULL)
		return NULL;
	out = json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(body);
	return out;
}
