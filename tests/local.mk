# tests/: whole-system tests (engine, random play, tampering, CLI).
TESTLIB = tests/testlib.h tests/testlib.c

check_PROGRAMS += tests/check_engine
TESTS += tests/check_engine
tests_check_engine_SOURCES = tests/check_engine.c $(TESTLIB)
tests_check_engine_CPPFLAGS = $(CORE_CPPFLAGS) -I$(srcdir)/tests $(CHECK_CFLAGS)
tests_check_engine_LDADD = $(CORE_LIBS) $(CHECK_LIBS) -lpthread
