# daemon/: the core library (protocol, random stream, log chain, engine)
# and the programs built on it.
noinst_LIBRARIES += daemon/libpbem.a
daemon_libpbem_a_CPPFLAGS = $(CORE_CPPFLAGS) \
	-DPBEM_TEMPLATE_DIR=\"$(pkgdatadir)/templates\"
daemon_libpbem_a_SOURCES = \
	daemon/protocol.h daemon/protocol.c \
	daemon/rng.h daemon/rng.c \
	daemon/reqsig.h daemon/reqsig.c

# Protocol and random-stream tests (vectors from docs/PROTOCOL.md).
check_PROGRAMS += tests/check_protocol
TESTS += tests/check_protocol
tests_check_protocol_SOURCES = tests/check_protocol.c
tests_check_protocol_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_protocol_LDADD = daemon/libpbem.a $(SODIUM_LIBS) $(CHECK_LIBS)
daemon_libpbem_a_SOURCES += \
	daemon/chain.h daemon/chain.c \
	daemon/serverkey.h daemon/serverkey.c \
	daemon/engine.h daemon/create.c daemon/submit.c daemon/gamestate.c \
	daemon/apply.h daemon/apply.c daemon/writer.h daemon/writer.c \
	daemon/committed.c \
	daemon/audit.h daemon/audit.c \
	daemon/bundle.h daemon/bundle.c \
	daemon/webhook.h daemon/webhook.c \
	daemon/clock.h daemon/clock.c daemon/policy.h daemon/policy.c \
	daemon/serverentry.c daemon/seats.c daemon/press.c \
	daemon/observe.c daemon/command.c daemon/outbox.c \
	daemon/schedule.h daemon/schedule.c

# Programs.
bin_PROGRAMS += daemon/pbem daemon/pbemctl
daemon_pbem_SOURCES = daemon/pbem.c daemon/cli.h daemon/cli.c
daemon_pbem_CPPFLAGS = $(CORE_CPPFLAGS) $(CURL_CFLAGS)
daemon_pbem_LDADD = $(CORE_LIBS) $(CURL_LIBS)
daemon_pbemctl_SOURCES = daemon/pbemctl.c daemon/cli.h daemon/cli.c
daemon_pbemctl_CPPFLAGS = $(CORE_CPPFLAGS)
daemon_pbemctl_LDADD = $(CORE_LIBS)

bin_PROGRAMS += daemon/pbemd
daemon_pbemd_SOURCES = daemon/pbemd.c daemon/daemon.h \
	daemon/conf.h daemon/conf.c daemon/threadstore.c \
	daemon/http.c daemon/api.h daemon/api_games.c daemon/api_moves.c \
	daemon/api_auth.c daemon/api_players.c daemon/api_forming.c \
	daemon/api_seats.c daemon/api_log.c daemon/api_events.c \
	daemon/events.h daemon/events.c \
	daemon/replaycache.h daemon/replaycache.c \
	daemon/api_commands.c \
	daemon/log.h daemon/log.c \
	daemon/webhook_deliver.c daemon/api_webhooks.c
# Operations: pid/lock file, reload, rate limits, metrics, systemd.
daemon_pbemd_SOURCES += daemon/pidfile.h daemon/pidfile.c \
	daemon/reload.c daemon/ratelimit.h daemon/ratelimit.c \
	daemon/limits.c daemon/metrics.h daemon/metrics.c daemon/notify.c \
	daemon/api_ops.c
daemon_pbemd_CPPFLAGS = $(CORE_CPPFLAGS) $(MHD_CFLAGS) $(CURL_CFLAGS) \
	$(SYSTEMD_CFLAGS)
daemon_pbemd_LDADD = $(CORE_LIBS) $(MHD_LIBS) $(CURL_LIBS) $(SYSTEMD_LIBS) \
	-lpthread

# The settings table and its file parser.
check_PROGRAMS += tests/check_config
TESTS += tests/check_config
tests_check_config_SOURCES = tests/check_config.c daemon/conf.h \
	daemon/conf.c
tests_check_config_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS) \
	-DSRCDIR=\"$(srcdir)\"
tests_check_config_LDADD = $(CHECK_LIBS)

# The token buckets of the rate limits, with an injected clock.
check_PROGRAMS += tests/check_ratelimit
TESTS += tests/check_ratelimit
tests_check_ratelimit_SOURCES = tests/check_ratelimit.c \
	daemon/ratelimit.h daemon/ratelimit.c
tests_check_ratelimit_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_ratelimit_LDADD = $(SODIUM_LIBS) $(CHECK_LIBS) -lpthread
