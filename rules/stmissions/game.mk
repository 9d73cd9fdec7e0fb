# Star Trek: Missions: its tests (its sources are listed by rules/games.mk).
include $(srcdir)/rules/stmissions/score.mk

# Conformance, rule and random-play tests of the module.  The test builds
# its random stream with daemon/common/rng.h; the module itself sees only rules/.
check_PROGRAMS += tests/check_stm_rules
TESTS += tests/check_stm_rules
tests_check_stm_rules_SOURCES = tests/check_stm_rules.c $(RULESTEST)
tests_check_stm_rules_CPPFLAGS = $(RULES_CPPFLAGS) \
	-I$(srcdir)/rules/stmissions -I$(srcdir)/daemon/common $(SODIUM_CFLAGS) \
	$(CHECK_CFLAGS)
tests_check_stm_rules_LDADD = daemon/libpbem.a rules/librules.a \
	$(SODIUM_LIBS) $(YAML_LIBS) $(JANSSON_LIBS) $(CHECK_LIBS)
