# daemon/mail*: the mail gateway (docs/MAIL.md) -- its own library, so
# that pbemd and the mail tests link it and nothing else has to.  Its
# settings take their defaults from pbemd's option table, so whatever
# links it also links daemon/runtime/conf.c.
MAIL_CPPFLAGS = $(CORE_CPPFLAGS) $(GMIME_CFLAGS) $(CURL_CFLAGS)
MAIL_LIBS = daemon/libmail.a $(CORE_LIBS) $(GMIME_LIBS) $(CURL_LIBS) -lpthread

noinst_LIBRARIES += daemon/libmail.a
daemon_libmail_a_CPPFLAGS = $(MAIL_CPPFLAGS)
daemon_libmail_a_SOURCES = daemon/mail/mail.h \
	daemon/mail/mail_settings.c daemon/mail/mail_thread.c \
	daemon/mail/mail_parse.c daemon/mail/mail_block.c daemon/mail/mail_ingest.c \
	daemon/mail/mail_reply.c daemon/mail/mail_account.c \
	daemon/mail/mail_delegate.c \
	daemon/mail/mail_maildir.c daemon/mail/mail_imap.c \
	daemon/mail/mail_render.c daemon/mail/mail_picture.c \
	daemon/mail/mail_notice.c daemon/mail/mail_policy.c \
	daemon/mail/mail_compose.c \
	daemon/mail/mail_flowed.c \
	daemon/mail/mail_send.c \
	daemon/mail/mail_sender.c daemon/mail/mail_daemon.c

# pbemd runs the gateway's threads and `pbemd deliver`.
daemon_pbemd_SOURCES += daemon/mail/mail_config.c daemon/mail/mail_deliver.c
daemon_pbemd_CPPFLAGS += $(GMIME_CFLAGS) $(CURL_CFLAGS)
daemon_pbemd_LDADD += daemon/libmail.a $(CORE_LIBS) $(GMIME_LIBS) \
	$(CURL_LIBS)

# The mail templates that are not a game's.
nobase_dist_template_DATA += \
	templates/en/mail/help.txt.mustache \
	templates/en/mail/play.txt.mustache \
	templates/en/mail/picture.html.mustache \
	templates/en/mail/picture_card.html.mustache \
	templates/en/mail/signup.txt.mustache \
	templates/en/mail/account.txt.mustache \
	templates/en/mail/reply_error.txt.mustache \
	templates/fr/mail/play.txt.mustache \
	templates/fr/mail/picture.html.mustache \
	templates/fr/mail/picture_card.html.mustache \
	templates/fr/mail/signup.txt.mustache \
	templates/fr/mail/account.txt.mustache \
	templates/fr/mail/reply_error.txt.mustache \
	templates/en/mail/error.txt.mustache \
	templates/en/mail/admin.txt.mustache \
	templates/fr/mail/help.txt.mustache \
	templates/fr/mail/error.txt.mustache \
	templates/fr/mail/admin.txt.mustache \
	templates/en/mail/auto_move.txt.mustache \
	templates/en/mail/call_off_vote.txt.mustache \
	templates/en/mail/deadline.txt.mustache \
	templates/en/mail/entry.txt.mustache \
	templates/en/mail/game_started.txt.mustache \
	templates/en/mail/clock_changed.txt.mustache \
	templates/en/mail/late.txt.mustache \
	templates/en/mail/missed.txt.mustache \
	templates/en/mail/master_notice.txt.mustache \
	templates/en/mail/observer_game_over.txt.mustache \
	templates/en/mail/observer_seat_offered.txt.mustache \
	templates/en/mail/observer_update.txt.mustache \
	templates/en/mail/press.txt.mustache \
	templates/en/mail/reminder.txt.mustache \
	templates/en/mail/resigned.txt.mustache \
	templates/en/mail/seat_offered.txt.mustache \
	templates/en/mail/seat_taken.txt.mustache \
	templates/en/mail/skipped.txt.mustache \
	templates/en/mail/vacation.txt.mustache \
	templates/fr/mail/auto_move.txt.mustache \
	templates/fr/mail/call_off_vote.txt.mustache \
	templates/fr/mail/deadline.txt.mustache \
	templates/fr/mail/entry.txt.mustache \
	templates/fr/mail/game_started.txt.mustache \
	templates/fr/mail/clock_changed.txt.mustache \
	templates/fr/mail/late.txt.mustache \
	templates/fr/mail/missed.txt.mustache \
	templates/fr/mail/master_notice.txt.mustache \
	templates/fr/mail/observer_game_over.txt.mustache \
	templates/fr/mail/observer_seat_offered.txt.mustache \
	templates/fr/mail/observer_update.txt.mustache \
	templates/fr/mail/press.txt.mustache \
	templates/fr/mail/reminder.txt.mustache \
	templates/fr/mail/resigned.txt.mustache \
	templates/fr/mail/seat_offered.txt.mustache \
	templates/fr/mail/seat_taken.txt.mustache \
	templates/fr/mail/skipped.txt.mustache \
	templates/fr/mail/vacation.txt.mustache

# Parser, inbound path, rendering and the Maildir transports, with the
# corpus of tests/mail/.
check_PROGRAMS += tests/check_mail
TESTS += tests/check_mail
tests_check_mail_SOURCES = tests/check_mail.c tests/check_mail_hosted.c \
	daemon/common/log.c \
	daemon/runtime/conf.c daemon/mail/mail_config.c $(TESTLIB)
tests_check_mail_CPPFLAGS = $(MAIL_CPPFLAGS) -I$(srcdir)/tests $(CHECK_CFLAGS)
tests_check_mail_LDADD = $(MAIL_LIBS) $(CHECK_LIBS)
EXTRA_DIST += tests/mail

# Real Postfix and Dovecot on loopback (skips unless root with both
# installed; PBEM_REQUIRE_MAIL_E2E=1 turns a skip into a failure).
TESTS += tests/mail-e2e.sh
EXTRA_DIST += tests/mail-e2e.sh

EXTRA_PROGRAMS += tests/bench_mail
BENCHES += tests/bench_mail
tests_bench_mail_SOURCES = tests/bench_mail.c daemon/common/log.c daemon/runtime/conf.c
tests_bench_mail_CPPFLAGS = $(MAIL_CPPFLAGS) -I$(srcdir)/tests
tests_bench_mail_LDADD = $(MAIL_LIBS)

# pbemd's embedded default spool (mail/in, mail/out, mail/quarantine)
# appears wherever a test runs pbemd; `make clean` removes it.
clean-local: clean-mail-spool
clean-mail-spool:
	-rm -rf mail
.PHONY: clean-mail-spool

# Every mail the engine queues, rendered from real rows in both languages
# (docs/MAIL.md, "Notices").
check_PROGRAMS += tests/check_notices
TESTS += tests/check_notices
tests_check_notices_SOURCES = tests/check_notices.c daemon/common/log.c \
	daemon/runtime/conf.c $(TESTLIB)
tests_check_notices_CPPFLAGS = $(MAIL_CPPFLAGS) -I$(srcdir)/tests \
	$(CHECK_CFLAGS)
tests_check_notices_LDADD = $(MAIL_LIBS) $(CHECK_LIBS)
