# Star Trek: Missions -- the cards and the scoring.
STM_SCORE_SOURCES = rules/stmissions/cards.h rules/stmissions/cards.c \
	rules/stmissions/score.h rules/stmissions/score_int.h \
	rules/stmissions/score.c rules/stmissions/score_cards.c \
	rules/stmissions/score_match.c rules/stmissions/score_classes.c \
	rules/stmissions/score_ship.c rules/stmissions/score_choice.c

check_PROGRAMS += tests/check_stm_score
TESTS += tests/check_stm_score
tests_check_stm_score_SOURCES = tests/check_stm_score.c $(STM_SCORE_SOURCES)
tests_check_stm_score_CPPFLAGS = $(RULES_CPPFLAGS) -I$(srcdir)/rules/stmissions $(CHECK_CFLAGS)
tests_check_stm_score_LDADD = $(CHECK_LIBS) $(JANSSON_LIBS)

# How fast the scorer is (make bench): hands per second and the worst case.
BENCHES += tests/bench_stm_score
EXTRA_PROGRAMS += tests/bench_stm_score
tests_bench_stm_score_SOURCES = tests/bench_stm_score.c $(STM_SCORE_SOURCES)
tests_bench_stm_score_CPPFLAGS = $(RULES_CPPFLAGS) -I$(srcdir)/rules/stmissions
tests_bench_stm_score_LDADD = $(JANSSON_LIBS)
