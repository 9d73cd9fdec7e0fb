# rules/: the rule-module contract, the registry and every game module.
# Each game's files come from rules/games.mk, which rules/gen-games.sh
# makes from the folders rules/*/ and templates/*/GAME/ (docs/ARCHITECTURE.md,
# "Adding a game"): adding a game edits nothing here.
noinst_LIBRARIES += rules/librules.a
rules_librules_a_CPPFLAGS = $(RULES_CPPFLAGS)
rules_librules_a_SOURCES = rules/rules.h rules/registry.c rules/bot.c \
	rules/registry_list.h rules/text.c rules/json.c \
	rules/cardfile.h rules/cardfile.c
# What tests/check_nopeek.c and check_templates.c need of each game (its
# hider: test code, not in the library): the contract, the list and its
# helpers, and from games.mk every game's rules/GAME/nopeek.c.
NOPEEK_HIDERS = rules/nopeek.h rules/nopeek.c rules/nopeek_list.h
# What every game's own test (rules/GAME/game.mk) may share: a seeded
# random stream and a file read whole (tests/rulestest.h).
RULESTEST = tests/rulestest.h tests/rulestest.c
# The 80-column check of every text view (check_text_width and each
# game's own text test).
TEXTWIDTH = tests/textwidth.h tests/textwidth.c
# Each card game's own card file, rules/GAME/cards.yaml (games.mk lists
# them): shipped, and installed as $(pkgdatadir)/cards/GAME.yaml, where
# pbemd and pbemctl look for a game's default set (docs/CARDFILES.md).
CARD_FILES =

include $(srcdir)/rules/games.mk

# The lists are remade when the script changes or a folder is added to
# rules/ or templates/LANG/ (a new game): `make` after creating a game's
# folders picks it up, automake rerunning by itself as games.mk is part of
# this Makefile.  The script rewrites a list only when its text changes,
# so nothing is rebuilt when nothing changed.
GAMES_LISTS = $(srcdir)/rules/games.mk $(srcdir)/rules/registry_list.h \
	$(srcdir)/rules/nopeek_list.h
$(GAMES_LISTS): $(srcdir)/rules/gen-games.sh $(srcdir)/rules \
    $(srcdir)/templates/en $(srcdir)/templates/fr
	$(SHELL) $(srcdir)/rules/gen-games.sh $(srcdir)

# Remake the generated lists after adding a game or one of its files.
games-lists:
	$(SHELL) $(srcdir)/rules/gen-games.sh $(srcdir)
.PHONY: games-lists
EXTRA_DIST += rules/gen-games.sh

# The card files under their installed names (GAME.yaml: the folder's
# name is the game's).
cardsdir = $(pkgdatadir)/cards
EXTRA_DIST += $(CARD_FILES)
install-data-local: install-card-files
uninstall-local: uninstall-card-files
install-card-files:
	$(MKDIR_P) '$(DESTDIR)$(cardsdir)'
	for f in $(CARD_FILES); do \
	    g=$${f#rules/}; g=$${g%/cards.yaml}; \
	    $(INSTALL_DATA) "$(srcdir)/$$f" "$(DESTDIR)$(cardsdir)/$$g.yaml" \
	    || exit 1; \
	done
uninstall-card-files:
	for f in $(CARD_FILES); do \
	    g=$${f#rules/}; g=$${g%/cards.yaml}; \
	    rm -f "$(DESTDIR)$(cardsdir)/$$g.yaml"; \
	done
.PHONY: install-card-files uninstall-card-files
