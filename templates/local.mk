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
# ship exactly these (nobase_ keeps the en/GAME/ folders).
templatedir = $(pkgdatadir)
nobase_dist_template_DATA = \
	templates/en/eve/accepted.txt.mustache \
	templates/en/eve/board.txt.mustache \
	templates/en/eve/cards.txt.mustache \
	templates/en/eve/game_over.txt.mustache \
	templates/en/eve/help.txt.mustache \
	templates/en/eve/moves.txt.mustache \
	templates/en/eve/rejected.txt.mustache \
	templates/en/eve/spectator.txt.mustache \
	templates/en/eve/waiting.txt.mustache \
	templates/en/eve/your_turn.txt.mustache \
	templates/en/partials/footer.txt.mustache \
	templates/en/partials/hand.txt.mustache \
	templates/en/partials/seat_name.txt.mustache \
	templates/en/partials/seat_name_start.txt.mustache \
	templates/en/partials/standings.txt.mustache \
	templates/en/stmissions/accepted.txt.mustache \
	templates/en/stmissions/game_over.txt.mustache \
	templates/en/stmissions/hand.txt.mustache \
	templates/en/stmissions/help.txt.mustache \
	templates/en/stmissions/moves.txt.mustache \
	templates/en/stmissions/rejected.txt.mustache \
	templates/en/stmissions/spectator.txt.mustache \
	templates/en/stmissions/table.txt.mustache \
	templates/en/stmissions/waiting.txt.mustache \
	templates/en/stmissions/your_turn.txt.mustache \
	templates/en/template/accepted.txt.mustache \
	templates/en/template/board.txt.mustache \
	templates/en/template/game_over.txt.mustache \
	templates/en/template/hand_line.txt.mustache \
	templates/en/template/help.txt.mustache \
	templates/en/template/rejected.txt.mustache \
	templates/en/template/spectator.txt.mustache \
	templates/en/template/waiting.txt.mustache \
	templates/en/template/your_turn.txt.mustache \
	templates/en/respond/accepted.txt.mustache \
	templates/en/respond/board.txt.mustache \
	templates/en/respond/game_over.txt.mustache \
	templates/en/respond/hand_line.txt.mustache \
	templates/en/respond/help.txt.mustache \
	templates/en/respond/rejected.txt.mustache \
	templates/en/respond/spectator.txt.mustache \
	templates/en/respond/waiting.txt.mustache \
	templates/en/respond/your_turn.txt.mustache \
	templates/en/web/card.html.mustache \
	templates/en/web/head.html.mustache \
	templates/en/web/notice.html.mustache \
	templates/en/web/public.html.mustache \
	templates/en/web/script.txt.mustache \
	templates/en/web/seat.html.mustache \
	templates/en/web/signin.html.mustache \
	templates/en/web/style.txt.mustache \
	templates/en/web/table.html.mustache \
	templates/fr/eve/accepted.txt.mustache \
	templates/fr/eve/board.txt.mustache \
	templates/fr/eve/cards.txt.mustache \
	templates/fr/eve/game_over.txt.mustache \
	templates/fr/eve/help.txt.mustache \
	templates/fr/eve/moves.txt.mustache \
	templates/fr/eve/rejected.txt.mustache \
	templates/fr/eve/spectator.txt.mustache \
	templates/fr/eve/waiting.txt.mustache \
	templates/fr/eve/your_turn.txt.mustache \
	templates/fr/partials/footer.txt.mustache \
	templates/fr/partials/hand.txt.mustache \
	templates/fr/partials/seat_name.txt.mustache \
	templates/fr/partials/seat_name_start.txt.mustache \
	templates/fr/partials/standings.txt.mustache \
	templates/fr/stmissions/accepted.txt.mustache \
	templates/fr/stmissions/game_over.txt.mustache \
	templates/fr/stmissions/hand.txt.mustache \
	templates/fr/stmissions/help.txt.mustache \
	templates/fr/stmissions/moves.txt.mustache \
	templates/fr/stmissions/rejected.txt.mustache \
	templates/fr/stmissions/spectator.txt.mustache \
	templates/fr/stmissions/table.txt.mustache \
	templates/fr/stmissions/waiting.txt.mustache \
	templates/fr/stmissions/your_turn.txt.mustache \
	templates/fr/template/accepted.txt.mustache \
	templates/fr/template/board.txt.mustache \
	templates/fr/template/game_over.txt.mustache \
	templates/fr/template/hand_line.txt.mustache \
	templates/fr/template/help.txt.mustache \
	templates/fr/template/rejected.txt.mustache \
	templates/fr/template/spectator.txt.mustache \
	templates/fr/template/waiting.txt.mustache \
	templates/fr/template/your_turn.txt.mustache \
	templates/fr/respond/accepted.txt.mustache \
	templates/fr/respond/board.txt.mustache \
	templates/fr/respond/game_over.txt.mustache \
	templates/fr/respond/hand_line.txt.mustache \
	templates/fr/respond/help.txt.mustache \
	templates/fr/respond/rejected.txt.mustache \
	templates/fr/respond/spectator.txt.mustache \
	templates/fr/respond/waiting.txt.mustache \
	templates/fr/web/card.html.mustache \
	templates/fr/web/head.html.mustache \
	templates/fr/web/notice.html.mustache \
	templates/fr/web/public.html.mustache \
	templates/fr/web/seat.html.mustache \
	templates/fr/web/signin.html.mustache \
	templates/fr/web/table.html.mustache \
	templates/fr/respond/your_turn.txt.mustache

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
tests_check_templates_SOURCES = tests/check_templates.c
tests_check_templates_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_templates_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
EXTRA_DIST += tests/golden
