# store/: the SQLite implementation of store.h.
noinst_LIBRARIES += store/libstore.a
store_libstore_a_CPPFLAGS = $(STORE_CPPFLAGS)
store_libstore_a_SOURCES = store/store.h store/store_sqlite.h \
	store/store_sqlite.c store/store_players.c store/store_games.c \
	store/store_log.c store/store_outbox.c store/store_webhooks.c \
	store/store_mail.c store/store_hosted.c \
	store/migrations.h store/migrations.c store/store_test.h \
	store/store_async.c store/store_web.c store/store_backup.c \
	store/store_cards.c

# -lpthread: the race test runs two connections in two threads.
check_PROGRAMS += tests/check_store
TESTS += tests/check_store
tests_check_store_SOURCES = tests/check_store.c
tests_check_store_CPPFLAGS = $(STORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_store_LDADD = store/libstore.a $(CHECK_LIBS) $(SQLITE_LIBS) \
	-lpthread

# Committed transactions per second for the per-move write pattern.
EXTRA_PROGRAMS += tests/bench_store
BENCHES += tests/bench_store
tests_bench_store_SOURCES = tests/bench_store.c
tests_bench_store_CPPFLAGS = $(STORE_CPPFLAGS)
tests_bench_store_LDADD = store/libstore.a $(SQLITE_LIBS)
