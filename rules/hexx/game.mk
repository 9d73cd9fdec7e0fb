# Mission to Planet Hexx!: its tests (its sources are listed by
# rules/games.mk).

# Rules, every icon and keyword through small card files, refusals in
# English and French, save/load, no-peek, and thousands of random games
# for 2, 3 and 4 players with invariants.  It reads rules/hexx/cards.yaml
# and rules/hexx/tests/*.yaml from the source tree (HEXX_SRCDIR).
check_PROGRAMS += tests/check_hexx
TESTS += tests/check_hexx
tests_check_hexx_SOURCES = tests/check_hexx.c $(RULESTEST) $(NOPEEK_HIDERS)
tests_check_hexx_CPPFLAGS = $(RULES_CPPFLAGS) -I$(srcdir)/rules/hexx \
	-I$(srcdir)/daemon/common -I$(srcdir)/daemon/render $(SODIUM_CFLAGS) $(CHECK_CFLAGS) \
	-I$(srcdir)/daemon/mail -I$(srcdir)/daemon/engine -I$(srcdir)/store \
	-DHEXX_SRCDIR='"$(abs_srcdir)"'
# daemon/libmail.a: mail_wrap(), the text a mail's reader gets.
tests_check_hexx_LDADD = daemon/libmail.a daemon/libpbem.a rules/librules.a \
	$(SODIUM_LIBS) $(JANSSON_LIBS) $(YAML_LIBS) $(GLIB_LIBS) $(CHECK_LIBS)
EXTRA_DIST += rules/hexx/cards.yaml
