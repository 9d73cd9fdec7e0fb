/*
 * check_webhook.c -- webhooks without the network: registrations and
 * their checks, the event filter, the backoff, the signature (with the
 * test vector of docs/WEBHOOKS.md), the body of a delivery, the store's
 * per-(webhook, game) queue, and the rows a whole game queues through the
 * engine -- in order, only for the registrations that want them, only
 * with public information (no hidden card, no seed before the end), and
 * none for a refused move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <check.h>
#include <sodium.h>

#include "addrpolicy.h"
#include "testlib.h"
#include "webhook.h"
#include "webhook_chat.h"

static struct testenv env;
/* The made-up hosts of these tests are allowed by name, so that nothing
 * here asks a resolver about them. */
static const struct webhook_rules rules = {
	.allow_hosts = "x.example, y, a, b, all, off, over, other, x",
	.check_address = 1,
};

static void
setup(void)
{
	testenv_open(&env, 2);
}

static void
teardown(void)
{
	testenv_close(&env);
}

/* ---- Registrations ------------------------------------------------------ */

START_TEST(test_url_check)
{
	static const char *const good[] = { "http://127.0.0.1:8080/hook",
	    "https://chat.example.org/pbem?room=7", "HTTP://x" };
	static const char *const bad[] = { "ftp://x/", "file:///etc/passwd",
	    "http://", "https:///path", "http://a b/", "http://x/\n",
	    "http://caf\xc3\xa9.example/", "//x/", "", "gopher://x" };
	char err[256], longurl[1100];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(webhook_url_check(good[i], err, sizeof(err)) == 0,
		    "%s: %s", good[i], err);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(webhook_url_check(bad[i], err, sizeof(err)) != 0,
		    "%s accepted", bad[i]);
		ck_assert_msg(err[0] != '\0', "no reason for %s", bad[i]);
	}
	ck_assert_int_ne(webhook_url_check("ftp://x", err, sizeof(err)), 0);
	ck_assert_str_eq(err, "a webhook URL must start with http:// or "
	    "https://");
	memset(longurl, 'a', sizeof(longurl));
	memcpy(longurl, "http://", 7);
	longurl[sizeof(longurl) - 1] = '\0';
	ck_assert_int_ne(webhook_url_check(longurl, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "at most 1023 bytes"));
}
END_TEST

START_TEST(test_events)
{
	char out[256], err[256];

	ck_assert_int_eq(webhook_events_parse("", out, sizeof(out), err,
	    sizeof(err)), 0);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(webhook_events_parse("*", out, sizeof(out), err,
	    sizeof(err)), 0);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(webhook_events_parse(" game_over , move,move",
	    out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_str_eq(out, "move,game_over");
	ck_assert_int_ne(webhook_events_parse("move,moves", out, sizeof(out),
	    err, sizeof(err)), 0);
	ck_assert_str_eq(err, "unknown event \"moves\"; the events are "
	    "game_created,move,game_over");
	ck_assert_int_ne(webhook_events_parse("move,", out, sizeof(out), err,
	    sizeof(err)), 0);

	ck_assert(webhook_events_match("", "move"));
	ck_assert(webhook_events_match("move,game_over", "move"));
	ck_assert(webhook_events_match("move,game_over", "game_over"));
	ck_assert(!webhook_events_match("move,game_over", "game_created"));
	ck_assert(!webhook_events_match("game_over", "game"));
	ck_assert(!webhook_events_match("move", "mov"));
}
END_TEST

START_TEST(test_register)
{
	struct store_webhook w, again;
	char err[256];
	int64_t game = testenv_game(&env, "template", 2);
	int64_t rows = testenv_rows(&env);

	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0, "https://x.example/h",
	    "move", &w, err, sizeof(err)), 0);
	ck_assert_int_gt(w.id, 0);
	ck_assert_int_eq(strlen(w.secret), 6 + 64);
	ck_assert(strncmp(w.secret, "whsec_", 6) == 0);
	ck_assert_int_eq(store_webhook_get(env.st, w.id, &again), STORE_OK);
	ck_assert_str_eq(again.secret, w.secret);
	ck_assert_str_eq(again.events, "move");
	ck_assert_int_eq(again.state, STORE_WEBHOOK_ACTIVE);
	ck_assert_int_eq(again.pending, 0);
	ck_assert_int_eq(webhook_register(env.st, &rules, game, 0, "http://y/", "",
	    &again, err, sizeof(err)), 0);
	ck_assert_str_ne(again.secret, w.secret);	/* a fresh secret */
	ck_assert_int_eq(again.game_id, game);

	/* Refusals change nothing. */
	ck_assert_int_ne(webhook_register(env.st, &rules, game + 100, 0, "http://y/", "",
	    &w, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "there is no game 101");
	ck_assert_int_ne(webhook_register(env.st, &rules, 0, 0, "mailto:a@b", "", &w,
	    err, sizeof(err)), 0);
	ck_assert_int_ne(webhook_register(env.st, &rules, 0, 0, "http://y/", "moves", &w,
	    err, sizeof(err)), 0);
	ck_assert_int_eq(testenv_rows(&env), rows);
	ck_assert_int_eq(store_webhook_get(env.st, again.id + 1, &w),
	    STORE_NOTFOUND);
}
END_TEST

/* addrpolicy_internal() of one literal address. */
static const char *
class_of(const char *text)
{
	struct sockaddr_in6 in6;
	struct sockaddr_in in4;

	memset(&in4, 0, sizeof(in4));
	memset(&in6, 0, sizeof(in6));
	if (inet_pton(AF_INET, text, &in4.sin_addr) == 1) {
		in4.sin_family = AF_INET;
		return addrpolicy_internal((struct sockaddr *)&in4);
	}
	ck_assert_msg(inet_pton(AF_INET6, text, &in6.sin6_addr) == 1, "%s",
	    text);
	in6.sin6_family = AF_INET6;
	return addrpolicy_internal((struct sockaddr *)&in6);
}

START_TEST(test_internal_addresses)
{
	static const char *const internal[][2] = {
		{ "127.0.0.1", "loopback" }, { "127.255.1.2", "loopback" },
		{ "::1", "loopback" }, { "0.0.0.0", "unspecified" },
		{ "::", "unspecified" }, { "10.1.2.3", "private" },
		{ "172.16.0.1", "private" }, { "172.31.255.255", "private" },
		{ "192.168.1.1", "private" }, { "100.64.0.1", "shared (CGNAT)" },
		{ "100.127.255.255", "shared (CGNAT)" },
		{ "169.254.169.254", "link-local" },
		{ "fe80::1", "link-local" }, { "fd00::1", "private (ULA)" },
		{ "fc00::1", "private (ULA)" }, { "224.0.0.1", "multicast" },
		{ "ff02::1", "multicast" }, { "255.255.255.255", "reserved" },
		{ "::ffff:127.0.0.1", "loopback" },
		{ "::ffff:10.0.0.1", "private" }, { "::127.0.0.1", "loopback" },
		{ "64:ff9b::7f00:1", "loopback" },
		{ "2002:7f00:1::", "loopback" }, { "2002:a00:1::", "private" },
		{ "2001:db8::1", "documentation" },
		{ "192.0.2.1", "documentation" },
	};
	static const char *const public[] = { "8.8.8.8", "1.1.1.1",
	    "172.32.0.1", "100.128.0.1", "172.15.255.255", "93.184.216.34",
	    "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808",
	    "2002:808:808::" };
	size_t i;
	const char *got;

	for (i = 0; i < sizeof(internal) / sizeof(internal[0]); i++) {
		got = class_of(internal[i][0]);
		ck_assert_msg(got != NULL && strcmp(got, internal[i][1]) == 0,
		    "%s: %s, not %s", internal[i][0], got ? got : "public",
		    internal[i][1]);
	}
	for (i = 0; i < sizeof(public) / sizeof(public[0]); i++)
		ck_assert_msg(class_of(public[i]) == NULL, "%s: %s", public[i],
		    class_of(public[i]));
}
END_TEST

START_TEST(test_url_host_and_allow_list)
{
	char host[256], err[256];
	int port;

	ck_assert_int_eq(addrpolicy_url_host("https://Hooks.LAN/x?a#b", host,
	    sizeof(host), &port, err, sizeof(err)), 0);
	ck_assert_str_eq(host, "Hooks.LAN");
	ck_assert_int_eq(port, 443);
	ck_assert_int_eq(addrpolicy_url_host("http://[::1]:9000/", host,
	    sizeof(host), &port, err, sizeof(err)), 0);
	ck_assert_str_eq(host, "::1");
	ck_assert_int_eq(port, 9000);
	ck_assert_int_eq(addrpolicy_url_host("http://x:0/", host,
	    sizeof(host), &port, err, sizeof(err)), -1);
	ck_assert_int_eq(addrpolicy_url_host("http://u:p@8.8.8.8/", host,
	    sizeof(host), &port, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "user name or password"));
	ck_assert_int_eq(addrpolicy_url_host("http://%31%32%37.0.0.1/", host,
	    sizeof(host), &port, err, sizeof(err)), -1);

	ck_assert(addrpolicy_allowed("127.0.0.1, hooks.lan:8080 [::1]:9",
	    "127.0.0.1", 22));
	ck_assert(addrpolicy_allowed("127.0.0.1, hooks.lan:8080",
	    "HOOKS.lan", 8080));
	ck_assert(!addrpolicy_allowed("127.0.0.1, hooks.lan:8080",
	    "hooks.lan", 80));
	ck_assert(addrpolicy_allowed("[::1]:9", "::1", 9));
	ck_assert(!addrpolicy_allowed("[::1]:9", "::1", 10));
	ck_assert(!addrpolicy_allowed("127.0.0.1", "localhost", 80));
	ck_assert(!addrpolicy_allowed("", "127.0.0.1", 80));
	ck_assert(!addrpolicy_allowed(NULL, "127.0.0.1", 80));
	ck_assert_int_eq(addrpolicy_list_check("a, b:1, [::1]:2, ::1", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(addrpolicy_list_check("a:99999", err, sizeof(err)),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "bad port"));
	ck_assert_int_eq(addrpolicy_list_check("[::1", err, sizeof(err)), -1);
}
END_TEST

/* Internal hosts are refused at registration unless allowed, and a
 * refusal stores nothing.  Only literal addresses and "localhost" (the
 * hosts file): no resolver is asked about the Internet. */
START_TEST(test_register_refuses_internal)
{
	static const char *const refused[] = { "http://127.0.0.1:22/",
	    "http://[::1]:9/", "http://localhost/", "http://10.1.2.3/",
	    "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/latest",
	    "http://2130706433/", "http://0x7f.1/", "http://127.1/",
	    "http://100.64.0.1/", "http://[fd00::1]/", "http://0.0.0.0/",
	    "http://224.0.0.1/", "https://192.168.0.1/", "http://[fe80::1]/",
	    "http://a@8.8.8.8/" };
	struct webhook_rules strict = { .allow_hosts = "", .check_address =
	    1 }, loop = { .allow_hosts = "127.0.0.1:22", .check_address = 1 };
	struct store_webhook w;
	char err[512];
	int64_t rows = testenv_rows(&env);
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(webhook_register(env.st, &strict, 0, 0,
		    refused[i], "", &w, err, sizeof(err)) != 0, "%s accepted",
		    refused[i]);
		ck_assert_msg(strstr(err, "public addresses") != NULL ||
		    strstr(err, "user name") != NULL, "%s: %s", refused[i],
		    err);
	}
	ck_assert_int_ne(webhook_register(env.st, &strict, 0, 0,
	    "http://127.0.0.1:22/", "", &w, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "the webhook host \"127.0.0.1\" is 127.0.0.1 "
	    "(loopback): webhooks may only go to public addresses (the "
	    "administrator may allow a host with webhook_allow_hosts)");
	ck_assert_int_eq(testenv_rows(&env), rows);
	ck_assert_int_eq(store_webhook_get(env.st, 1, &w), STORE_NOTFOUND);
	/* Allowed by the administrator, with that port only. */
	ck_assert_int_eq(webhook_register(env.st, &loop, 0, 0,
	    "http://127.0.0.1:22/", "", &w, err, sizeof(err)), 0);
	ck_assert_int_ne(webhook_register(env.st, &loop, 0, 0,
	    "http://127.0.0.1:23/", "", &w, err, sizeof(err)), 0);
	/* A public literal address needs no resolver and passes. */
	ck_assert_msg(webhook_register(env.st, &strict, 0, 0,
	    "https://8.8.8.8/hook", "", &w, err, sizeof(err)) == 0, "%s",
	    err);
}
END_TEST

/* A player's registrations are theirs and capped; the administrator's
 * are neither. */
START_TEST(test_owner_and_caps)
{
	struct webhook_rules capped = rules;
	struct store_webhook w;
	char err[512], *text;
	int64_t g1 = testenv_game(&env, "template", 2);
	int64_t g2 = testenv_game(&env, "template", 2), n;
	int i, state;
	json_t *j;

	capped.max_per_game = 2;
	capped.max_per_player = 3;
	ck_assert_int_eq(webhook_register(env.st, &capped, g1, 1, "http://a/",
	    "", &w, err, sizeof(err)), 0);
	ck_assert_int_eq(w.player_id, 1);
	ck_assert_int_eq(webhook_register(env.st, &capped, g1, 2, "http://b/",
	    "", &w, err, sizeof(err)), 0);
	ck_assert_int_ne(webhook_register(env.st, &capped, g1, 1, "http://a/",
	    "", &w, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "game 1 already has 2 webhooks registered by "
	    "its players, the most this server allows (webhook_max_per_game); "
	    "remove one first");
	for (i = 0; i < 3; i++)		/* the administrator's: no cap */
		ck_assert_int_eq(webhook_register(env.st, &capped, g1, 0,
		    "http://x/", "", &w, err, sizeof(err)), 0);
	ck_assert_int_eq(webhook_register(env.st, &capped, g2, 1, "http://a/",
	    "", &w, err, sizeof(err)), 0);
	ck_assert_int_eq(webhook_register(env.st, &capped, g2, 1, "http://y/",
	    "", &w, err, sizeof(err)), 0);
	ck_assert_int_ne(webhook_register(env.st, &capped, 0, 1, "http://y/",
	    "", &w, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "you already have 3 webhooks, the most this "
	    "server allows one player (webhook_max_per_player); remove one "
	    "first");
	ck_assert_int_eq(store_webhook_count(env.st, 0, 1, &n), STORE_OK);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(store_webhook_count(env.st, g1, 0, &n), STORE_OK);
	ck_assert_int_eq(n, 2);

	/* The last error: in full for the administrator, "delivery failed"
	 * for a player, in their language. */
	ck_assert_int_eq(store_webhook_failed(env.st, 1, 5, "Failed to "
	    "connect to 10.0.0.7 port 22", 0, &state), STORE_OK);
	ck_assert_int_eq(store_webhook_get(env.st, 1, &w), STORE_OK);
	j = webhook_json(&w, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(j, "last_error")),
	    "Failed to connect to 10.0.0.7 port 22");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "player")), 1);
	json_decref(j);
	j = webhook_json(&w, "fr");
	text = json_dumps(j, 0);
	ck_assert_ptr_null(strstr(text, "10.0.0.7"));
	ck_assert_str_eq(json_string_value(json_object_get(j, "last_error")),
	    "échec de la livraison");
	free(text);
	json_decref(j);
	j = webhook_json(&w, "en");
	ck_assert_str_eq(json_string_value(json_object_get(j, "last_error")),
	    "delivery failed");
	json_decref(j);
}
END_TEST

/* The JSON of a registration never holds the secret. */
START_TEST(test_json_has_no_secret)
{
	struct store_webhook w;
	char err[256], *text;
	json_t *j;

	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0, "https://x.example/h",
	    "", &w, err, sizeof(err)), 0);
	j = webhook_json(&w, NULL);
	text = json_dumps(j, 0);
	ck_assert_ptr_null(strstr(text, w.secret + 6));
	ck_assert_ptr_nonnull(strstr(text, "\"events\": [\"*\"]"));
	free(text);
	json_decref(j);
	/* Registered as a comma string, listed as a list. */
	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0, "https://x.example/i",
	    "move,game_over", &w, err, sizeof(err)), 0);
	j = webhook_json(&w, NULL);
	text = json_dumps(j, 0);
	ck_assert_ptr_nonnull(strstr(text,
	    "\"events\": [\"move\", \"game_over\"]"));
	free(text);
	json_decref(j);
}
END_TEST

/* ---- Backoff and signature ---------------------------------------------- */

START_TEST(test_backoff)
{
	int64_t prev_worst = 0, plain, worst;
	int f;

	/* No jitter: base, 2 base, 4 base, ..., capped. */
	ck_assert_int_eq(webhook_backoff(1, 10, 3600, 0), 10);
	ck_assert_int_eq(webhook_backoff(2, 10, 3600, 0), 20);
	ck_assert_int_eq(webhook_backoff(3, 10, 3600, 0), 40);
	ck_assert_int_eq(webhook_backoff(9, 10, 3600, 0), 2560);
	ck_assert_int_eq(webhook_backoff(10, 10, 3600, 0), 3600);
	ck_assert_int_eq(webhook_backoff(1000000, 10, 3600, 0), 3600);
	/* Jitter takes off at most a quarter, never adds; and even the
	 * largest jitter leaves each delay longer than the one before it
	 * without jitter, until the cap. */
	for (f = 1; f < 12; f++) {
		plain = webhook_backoff(f, 10, 3600, 0);
		worst = webhook_backoff(f, 10, 3600, plain / 4);
		ck_assert_int_eq(worst, plain - plain / 4);
		ck_assert_int_le(webhook_backoff(f, 10, 3600, 0xffffffffu),
		    plain);
		ck_assert_int_ge(webhook_backoff(f, 10, 3600, 0xffffffffu),
		    plain - plain / 4);
		if (plain < 3600)
			ck_assert_int_gt(worst, prev_worst);
		prev_worst = worst;
	}
	ck_assert_int_eq(webhook_backoff(1, 1, 1, 12345), 1);
}
END_TEST

/* The vector in docs/WEBHOOKS.md (computed independently with Python's
 * hmac module). */
START_TEST(test_signature_vector)
{
	static const char body[] = "{\"data\":{},\"delivery\":1,\"event\":"
	    "\"move\",\"game\":1,\"seq\":1,\"time\":1700000000}";
	char sig[WEBHOOK_SIGNATURE_LEN + 1];

	webhook_sign("whsec_0123456789abcdef0123456789abcdef", 1700000000,
	    body, strlen(body), sig);
	ck_assert_str_eq(sig, "sha256=547565140635b13be0816b162e7738030625b3"
	    "bad7909005b68870d67f7a9b39");
	/* Another timestamp, another signature (no replay with old time). */
	webhook_sign("whsec_0123456789abcdef0123456789abcdef", 1700000001,
	    body, strlen(body), sig);
	ck_assert_str_ne(sig, "sha256=547565140635b13be0816b162e7738030625b3"
	    "bad7909005b68870d67f7a9b39");
}
END_TEST

START_TEST(test_body)
{
	struct store_outbox o;
	char *a, *b;

	memset(&o, 0, sizeof(o));
	o.id = 42;
	o.game_id = 7;
	o.seq = 3;
	snprintf(o.event, sizeof(o.event), "move");
	o.payload = "{\"data\":{\"seat\":1},\"time\":1700000000}";
	a = webhook_body(&o);
	b = webhook_body(&o);
	ck_assert_str_eq(a, "{\"data\":{\"seat\":1},\"delivery\":42,\"event\":"
	    "\"move\",\"game\":7,\"seq\":3,\"time\":1700000000}");
	ck_assert_str_eq(a, b);		/* the same at every attempt */
	free(a);
	free(b);
	o.payload = "{\"time\":1}";
	ck_assert_ptr_null(webhook_body(&o));
	o.payload = "not json";
	ck_assert_ptr_null(webhook_body(&o));
}
END_TEST

/* ---- Chat formats --------------------------------------------------------- */

/* A pbem body whose summaries hold every platform's markup. */
static const char chat_pbem[] = "{\"data\":{\"summary\":{"
    "\"en\":\"<b>&amp @everyone *bold* _it_ [x](y)\","
    "\"fr\":\"é @here `code` > cité\"}},\"delivery\":5,\"event\":\"move\","
    "\"game\":7,\"seq\":3,\"time\":1}";

START_TEST(test_chat_bodies)
{
	char *b;

	b = webhook_chat_body("slack", "en", chat_pbem, "https://p.example");
	ck_assert_str_eq(b, "{\"blocks\":[{\"text\":{\"text\":\"&lt;b&gt;"
	    "&amp;amp @everyone *bold* _it_ [x](y) <https://p.example/play/"
	    "games/7/public|Game 7>\",\"type\":\"mrkdwn\"},\"type\":"
	    "\"section\"}],\"text\":\"&lt;b&gt;&amp;amp @everyone *bold* _it_ "
	    "[x](y) <https://p.example/play/games/7/public|Game 7>\"}");
	free(b);
	b = webhook_chat_body("discord", "en", chat_pbem, "https://p.example");
	ck_assert_str_eq(b, "{\"allowed_mentions\":{\"parse\":[]},\"content\":"
	    "\"\\\\<b\\\\>&amp @\u200beveryone \\\\*bold\\\\* \\\\_it\\\\_ "
	    "\\\\[x\\\\]\\\\(y\\\\)\",\"embeds\":[{\"title\":\"Game 7\","
	    "\"url\":\"https://p.example/play/games/7/public\"}]}");
	free(b);
	b = webhook_chat_body("discord", "fr", chat_pbem, NULL);
	ck_assert_str_eq(b, "{\"allowed_mentions\":{\"parse\":[]},\"content\":"
	    "\"\u00e9 @\u200bhere \\\\`code\\\\` \\\\> cit\u00e9\"}");
	free(b);
	b = webhook_chat_body("mattermost", "fr", chat_pbem,
	    "https://p.example");
	ck_assert_str_eq(b, "{\"text\":\"\u00e9 @\u200bhere \\\\`code\\\\` "
	    "\\\\> cit\u00e9 [Partie 7](https://p.example/play/games/7/"
	    "public)\",\"username\":\"pbem\"}");
	free(b);
	/* Without a summary: a plain line, still in the language. */
	b = webhook_chat_body("mattermost", "fr", "{\"event\":\"move\","
	    "\"game\":2,\"data\":{}}", NULL);
	ck_assert_str_eq(b, "{\"text\":\"partie 2 : move\",\"username\":"
	    "\"pbem\"}");
	free(b);
	ck_assert_ptr_null(webhook_chat_body("pbem", "en", chat_pbem, NULL));
	ck_assert_ptr_null(webhook_chat_body("irc", "en", chat_pbem, NULL));
	ck_assert_ptr_null(webhook_chat_body("slack", "en", "not json",
	    NULL));
}
END_TEST

/* A long summary is cut at a character, ends with "…", and the post
 * stays within each platform's limit, link included. */
START_TEST(test_chat_bounds)
{
	static const char *const formats[] = { "slack", "discord",
	    "mattermost" };
	static const char *const keys[] = { "text", "content", "text" };
	static const size_t max[] = { WEBHOOK_SLACK_MAX, WEBHOOK_DISCORD_MAX,
	    WEBHOOK_MATTERMOST_MAX };
	char *summary, *pbem, *b;
	const char *text;
	size_t i, n = 9000;
	json_t *j;

	summary = malloc(n + 1);
	for (i = 0; i < n; i += 3)
		memcpy(summary + i, i % 2 ? "\xc3\xa9<" : "*\xc3\xa9", 3);
	summary[n] = '\0';
	j = json_pack("{s:s, s:i, s:{s:{s:s, s:s}}}", "event", "move",
	    "game", 1, "data", "summary", "en", summary, "fr", "x");
	pbem = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	for (i = 0; i < 3; i++) {
		b = webhook_chat_body(formats[i], "en", pbem, "http://h");
		ck_assert_ptr_nonnull(b);
		j = json_loads(b, 0, NULL);	/* valid UTF-8 after the cut */
		ck_assert_ptr_nonnull(j);
		text = json_string_value(json_object_get(j, keys[i]));
		ck_assert_ptr_nonnull(text);
		ck_assert_uint_le(strlen(text), max[i]);
		ck_assert_uint_gt(strlen(text), max[i] - 40);
		ck_assert_ptr_nonnull(strstr(text, "\xe2\x80\xa6"));
		json_decref(j);
		free(b);
	}
	free(pbem);
	free(summary);
}
END_TEST

START_TEST(test_chat_registration)
{
	struct store_webhook w, back;
	char err[512];
	json_t *j;

	ck_assert_int_eq(webhook_register_as(env.st, &rules, 0, 0,
	    "https://x.example/h", "", "discord", "fr", &w, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(store_webhook_get(env.st, w.id, &back), STORE_OK);
	ck_assert_str_eq(back.format, "discord");
	ck_assert_str_eq(back.lang, "fr");
	j = webhook_json(&back, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(j, "format")),
	    "discord");
	ck_assert_str_eq(json_string_value(json_object_get(j, "lang")), "fr");
	json_decref(j);
	/* The default: pbem, en. */
	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0,
	    "https://x.example/h", "", &w, err, sizeof(err)), 0);
	ck_assert_int_eq(store_webhook_get(env.st, w.id, &back), STORE_OK);
	ck_assert_str_eq(back.format, "pbem");
	ck_assert_str_eq(back.lang, "en");
	/* Refused in both languages, nothing stored. */
	ck_assert_int_ne(webhook_register_as(env.st, &rules, 0, 0,
	    "https://x.example/h", "", "teams", NULL, &w, err, sizeof(err)),
	    0);
	ck_assert_ptr_nonnull(strstr(err, "unknown webhook format \"teams\""));
	ck_assert_ptr_nonnull(strstr(err, "format de webhook « teams » "
	    "inconnu"));
	ck_assert_int_ne(webhook_register_as(env.st, &rules, 0, 0,
	    "https://x.example/h", "", "slack", "de", &w, err, sizeof(err)),
	    0);
	ck_assert_ptr_nonnull(strstr(err, "langue de webhook"));
	ck_assert_int_eq(store_webhook_get(env.st, back.id + 1, &w),
	    STORE_NOTFOUND);
}
END_TEST

/* ---- The store's queue --------------------------------------------------- */

static void
add_row(int64_t hook, int64_t game, int64_t seq, int64_t *id)
{
	struct store_outbox o;

	memset(&o, 0, sizeof(o));
	o.game_id = game;
	o.seq = seq;
	snprintf(o.channel, sizeof(o.channel), "webhook");
	snprintf(o.recipient, sizeof(o.recipient), "%lld", (long long)hook);
	snprintf(o.event, sizeof(o.event), "move");
	o.payload = "{\"data\":{},\"time\":1}";
	o.next_attempt = 100;
	ck_assert_int_eq(store_outbox_add(env.st, &o), STORE_OK);
	*id = o.id;
}

struct due {
	int64_t	 ids[16];
	int	 n;
};

static int
note_due(const struct store_outbox *o, void *arg)
{
	struct due *d = arg;

	ck_assert_str_eq(o->channel, "webhook");
	d->ids[d->n++] = o->id;
	return 0;
}

static struct due
due_at(int64_t now)
{
	struct due d;

	memset(&d, 0, sizeof(d));
	ck_assert_int_eq(store_outbox_webhook_due(env.st, now, 16, note_due,
	    &d), STORE_OK);
	return d;
}

START_TEST(test_queue_order)
{
	struct store_webhook a, b;
	struct store_outbox mail;
	struct due d;
	int64_t g1 = testenv_game(&env, "template", 2);
	int64_t g2 = testenv_game(&env, "template", 2);
	int64_t r1, r2, r3, r4, r5, when;
	char err[256];
	int state;

	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0, "http://a/", "", &a,
	    err, sizeof(err)), 0);
	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0, "http://b/", "", &b,
	    err, sizeof(err)), 0);
	/* game_created rows were queued before the registrations: none. */
	ck_assert_int_eq(store_outbox_webhook_next(env.st, &when),
	    STORE_NOTFOUND);
	add_row(a.id, g1, 1, &r1);
	add_row(a.id, g1, 2, &r2);
	add_row(a.id, g2, 1, &r3);
	add_row(b.id, g1, 1, &r4);
	add_row(b.id, g1, 2, &r5);
	/* A mail row is never taken. */
	memset(&mail, 0, sizeof(mail));
	mail.game_id = g1;
	snprintf(mail.channel, sizeof(mail.channel), "mail");
	snprintf(mail.recipient, sizeof(mail.recipient), "%lld",
	    (long long)a.id);
	snprintf(mail.event, sizeof(mail.event), "move");
	mail.payload = "{}";
	ck_assert_int_eq(store_outbox_add(env.st, &mail), STORE_OK);

	/* Not due yet. */
	ck_assert_int_eq(due_at(99).n, 0);
	/* Only the head of each (webhook, game) queue. */
	d = due_at(100);
	ck_assert_int_eq(d.n, 3);
	ck_assert_int_eq(d.ids[0], r1);
	ck_assert_int_eq(d.ids[1], r3);
	ck_assert_int_eq(d.ids[2], r4);
	ck_assert_int_eq(store_outbox_webhook_next(env.st, &when), STORE_OK);
	ck_assert_int_eq(when, 100);

	/* r1 fails: r2 waits behind it even though r2 is due. */
	ck_assert_int_eq(store_outbox_mark_failed(env.st, r1, 500, 0, "HTTP "
	    "500"), STORE_OK);
	d = due_at(200);
	ck_assert_int_eq(d.n, 2);
	ck_assert_int_eq(d.ids[0], r3);
	ck_assert_int_eq(d.ids[1], r4);
	/* r4 sent: r5 is next in b's queue. */
	ck_assert_int_eq(store_outbox_mark_sent(env.st, r4), STORE_OK);
	d = due_at(200);
	ck_assert_int_eq(d.n, 2);
	ck_assert_int_eq(d.ids[1], r5);
	ck_assert_int_eq(store_outbox_mark_sent(env.st, r3), STORE_OK);
	ck_assert_int_eq(store_outbox_mark_sent(env.st, r5), STORE_OK);
	/* Only r1 (at 500) heads a queue now: the next wake-up is 500. */
	ck_assert_int_eq(store_outbox_webhook_next(env.st, &when), STORE_OK);
	ck_assert_int_eq(when, 500);
	d = due_at(500);
	ck_assert_int_eq(d.n, 1);
	ck_assert_int_eq(d.ids[0], r1);

	/* Failing after 3 in a row; a success re-arms. */
	ck_assert_int_eq(store_webhook_failed(env.st, a.id, 3, "HTTP 500",
	    0, &state), STORE_OK);
	ck_assert_int_eq(state, STORE_WEBHOOK_ACTIVE);
	ck_assert_int_eq(store_webhook_failed(env.st, a.id, 3, "HTTP 500",
	    0, &state), STORE_OK);
	ck_assert_int_eq(state, STORE_WEBHOOK_ACTIVE);
	ck_assert_int_eq(store_webhook_failed(env.st, a.id, 3, "timeout",
	    700, &state), STORE_OK);
	ck_assert_int_eq(state, STORE_WEBHOOK_FAILING);
	/* The registration backs off as a whole: r1 is due by its own time
	 * but waits for the registration's retry_at. */
	ck_assert_int_eq(due_at(600).n, 0);
	ck_assert_int_eq(store_outbox_webhook_next(env.st, &when), STORE_OK);
	ck_assert_int_eq(when, 700);
	ck_assert_int_eq(due_at(700).n, 1);
	ck_assert_int_eq(store_webhook_get(env.st, a.id, &a), STORE_OK);
	ck_assert_int_eq(a.failures, 3);
	ck_assert_str_eq(a.last_error, "timeout");
	ck_assert_int_eq(a.pending, 2);
	ck_assert_int_eq(store_webhook_delivered(env.st, a.id, 1234),
	    STORE_OK);
	ck_assert_int_eq(store_webhook_get(env.st, a.id, &a), STORE_OK);
	ck_assert_int_eq(a.state, STORE_WEBHOOK_ACTIVE);
	ck_assert_int_eq(a.failures, 0);
	ck_assert_int_eq(a.last_success, 1234);
	ck_assert_int_eq(a.retry_at, 0);
	ck_assert_int_eq(due_at(600).n, 1);

	/* Disabled: nothing due, no wake-up; enabled: back. */
	ck_assert_int_eq(store_webhook_set_state(env.st, a.id,
	    STORE_WEBHOOK_DISABLED), STORE_OK);
	ck_assert_int_eq(due_at(1000).n, 0);
	ck_assert_int_eq(store_outbox_webhook_next(env.st, &when),
	    STORE_NOTFOUND);
	ck_assert_int_eq(store_webhook_delivered(env.st, a.id, 2000),
	    STORE_OK);		/* stays disabled */
	ck_assert_int_eq(store_webhook_get(env.st, a.id, &a), STORE_OK);
	ck_assert_int_eq(a.state, STORE_WEBHOOK_DISABLED);
	ck_assert_int_eq(store_webhook_set_state(env.st, a.id,
	    STORE_WEBHOOK_ACTIVE), STORE_OK);
	ck_assert_int_eq(due_at(1000).n, 1);

	/* Removed: its rows are given up, nothing more is due. */
	ck_assert_int_eq(store_webhook_remove(env.st, a.id), STORE_OK);
	ck_assert_int_eq(due_at(1000).n, 0);
	ck_assert_int_eq(store_webhook_remove(env.st, a.id), STORE_NOTFOUND);
	ck_assert_str_eq(store_errmsg(env.st), "no webhook 1");
	ck_assert_int_eq(store_webhook_set_state(env.st, a.id, 0),
	    STORE_NOTFOUND);
}
END_TEST

/* ---- A whole game through the engine ------------------------------------ */


struct seen_row {
	int64_t	 id, game, seq;
	char	 event[32];
	char	*payload;
};

struct seen_rows {
	char		 recipient[32];
	struct seen_row	 rows[1024];
	int		 n;
};

static int
keep_row(const struct store_outbox *o, void *arg)
{
	struct seen_rows *s = arg;

	if (strcmp(o->channel, "webhook") != 0 ||
	    strcmp(o->recipient, s->recipient) != 0)
		return 0;
	ck_assert_int_lt(s->n, 1024);
	s->rows[s->n].id = o->id;
	s->rows[s->n].game = o->game_id;
	s->rows[s->n].seq = o->seq;
	snprintf(s->rows[s->n].event, sizeof(s->rows[0].event), "%s",
	    o->event);
	s->rows[s->n].payload = strdup(o->payload);
	s->n++;
	return 0;
}

/* Every pending row of one registration, oldest first. */
static struct seen_rows *
rows_of(int64_t hook)
{
	struct seen_rows *s = calloc(1, sizeof(*s));

	snprintf(s->recipient, sizeof(s->recipient), "%lld", (long long)hook);
	ck_assert_int_eq(store_outbox_due(env.st, INT64_MAX, 100000, keep_row,
	    s), STORE_OK);
	return s;
}

static void
rows_free(struct seen_rows *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->rows[i].payload);
	free(s);
}

/* The summaries of a webhook's data (docs/WEBHOOKS.md): for "move" and
 * "game_created" the entry's own (as the log's events show them), with
 * the mover's name; for "game_over" the end of the game alone. */
static void
check_summary(const json_t *data, const char *event, int64_t game,
    int64_t seq)
{
	const json_t *sum = json_object_get(data, "summary");
	const char *en = json_string_value(json_object_get(sum, "en"));
	const char *fr = json_string_value(json_object_get(sum, "fr"));
	struct engine_summary stored;
	struct store_entry e;
	char name[8];
	int seat;

	ck_assert_msg(en != NULL && fr != NULL, "%s %lld has no summary",
	    event, (long long)seq);
	if (strcmp(event, "game_over") == 0) {
		ck_assert_msg(strncmp(en, "game over: ", 11) == 0, "%s", en);
		ck_assert_msg(strncmp(fr, "partie terminée : ", 19) == 0, "%s",
		    fr);
		return;
	}
	/* A reader of the log words the same lines from the state. */
	ck_assert_int_eq(store_log_get(env.st, game, seq, &e), STORE_OK);
	engine_summary_of(env.st, &e, NULL, &stored);
	store_entry_clear(&e);
	ck_assert_str_eq(en, stored.en);
	ck_assert_str_eq(fr, stored.fr);
	if (strcmp(event, "move") != 0)
		return;
	seat = (int)json_integer_value(json_object_get(data, "seat"));
	snprintf(name, sizeof(name), "p%d", seat);
	ck_assert_str_eq(json_string_value(json_object_get(data, "name")),
	    name);
	ck_assert_ptr_nonnull(strstr(en, name));
	ck_assert_uint_eq(json_array_size(json_object_get(data,
	    "to_act_names")), json_array_size(json_object_get(data,
	    "to_act")));
}

START_TEST(test_game_events)
{
	struct store_webhook all, over_only, off, other_game;
	struct engine_reply reply;
	struct seen_rows *rows;
	struct gamestate gs;
	struct store_game g;
	unsigned char pub[74], sent[74];
	char err[512], move[512], seedhex[65];
	json_t *moves, *payload, *data, *view;
	char *text;
	uint64_t rnd = 7;
	int64_t game, other, seq, before;
	int seat, i, c, nmoves = 0;

	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0, "http://all/", "", &all,
	    err, sizeof(err)), 0);
	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0, "http://off/", "", &off,
	    err, sizeof(err)), 0);
	ck_assert_int_eq(store_webhook_set_state(env.st, off.id,
	    STORE_WEBHOOK_DISABLED), STORE_OK);
	other = testenv_game(&env, "template", 2);
	game = testenv_game(&env, "stmissions", 2);
	ck_assert_int_eq(webhook_register(env.st, &rules, game, 0, "http://over/",
	    "game_over", &over_only, err, sizeof(err)), 0);
	ck_assert_int_eq(webhook_register(env.st, &rules, other, 0, "http://other/", "",
	    &other_game, err, sizeof(err)), 0);

	/* A refused move queues nothing. */
	before = testenv_rows(&env);
	testenv_play(&env, game, 1, 0, "no such move", &reply);
	ck_assert_int_ne(reply.status, ENGINE_OK);
	engine_reply_clear(&reply);
	testenv_play(&env, game, 1, 1, "no such move", &reply);
	engine_reply_clear(&reply);
	ck_assert_int_eq(testenv_rows(&env), before);

	for (;;) {
		ck_assert_int_lt(nmoves, 500);
		ck_assert(gamestate_load(env.st, game, -1, &gs, err,
		    sizeof(err)) == ENGINE_OK);
		seq = gs.seq + 1;
		if (gs.module->to_act(gs.state, &seat, 1) == 0) {
			gamestate_clear(&gs);
			break;
		}
		moves = gs.module->legal_moves(gs.state, seat);
		snprintf(move, sizeof(move), "%s", json_string_value(
		    json_array_get(moves, test_random(&rnd,
		    (uint32_t)json_array_size(moves)))));
		json_decref(moves);
		gamestate_clear(&gs);
		testenv_play(&env, game, seq, seat, move, &reply);
		ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
		engine_reply_clear(&reply);
		nmoves++;
	}
	ck_assert_int_eq(store_game_get(env.st, game, &g), STORE_OK);
	proto_hex(g.seed, STORE_SEED_BYTES, seedhex);
	store_game_clear(&g);

	/* The global registration: game_created for both games, then one
	 * move per move in order, then game_over. */
	rows = rows_of(all.id);
	ck_assert_int_eq(rows->n, 2 + nmoves + 1);
	ck_assert_str_eq(rows->rows[0].event, "game_created");
	ck_assert_int_eq(rows->rows[0].game, other);
	ck_assert_str_eq(rows->rows[1].event, "game_created");
	ck_assert_int_eq(rows->rows[1].game, game);
	ck_assert_ptr_nonnull(strstr(rows->rows[1].payload,
	    "\"player\":\"p0\""));
	payload = json_loads(rows->rows[1].payload, 0, NULL);
	check_summary(json_object_get(payload, "data"), "game_created", game,
	    0);
	json_decref(payload);
	for (i = 2; i < rows->n; i++) {
		struct seen_row *r = &rows->rows[i];

		ck_assert_int_eq(r->game, game);
		ck_assert_int_gt(r->id, rows->rows[i - 1].id);
		ck_assert_int_eq(r->seq, i < rows->n - 1 ? i - 1 : nmoves);
		ck_assert_str_eq(r->event, i < rows->n - 1 ? "move" :
		    "game_over");
		payload = json_loads(r->payload, 0, NULL);
		data = json_object_get(payload, "data");
		ck_assert_ptr_nonnull(data);
		/* The view is exactly the public view after that move. */
		ck_assert(gamestate_load(env.st, game, r->seq, &gs, err,
		    sizeof(err)) == ENGINE_OK);
		view = gamestate_view(&gs, RULES_VIEW_PUBLIC);
		gamestate_view_names(env.st, &gs, view);
		ck_assert_msg(json_equal(view, json_object_get(data, "view")),
		    "move %lld: the webhook's view is not the public view",
		    (long long)r->seq);
		check_summary(data, r->event, game, r->seq);
		/* Not a card id that the public view does not name. */
		text = json_dumps(view, JSON_COMPACT);
		testenv_stm_ids(text, pub);
		free(text);
		testenv_stm_ids(r->payload, sent);
		for (c = 0; c < 74; c++)
			ck_assert_msg(!sent[c] || pub[c], "move %lld: a "
			    "hidden card in the payload", (long long)r->seq);
		json_decref(view);
		gamestate_clear(&gs);
		if (strcmp(r->event, "move") == 0) {
			ck_assert_int_eq(json_integer_value(json_object_get(
			    data, "next_seq")), r->seq + 1);
			ck_assert(json_is_integer(json_object_get(data,
			    "seat")));
		}
		/* The seed only once the game is over. */
		if (r->seq < nmoves)
			ck_assert_msg(strstr(r->payload, seedhex) == NULL,
			    "the seed is in the payload of move %lld",
			    (long long)r->seq);
		json_decref(payload);
	}
	ck_assert_ptr_nonnull(strstr(rows->rows[rows->n - 1].payload,
	    seedhex));
	ck_assert_ptr_nonnull(strstr(rows->rows[rows->n - 2].payload,
	    "\"game_over\":true"));
	rows_free(rows);

	/* The filtered one: game_over only.  The disabled one and the
	 * other game's: nothing. */
	rows = rows_of(over_only.id);
	ck_assert_int_eq(rows->n, 1);
	ck_assert_str_eq(rows->rows[0].event, "game_over");
	rows_free(rows);
	rows = rows_of(off.id);
	ck_assert_int_eq(rows->n, 0);
	rows_free(rows);
	rows = rows_of(other_game.id);
	ck_assert_int_eq(rows->n, 0);
	rows_free(rows);
	/* Rows were noted for the delivery thread's wake-up. */
	ck_assert(webhook_take_queued());
	ck_assert(!webhook_take_queued());
}
END_TEST

/* Play the first legal move of game. */
static void
play_first(int64_t game)
{
	struct engine_reply reply;
	struct gamestate gs;
	char err[512], move[512];
	json_t *moves;
	int seat;

	ck_assert(gamestate_load(env.st, game, -1, &gs, err, sizeof(err)) ==
	    ENGINE_OK);
	ck_assert_int_eq(gs.module->to_act(gs.state, &seat, 1), 1);
	moves = gs.module->legal_moves(gs.state, seat);
	snprintf(move, sizeof(move), "%s", json_string_value(
	    json_array_get(moves, 0)));
	json_decref(moves);
	testenv_play(&env, game, gs.seq + 1, seat, move, &reply);
	ck_assert_msg(reply.status == ENGINE_OK, "%s", reply.message);
	engine_reply_clear(&reply);
	gamestate_clear(&gs);
}

/* With nobody listening, a move queues no webhook row. */
START_TEST(test_no_listener_no_row)
{
	struct seen_rows *rows;
	struct store_webhook w;
	char err[256];
	int64_t game = testenv_game(&env, "template", 2);

	(void)webhook_take_queued();
	play_first(game);
	ck_assert(!webhook_take_queued());
	ck_assert_int_eq(webhook_register(env.st, &rules, 0, 0, "http://x/", "", &w,
	    err, sizeof(err)), 0);
	rows = rows_of(w.id);
	ck_assert_int_eq(rows->n, 0);
	rows_free(rows);
	/* And once someone listens, the next move does. */
	play_first(game);
	ck_assert(webhook_take_queued());
	rows = rows_of(w.id);
	ck_assert_int_eq(rows->n, 1);
	ck_assert_int_eq(rows->rows[0].seq, 2);
	rows_free(rows);
}
END_TEST

static Suite *
webhook_suite(void)
{
	Suite *s = suite_create("webhook");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_url_check);
	tcase_add_test(tc, test_events);
	tcase_add_test(tc, test_register);
	tcase_add_test(tc, test_json_has_no_secret);
	tcase_add_test(tc, test_internal_addresses);
	tcase_add_test(tc, test_url_host_and_allow_list);
	tcase_add_test(tc, test_register_refuses_internal);
	tcase_add_test(tc, test_owner_and_caps);
	tcase_add_test(tc, test_backoff);
	tcase_add_test(tc, test_signature_vector);
	tcase_add_test(tc, test_body);
	tcase_add_test(tc, test_chat_bodies);
	tcase_add_test(tc, test_chat_bounds);
	tcase_add_test(tc, test_chat_registration);
	tcase_add_test(tc, test_queue_order);
	tcase_add_test(tc, test_game_events);
	tcase_add_test(tc, test_no_listener_no_row);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	if (sodium_init() < 0)
		return 1;
	sr = srunner_create(webhook_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
