# Star Trek: Captain's Chair: its tests (its sources are listed by
# rules/games.mk).  The card set is data: rules/captains/cards.yaml.

# Keyword, refusal, save/load, no-peek and random-play tests of the
# module, with the project's card set and small card files of its own.
check_PROGRAMS += tests/check_captains
TESTS += tests/check_captains
tests_check_captains_SOURCES = tests/check_captains.c $(RULESTEST) $(NOPEEK_HIDERS)
tests_check_captains_CPPFLAGS = $(RULES_CPPFLAGS) \
	-I$(srcdir)/rules/captains -I$(srcdir)/daemon/common \
	-DCAPTAINS_CARDS='"$(srcdir)/rules/captains/cards.yaml"' \
	$(SODIUM_CFLAGS) $(CHECK_CFLAGS)
tests_check_captains_LDADD = daemon/libpbem.a rules/librules.a \
	$(SODIUM_LIBS) $(YAML_LIBS) $(JANSSON_LIBS) $(CHECK_LIBS)

# The solo Bot and cadet training (rules/captains/solo*.c, cadet.c):
# each rule through a small card file, then whole games of every level.
check_PROGRAMS += tests/check_captains_bot
TESTS += tests/check_captains_bot
tests_check_captains_bot_SOURCES = tests/check_captains_bot.c $(NOPEEK_HIDERS)
tests_check_captains_bot_CPPFLAGS = $(tests_check_captains_CPPFLAGS)
tests_check_captains_bot_LDADD = $(tests_check_captains_LDADD)

# Every text template of the game, in both languages, at every step of
# whole games of each mode: no line wider than 80 columns, in the text
# and in the mail made of it (daemon/libmail.a: mail_wrap()).
check_PROGRAMS += tests/check_captains_text
TESTS += tests/check_captains_text
tests_check_captains_text_SOURCES = tests/check_captains_text.c $(TEXTWIDTH) $(TESTCARDS)
tests_check_captains_text_CPPFLAGS = $(RULES_CPPFLAGS) \
	-I$(srcdir)/daemon/common -I$(srcdir)/daemon/render \
	-I$(srcdir)/daemon/mail -I$(srcdir)/daemon/engine -I$(srcdir)/store \
	$(TESTCARDS_CPPFLAGS) $(SODIUM_CFLAGS) $(CHECK_CFLAGS)
tests_check_captains_text_LDADD = daemon/libmail.a daemon/libpbem.a \
	rules/librules.a $(SODIUM_LIBS) $(JANSSON_LIBS) $(YAML_LIBS) \
	$(GLIB_LIBS) $(CHECK_LIBS)
