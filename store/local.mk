# store/: the SQLite implementation of store.h.
noinst_LIBRARIES += store/libstore.a
store_libstore_a_CPPFLAGS = $(STORE_CPPFLAGS)
store_libstore_a_SOURCES = store/store.h store/store_sqlite.c

check_PROGRAMS += tests/check_store
TESTS += tests/check_store
tests_check_store_SOURCES = tests/check_store.c
tests_check_store_CPPFLAGS = $(STORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_store_LDADD = store/libstore.a $(CHECK_LIBS) $(SQLITE_LIBS)
