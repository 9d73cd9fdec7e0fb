# Enterprise vs Excelsior: its tests (its sources are listed by
# rules/games.mk).

# Rule, refusal, save/load and random-play tests of the module.  The test
# builds its random stream with daemon/common/rng.h; the module sees only rules/.
check_PROGRAMS += tests/check_eve
TESTS += tests/check_eve
tests_check_eve_SOURCES = tests/check_eve.c $(RULESTEST)
tests_check_eve_CPPFLAGS = $(RULES_CPPFLAGS) -I$(srcdir)/rules/eve \
	-I$(srcdir)/daemon/common $(SODIUM_CFLAGS) $(CHECK_CFLAGS)
tests_check_eve_LDADD = daemon/libpbem.a rules/librules.a \
	$(SODIUM_LIBS) $(YAML_LIBS) $(JANSSON_LIBS) $(CHECK_LIBS)
