# rules/: the rule-module contract, the registry and every game module.
noinst_LIBRARIES += rules/librules.a
rules_librules_a_CPPFLAGS = $(RULES_CPPFLAGS)
rules_librules_a_SOURCES = rules/rules.h rules/registry.c rules/text.c rules/json.c \
	rules/template/template.c rules/respond/respond.c \
	$(STM_SCORE_SOURCES) $(STM_GAME_SOURCES) $(EVE_SOURCES)

include $(srcdir)/rules/stmissions/score.mk
include $(srcdir)/rules/stmissions/game.mk
include $(srcdir)/rules/eve/eve.mk
