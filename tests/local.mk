# tests/: whole-system tests (engine, random play, tampering, CLI).
TESTLIB = tests/testlib.h tests/testlib.c
# The generic tests that walk rules_all() read each card module's own set
# from the source tree (tests/testcards.h).
TESTCARDS = tests/testcards.h tests/testcards.c
# The card games' own card files laid out as installed
# ($(pkgdatadir)/cards/GAME.yaml), for the pbemd and pbemctl that the
# shell tests run from the build tree: TESTS_ENVIRONMENT points
# $PBEM_CARDS here (docs/CARDFILES.md).
check_DATA = tests/cards.stamp
tests/cards.stamp: $(CARD_FILES)
	@mkdir -p tests/cards
	@for f in $(CARD_FILES); do \
	    g=`echo $$f | sed 's|^rules/\([^/]*\)/cards.yaml$$|\1|'`; \
	    cp $(srcdir)/$$f tests/cards/$$g.yaml || exit 1; \
	done
	@touch $@
CLEANFILES += tests/cards.stamp tests/cards/*.yaml
TESTCARDS_CPPFLAGS = -I$(srcdir)/tests \
	-DTESTCARDS_SRCDIR=\"$(abs_top_srcdir)\"

check_PROGRAMS += tests/check_engine
TESTS += tests/check_engine
tests_check_engine_SOURCES = tests/check_engine.c $(TESTLIB)
tests_check_engine_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests $(CHECK_CFLAGS)
tests_check_engine_LDADD = $(CORE_LIBS) $(CHECK_LIBS) -lpthread

# Card files end to end with Parry: own set and --cards, audit, export and
# pbem verify, altered bundles, bad files (docs/CARDFILES.md).
TESTS += tests/cards-test.sh
EXTRA_DIST += tests/cards-test.sh

# The command-line tools and pbemd end to end.
TESTS += tests/cli-test.sh tests/check-layout.sh tests/readme-test.sh
EXTRA_DIST += tests/cli-test.sh tests/check-layout.sh tests/readme-test.sh tests/run-all.sh contrib/install-deps.sh

# pbemd as an administrator runs it: config files, lock, reload, limits,
# health, metrics, signals.
TESTS += tests/ops-test.sh
EXTRA_DIST += tests/ops-test.sh tests/checks.sh
# Backup under load, restore and audit, the outbox queue, prune.
TESTS += tests/backup-test.sh
EXTRA_DIST += tests/backup-test.sh

# docs/BOTS.md's example bot (Python, and Node.js if installed) against
# a real pbemd: signed requests, moves, the event streams, a webhook.
TESTS += tests/bots-test.sh
EXTRA_DIST += tests/bots-test.sh
# The reference IRC bot against a real ngircd (skipped without ngircd).
TESTS += tests/ircbot-test.sh
EXTRA_DIST += tests/ircbot-test.sh tests/ircbot_test.py

# The web page's sign-in links, sessions and CSRF tokens at the engine.
check_PROGRAMS += tests/check_web
TESTS += tests/check_web
tests_check_web_SOURCES = tests/check_web.c $(TESTLIB) \
	daemon/http/web_origin.h daemon/http/web_origin.c \
	daemon/http/web_pick.h daemon/http/web_pick.c \
	daemon/http/web_last.h daemon/http/web_last.c
tests_check_web_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests $(CHECK_CFLAGS)
tests_check_web_LDADD = $(CORE_LIBS) $(CHECK_LIBS) -lpthread

# The player's web page in headless Chromium (Selenium): whole games
# played by clicking, no hidden card in any page (docs/WEB.md).
TESTS += tests/web-e2e.sh
EXTRA_DIST += tests/web-e2e.sh tests/web_e2e.py
# The seat page's bots part (docs/WEB.md "Bots"), a minute in Chromium.
TESTS += tests/web-bots-e2e.sh
EXTRA_DIST += tests/web-bots-e2e.sh tests/web_bots_e2e.py
# The browser test's screenshots (tests/web-e2e/); `make clean` removes them.
clean-local: clean-web-e2e
clean-web-e2e:
	-rm -rf tests/web-e2e tests/web-bots-e2e
.PHONY: clean-web-e2e

check_PROGRAMS += tests/check_random_play
TESTS += tests/check_random_play
tests_check_random_play_SOURCES = tests/check_random_play.c $(TESTLIB)
tests_check_random_play_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests \
	-I$(srcdir)/rules/stmissions $(CHECK_CFLAGS)
tests_check_random_play_LDADD = $(CORE_LIBS) $(CHECK_LIBS)

# The card-file reader of the games whose cards are data.
check_PROGRAMS += tests/check_cardfile
TESTS += tests/check_cardfile
tests_check_cardfile_SOURCES = tests/check_cardfile.c
tests_check_cardfile_CPPFLAGS = $(RULES_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_cardfile_LDADD = rules/librules.a $(YAML_LIBS) $(JANSSON_LIBS) \
	$(CHECK_LIBS)
check_PROGRAMS += tests/check_rules_api
TESTS += tests/check_rules_api
tests_check_rules_api_SOURCES = tests/check_rules_api.c $(NOPEEK_HIDERS) \
	$(TESTCARDS)
tests_check_rules_api_CPPFLAGS = $(CORE_CPPFLAGS) $(TESTCARDS_CPPFLAGS) \
	$(CHECK_CFLAGS)
tests_check_rules_api_LDADD = $(CORE_LIBS) $(CHECK_LIBS)

# Adding a game touches only its folders: the generated lists are
# current, a copy of rules/template/ under a new name builds, registers
# and plays; and rules/ calls nothing non-re-entrant.
TESTS += tests/games-lists-test.sh
EXTRA_DIST += tests/games-lists-test.sh

# The differential no-peek test of every registered module: the rules
# library only, through the module table and saved states, with each
# game's hider (rules/nopeek.h, rules/GAME/nopeek.c).
check_PROGRAMS += tests/check_nopeek
TESTS += tests/check_nopeek
tests_check_nopeek_SOURCES = tests/check_nopeek.c $(RULESTEST) $(NOPEEK_HIDERS) \
	$(TESTCARDS)
tests_check_nopeek_CPPFLAGS = $(RULES_CPPFLAGS) -I$(srcdir)/daemon/common \
	$(TESTCARDS_CPPFLAGS) $(SODIUM_CFLAGS) $(CHECK_CFLAGS)
tests_check_nopeek_LDADD = daemon/libpbem.a rules/librules.a \
	$(SODIUM_LIBS) $(YAML_LIBS) $(JANSSON_LIBS) $(CHECK_LIBS)

# The server-played seats' bots against the random one (docs/SERVER-BOTS.md).
EXTRA_PROGRAMS += tests/bench_bots
BENCHES += tests/bench_bots
tests_bench_bots_SOURCES = tests/bench_bots.c
tests_bench_bots_CPPFLAGS = $(RULES_CPPFLAGS) -I$(srcdir)/daemon/common \
	$(SODIUM_CFLAGS) $(JANSSON_CFLAGS) -DBENCH_SRCDIR='"$(abs_srcdir)"'
tests_bench_bots_LDADD = daemon/libpbem.a rules/librules.a \
	$(SODIUM_LIBS) $(JANSSON_LIBS) $(YAML_LIBS)

EXTRA_PROGRAMS += tests/bench_engine
BENCHES += tests/bench_engine
tests_bench_engine_SOURCES = tests/bench_engine.c
tests_bench_engine_CPPFLAGS = $(CORE_CPPFLAGS)
tests_bench_engine_LDADD = $(CORE_LIBS)

EXTRA_PROGRAMS += tests/bench_scale
BENCHES += tests/bench_scale
tests_bench_scale_SOURCES = tests/bench_scale.c
tests_bench_scale_CPPFLAGS = $(CORE_CPPFLAGS)
tests_bench_scale_LDADD = $(CORE_LIBS)
EXTRA_DIST += tests/fuzz_protocol.c tests/vectors

# libFuzzer harnesses (clang): `make fuzz` builds them, never `make check`;
# tests/fuzz-run.sh runs each for a bounded time (docs/MAIL.md, "Fuzzing";
# docs/PROTOCOL.md).  They compile the parsers' sources themselves, with
# the fuzzer's instrumentation, so no other object is rebuilt.
FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined
FUZZ_PROTOCOL_FILES = $(srcdir)/tests/fuzz_protocol.c \
	$(srcdir)/daemon/common/protocol.c
FUZZ_MAIL_FILES = $(srcdir)/tests/fuzz_mail.c \
	$(srcdir)/daemon/mail/mail_parse.c $(srcdir)/daemon/mail/mail_block.c \
	$(srcdir)/daemon/mail/mail_flowed.c $(srcdir)/daemon/common/protocol.c
FUZZ_CONFIG_FILES = $(srcdir)/tests/fuzz_config.c \
	$(srcdir)/daemon/runtime/conf.c $(srcdir)/daemon/common/addrpolicy.c \
	$(srcdir)/daemon/common/reqsig.c $(srcdir)/daemon/common/protocol.c
FUZZ_BODY_FILES = $(srcdir)/tests/fuzz_body.c \
	$(srcdir)/daemon/http/api_body.c $(srcdir)/daemon/common/reqsig.c \
	$(srcdir)/daemon/common/protocol.c
FUZZ_DELEGATION_FILES = $(srcdir)/tests/fuzz_delegation.c \
	$(srcdir)/daemon/common/delegation.c $(srcdir)/daemon/common/reqsig.c \
	$(srcdir)/daemon/common/protocol.c
FUZZERS = tests/fuzz_protocol tests/fuzz_mail tests/fuzz_moves \
	tests/fuzz_config tests/fuzz_body tests/fuzz_delegation
tests/fuzz_protocol: $(FUZZ_PROTOCOL_FILES) $(srcdir)/daemon/common/protocol.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(srcdir)/daemon/common $(SODIUM_CFLAGS) \
	    $(FUZZ_PROTOCOL_FILES) $(SODIUM_LIBS) -o $@
tests/fuzz_mail: $(FUZZ_MAIL_FILES) $(srcdir)/daemon/mail/mail.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(MAIL_CPPFLAGS) $(FUZZ_MAIL_FILES) \
	    $(GMIME_LIBS) $(SODIUM_LIBS) -o $@
# Every module's sources, as the rules library lists them (headers left
# out by the shell: a header is no compiler input).
tests/fuzz_moves: $(srcdir)/tests/fuzz_moves.c $(rules_librules_a_SOURCES) \
    $(srcdir)/daemon/common/rng.c $(srcdir)/daemon/engine/policy.c \
    $(srcdir)/tests/testcards.c
	srcs=; for f in $(rules_librules_a_SOURCES); do \
	    case $$f in *.c) srcs="$$srcs $(srcdir)/$$f" ;; esac; \
	done; \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(RULES_CPPFLAGS) \
	    -I$(srcdir)/daemon/common -I$(srcdir)/daemon/engine \
	    $(TESTCARDS_CPPFLAGS) $(SODIUM_CFLAGS) \
	    $(srcdir)/tests/fuzz_moves.c $(srcdir)/tests/testcards.c $$srcs \
	    $(srcdir)/daemon/common/rng.c $(srcdir)/daemon/engine/policy.c \
	    $(YAML_LIBS) $(JANSSON_LIBS) $(SODIUM_LIBS) -o $@
tests/fuzz_config: $(FUZZ_CONFIG_FILES) $(srcdir)/daemon/runtime/conf.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(srcdir)/daemon/common \
	    -I$(srcdir)/daemon/runtime $(SODIUM_CFLAGS) \
	    $(FUZZ_CONFIG_FILES) $(SODIUM_LIBS) -o $@
# The JSON bodies of the HTTP API (api_body.h includes the store's and
# the engine's headers for their limits; no other source of theirs).
tests/fuzz_body: $(FUZZ_BODY_FILES) $(srcdir)/daemon/http/api_body.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CORE_CPPFLAGS) $(FUZZ_BODY_FILES) \
	    $(JANSSON_LIBS) $(SODIUM_LIBS) -o $@
# Delegation certificates and revocations (docs/PROTOCOL.md section 13).
tests/fuzz_delegation: $(FUZZ_DELEGATION_FILES) \
    $(srcdir)/daemon/common/delegation.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(srcdir)/daemon/common $(SODIUM_CFLAGS) \
	    $(JANSSON_CFLAGS) $(FUZZ_DELEGATION_FILES) $(JANSSON_LIBS) \
	    $(SODIUM_LIBS) -o $@
fuzz: $(FUZZERS)
.PHONY: fuzz
# ... and in every `make check`, each harness built by its recipe above
# with the system compiler and a plain main() (tests/fuzz_replay.c), run
# once over its seeds: a recipe that no longer links fails here.
TESTS += tests/fuzz-replay.sh
CLEANFILES += $(FUZZERS)
EXTRA_DIST += tests/fuzz_mail.c tests/fuzz_moves.c tests/fuzz_config.c \
	tests/fuzz_body.c tests/fuzz_delegation.c tests/fuzz_replay.c \
	tests/fuzz-replay.sh \
	tests/fuzz-run.sh

# Load against the real pbemd (bench_load) and its crash test share
# loadlib: a database with games, replicas that sign legal moves, pbemd
# started on a port of its own.
LOADLIB = tests/loadlib.h tests/loadlib.c
LOADLIB_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests \
	-DLOAD_SRCDIR=\"$(abs_top_srcdir)\" -DLOAD_BUILDDIR=\"$(abs_top_builddir)\"
EXTRA_PROGRAMS += tests/bench_load
BENCHES += tests/bench_load
tests_bench_load_SOURCES = tests/bench_load.c $(LOADLIB)
tests_bench_load_CPPFLAGS = $(LOADLIB_CPPFLAGS)
tests_bench_load_LDADD = $(CORE_LIBS)

# SIGKILL under load: every acknowledged move survives (real pbemd, libcurl).
check_PROGRAMS += tests/check_crash
TESTS += tests/check_crash
tests_check_crash_SOURCES = tests/check_crash.c $(LOADLIB)
tests_check_crash_CPPFLAGS = $(LOADLIB_CPPFLAGS) $(CHECK_CFLAGS) $(CURL_CFLAGS)
tests_check_crash_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CURL_LIBS) -lpthread

# The batching writer keeps engine_submit()'s promises.
check_PROGRAMS += tests/check_writer
TESTS += tests/check_writer
tests_check_writer_SOURCES = tests/check_writer.c $(TESTLIB)
tests_check_writer_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests $(CHECK_CFLAGS)
tests_check_writer_LDADD = $(CORE_LIBS) $(CHECK_LIBS) -lpthread
# Webhooks: registrations, queue, signature, events of a whole game.
check_PROGRAMS += tests/check_webhook
TESTS += tests/check_webhook
tests_check_webhook_SOURCES = tests/check_webhook.c $(TESTLIB)
tests_check_webhook_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests $(CHECK_CFLAGS)
tests_check_webhook_LDADD = $(CORE_LIBS) $(CHECK_LIBS)

# Webhooks end to end: the real pbemd, a receiver inside the test, SIGKILL.
check_PROGRAMS += tests/check_webhook_daemon
TESTS += tests/check_webhook_daemon
tests_check_webhook_daemon_SOURCES = tests/check_webhook_daemon.c $(TESTLIB)
tests_check_webhook_daemon_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests \
	$(CHECK_CFLAGS) $(MHD_CFLAGS) $(CURL_CFLAGS)
tests_check_webhook_daemon_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(MHD_LIBS) \
	$(CURL_LIBS) -lpthread
check_PROGRAMS += tests/check_bots
TESTS += tests/check_bots
tests_check_bots_SOURCES = tests/check_bots.c $(TESTLIB) $(TESTCARDS)
tests_check_bots_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests $(CHECK_CFLAGS)
tests_check_bots_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(SQLITE_LIBS) -lpthread
TESTS += tests/server-bots-test.sh
EXTRA_DIST += tests/server-bots-test.sh

check_PROGRAMS += tests/check_async
TESTS += tests/check_async
tests_check_async_SOURCES = tests/check_async.c $(TESTLIB)
tests_check_async_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests $(CHECK_CFLAGS)
tests_check_async_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(SQLITE_LIBS) -lpthread
# Delegation certificates: bot moves, the audit's chain, refusals.
check_PROGRAMS += tests/check_delegation
TESTS += tests/check_delegation
tests_check_delegation_SOURCES = tests/check_delegation.c $(TESTLIB)
tests_check_delegation_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests \
	$(CHECK_CFLAGS)
tests_check_delegation_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(SQLITE_LIBS) \
	-lpthread

# The HTTP API end to end: the real pbemd driven with libcurl.
check_PROGRAMS += tests/check_http
# tests/openapi-test.sh runs tests/check_http, recording every answer, and
# checks docs/openapi.yaml and those answers against it.
TESTS += tests/openapi-test.sh
EXTRA_DIST += tests/openapi-test.sh tests/openapi-check.py
tests_check_http_SOURCES = tests/check_http.c $(TESTLIB)
tests_check_http_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests \
	$(CHECK_CFLAGS) $(CURL_CFLAGS)
tests_check_http_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CURL_LIBS) -lpthread
