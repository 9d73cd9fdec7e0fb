# daemon/: the core library (protocol, random stream, log chain, engine)
# and the programs built on it.
noinst_LIBRARIES += daemon/libpbem.a
daemon_libpbem_a_CPPFLAGS = $(CORE_CPPFLAGS) \
	-DPBEM_TEMPLATE_DIR=\"$(pkgdatadir)/templates\" \
	-DPBEM_CARDS_DIR=\"$(pkgdatadir)/cards\"
# common/: utilities (the renderer's files are listed by templates/local.mk).
daemon_libpbem_a_SOURCES = \
	daemon/common/protocol.h daemon/common/protocol.c \
	daemon/common/rng.h daemon/common/rng.c \
	daemon/common/botname.h daemon/common/botname.c \
	daemon/common/reqsig.h daemon/common/reqsig.c \
	daemon/common/delegation.h daemon/common/delegation.c \
	daemon/common/clock.h daemon/common/clock.c \
	daemon/common/timetext.h daemon/common/timetext.c \
	daemon/common/addrpolicy.h daemon/common/addrpolicy.c \
	daemon/common/secretfile.h daemon/common/secretfile.c \
	daemon/common/threadname.h daemon/common/threadname.c
# engine/: everything that decides and records a move (engine.h).
daemon_libpbem_a_SOURCES += \
	daemon/engine/engine.h \
	daemon/engine/submit.c daemon/engine/seatkeys.c \
	daemon/engine/hostedkey.c daemon/engine/tokens.c \
	daemon/engine/signup.c daemon/engine/websession.c \
	daemon/engine/writer.h daemon/engine/writer.c \
	daemon/engine/apply.h daemon/engine/apply.c \
	daemon/engine/record.h daemon/engine/record.c \
	daemon/engine/outbox.c daemon/engine/observe.c \
	daemon/engine/webhook.h daemon/engine/webhook.c \
	daemon/engine/webhook_chat.h daemon/engine/webhook_chat.c \
	daemon/engine/turnclock.h daemon/engine/turnclock.c \
	daemon/engine/gamemaster.c daemon/engine/mastermail.c \
	daemon/engine/refusal.h daemon/engine/refusal.c \
	daemon/engine/gametx.h daemon/engine/gametx.c \
	daemon/engine/create.c daemon/engine/players.c \
	daemon/engine/cardsets.h daemon/engine/cardsets.c \
	daemon/engine/gamestate.c \
	daemon/engine/replay.h daemon/engine/replay.c \
	daemon/engine/verifier.h daemon/engine/verifier.c \
	daemon/engine/committed.c daemon/engine/summary.c \
	daemon/engine/serverentry.c daemon/engine/seats.c \
	daemon/engine/delegate.c daemon/engine/chatlink.c \
	daemon/engine/press.c daemon/engine/command.c daemon/engine/bots.c \
	daemon/engine/schedule.h daemon/engine/schedule.c \
	daemon/engine/gamepolicy.c \
	daemon/engine/policy.h daemon/engine/policy.c \
	daemon/engine/chain.h daemon/engine/chain.c \
	daemon/engine/serverkey.h daemon/engine/serverkey.c \
	daemon/engine/audit.h daemon/engine/audit.c \
	daemon/engine/bundle.h daemon/engine/bundle.c

# Protocol and random-stream tests (vectors from docs/PROTOCOL.md).
check_PROGRAMS += tests/check_protocol
TESTS += tests/check_protocol
tests_check_protocol_SOURCES = tests/check_protocol.c
tests_check_protocol_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_protocol_LDADD = daemon/libpbem.a $(SODIUM_LIBS) $(JANSSON_LIBS) \
	$(CHECK_LIBS)

# cli/: the players' and the administrators' programs.
bin_PROGRAMS += daemon/pbem daemon/pbemctl
daemon_pbem_SOURCES = daemon/cli/pbem.c daemon/cli/pbem.h \
	daemon/cli/pbem_delegate.c daemon/cli/cli.h daemon/cli/cli.c
daemon_pbem_CPPFLAGS = $(CORE_CPPFLAGS) $(CURL_CFLAGS)
daemon_pbem_LDADD = $(CORE_LIBS) $(CURL_LIBS)
daemon_pbemctl_SOURCES = daemon/cli/pbemctl.c daemon/cli/pbemctl.h \
	daemon/cli/ctl_backup.c daemon/cli/ctl_queue.c daemon/cli/ctl_cards.c \
	daemon/cli/cli.h daemon/cli/cli.c daemon/runtime/conf.h \
	daemon/runtime/conf.c
daemon_pbemctl_CPPFLAGS = $(CORE_CPPFLAGS)
daemon_pbemctl_LDADD = $(CORE_LIBS)

# pbemd: server/ (the process), runtime/ (the context its stages share),
# http/, notify/ (mail/ is daemon/mail/local.mk's).
sbin_PROGRAMS += daemon/pbemd
daemon_pbemd_SOURCES = \
	daemon/server/server.h daemon/server/pbemd.c \
	daemon/server/reload.c daemon/server/sdnotify.c \
	daemon/server/checkfiles.c \
	daemon/server/pidfile.h daemon/server/pidfile.c \
	daemon/server/scheduler.h daemon/server/scheduler.c \
	daemon/runtime/daemon.h daemon/runtime/context.c \
	daemon/runtime/conf.h daemon/runtime/conf.c \
	daemon/runtime/conf_secrets.h daemon/runtime/conf_secrets.c \
	daemon/runtime/metrics.h daemon/runtime/metrics.c \
	daemon/common/log.h daemon/common/log.c \
	daemon/common/ratelimit.h daemon/common/ratelimit.c \
	daemon/http/http.h daemon/http/http.c \
	daemon/http/http_conns.h daemon/http/http_conns.c \
	daemon/http/http_limits.h daemon/http/http_limits.c \
	daemon/http/events.h daemon/http/events.c \
	daemon/http/sse.h daemon/http/sse.c \
	daemon/http/replaycache.h daemon/http/replaycache.c \
	daemon/http/api.h daemon/http/api_auth.c \
	daemon/http/api_games.c daemon/http/api_moves.c \
	daemon/http/api_players.c daemon/http/api_confirm.c \
	daemon/http/api_body.h daemon/http/api_body.c \
	daemon/http/api_forming.c \
	daemon/http/api_seats.c daemon/http/api_log.c \
	daemon/http/api_events.c daemon/http/api_events_all.c \
	daemon/http/api_commands.c daemon/http/api_delegations.c \
	daemon/http/api_chat.c \
	daemon/http/api_webhooks.c daemon/http/api_ops.c \
	daemon/http/web.h daemon/http/web_page.c daemon/http/web_signin.c \
	daemon/http/web_seat.c daemon/http/web_move.c \
	daemon/http/web_form.c daemon/http/web_bots.c \
	daemon/http/web_static.c \
	daemon/http/web_origin.h daemon/http/web_origin.c \
	daemon/http/web_pick.h daemon/http/web_pick.c \
	daemon/http/web_last.h daemon/http/web_last.c \
	daemon/notify/notify.h daemon/notify/webhook_deliver.c
daemon_pbemd_CPPFLAGS = $(CORE_CPPFLAGS) $(MHD_CFLAGS) $(CURL_CFLAGS) \
	$(SYSTEMD_CFLAGS)
daemon_pbemd_LDADD = $(CORE_LIBS) $(MHD_LIBS) $(CURL_LIBS) $(SYSTEMD_LIBS) \
	-lpthread

# The settings table and its file parser.
check_PROGRAMS += tests/check_config
TESTS += tests/check_config
tests_check_config_SOURCES = tests/check_config.c daemon/runtime/conf.h \
	daemon/runtime/conf.c daemon/common/addrpolicy.c \
	daemon/runtime/conf_secrets.c daemon/common/secretfile.c
tests_check_config_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS) \
	-DSRCDIR=\"$(srcdir)\"
tests_check_config_LDADD = $(SODIUM_LIBS) $(CHECK_LIBS)

# The token buckets of the rate limits, with an injected clock.
check_PROGRAMS += tests/check_ratelimit
TESTS += tests/check_ratelimit
tests_check_ratelimit_SOURCES = tests/check_ratelimit.c \
	daemon/common/ratelimit.h daemon/common/ratelimit.c
tests_check_ratelimit_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_ratelimit_LDADD = $(SODIUM_LIBS) $(CHECK_LIBS) -lpthread

# The replay set of signed requests, with the clock passed in.
check_PROGRAMS += tests/check_replaycache
TESTS += tests/check_replaycache
tests_check_replaycache_SOURCES = tests/check_replaycache.c \
	daemon/http/replaycache.h daemon/http/replaycache.c
tests_check_replaycache_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_replaycache_LDADD = $(CHECK_LIBS) -lpthread
