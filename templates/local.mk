# templates/: the Mustache renderer, the template set and the view
# decorator (core library), the templates themselves (installed under
# $(pkgdatadir)/templates, so an administrator can change wording without
# recompiling), and their tests.  docs/TEMPLATES.md describes the layout.
daemon_libpbem_a_SOURCES += \
	daemon/render/mustache.h daemon/render/mustache.c \
	daemon/render/templates.h daemon/render/templates.c \
	daemon/render/present.h daemon/render/present.c \
	daemon/render/drawing.h daemon/render/drawing.c \
	daemon/common/xalloc.h daemon/common/xalloc.c

# Every template file, listed so that `make install` and `make distcheck`
# ship exactly these (nobase_ keeps the en/GAME/ folders; templatedir and
# the list start in Makefile.am).  A game's own folders,
# templates/LANG/GAME/, are listed by rules/games.mk (rules/gen-games.sh);
# here the partials and the web page.
nobase_dist_template_DATA += \
	templates/en/partials/example_line.txt.mustache \
	templates/en/partials/footer.txt.mustache \
	templates/en/partials/hand.txt.mustache \
	templates/en/partials/seat_name.txt.mustache \
	templates/en/partials/seat_name_start.txt.mustache \
	templates/en/partials/standings.txt.mustache \
	templates/en/web/card.html.mustache \
	templates/en/web/head.html.mustache \
	templates/en/web/notice.html.mustache \
	templates/en/web/public.html.mustache \
	templates/en/web/script.txt.mustache \
	templates/en/web/seat.html.mustache \
	templates/en/web/signin.html.mustache \
	templates/en/web/style.txt.mustache \
	templates/en/web/table.html.mustache \
	templates/fr/partials/example_line.txt.mustache \
	templates/fr/partials/footer.txt.mustache \
	templates/fr/partials/hand.txt.mustache \
	templates/fr/partials/seat_name.txt.mustache \
	templates/fr/partials/seat_name_start.txt.mustache \
	templates/fr/partials/standings.txt.mustache \
	templates/fr/web/card.html.mustache \
	templates/fr/web/head.html.mustache \
	templates/fr/web/notice.html.mustache \
	templates/fr/web/public.html.mustache \
	templates/fr/web/seat.html.mustache \
	templates/fr/web/signin.html.mustache \
	templates/fr/web/table.html.mustache

# The renderer against the official Mustache specification, and unit tests.
check_PROGRAMS += tests/check_mustache
TESTS += tests/check_mustache
tests_check_mustache_SOURCES = tests/check_mustache.c
tests_check_mustache_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_mustache_LDADD = $(CORE_LIBS) $(CHECK_LIBS)

# Every template loads; golden files; no hidden card in any rendering.
# PBEM_GOLDEN_UPDATE=1 ./tests/check_templates rewrites tests/golden/.
check_PROGRAMS += tests/check_templates
TESTS += tests/check_templates
tests_check_templates_SOURCES = tests/check_templates.c $(NOPEEK_HIDERS) \
	$(TESTCARDS)
tests_check_templates_CPPFLAGS = $(CORE_CPPFLAGS) $(TESTCARDS_CPPFLAGS) \
	$(CHECK_CFLAGS)
tests_check_templates_LDADD = $(CORE_LIBS) $(CHECK_LIBS)

# Every game's text views, in both languages, at every step of seeded
# random games: no line wider than 80 columns, in the text and in the
# mail made of it (daemon/libmail.a: mail_wrap()).
check_PROGRAMS += tests/check_text_width
TESTS += tests/check_text_width
tests_check_text_width_SOURCES = tests/check_text_width.c $(TEXTWIDTH) $(TESTCARDS)
tests_check_text_width_CPPFLAGS = $(RULES_CPPFLAGS) \
	-I$(srcdir)/daemon/common -I$(srcdir)/daemon/render \
	-I$(srcdir)/daemon/mail -I$(srcdir)/daemon/engine -I$(srcdir)/store \
	$(TESTCARDS_CPPFLAGS) $(SODIUM_CFLAGS) $(CHECK_CFLAGS)
tests_check_text_width_LDADD = daemon/libmail.a daemon/libpbem.a \
	rules/librules.a $(SODIUM_LIBS) $(JANSSON_LIBS) $(YAML_LIBS) \
	$(GLIB_LIBS) $(CHECK_LIBS)
EXTRA_DIST += tests/golden
