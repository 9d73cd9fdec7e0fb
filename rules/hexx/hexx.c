/*
 * hexx.c -- Mission to Planet Hexx! (issue 18, seed 004): the module
 * table.  The game is described in docs/hexx.md and its card files in
 * docs/hexx-cards.md; the parts are listed in hexx.h.
 */
#include "hexx.h"

const struct rules_module hexx_module = {
	.api_version = RULES_API_VERSION,
	.name = "hexx",
	.ruleset_version = HEXX_RULESET,
	.title_en = "Mission to Planet Hexx!",
	.title_fr = "Mission to Planet Hexx!",
	.summary_en = "Build a galaxy of hexagonal schemas, fly your ship "
	    "across it, collect data on planets and transmit six cards to "
	    "your Mission before the others; Surprises answer other players' "
	    "actions.",
	.summary_fr = "Construisez une galaxie de schémas hexagonaux, pilotez "
	    "votre vaisseau, collectez des Données sur les planètes et "
	    "transmettez six cartes à votre Mission avant les autres ; les "
	    "Surprises répondent aux Actions des adversaires.",
	.min_seats = 2,
	.max_seats = HEXX_SEATS_MAX,
	.setup = NULL,
	.destroy = hexx_destroy,
	.save = hexx_save,
	.load = NULL,
	.to_act = hexx_to_act,
	.parse = hexx_parse,
	.check = hexx_check,
	.apply = hexx_apply,
	.view = hexx_view,
	.legal_moves = hexx_legal_moves,
	.move_forms = hexx_move_forms,
	.result = hexx_result,
	.score_cards = NULL,
	.translate = hexx_translate,
	.move_label = hexx_move_label,
	.default_move = hexx_default_move,
	.skip_check = NULL,
	.skip_apply = NULL,
	.response_window = hexx_response_window,
	.describe_last = hexx_describe_last,
	.sample_illegal_move = hexx_sample_illegal,
	.cards_parse = hexx_cards_parse,
	.cards_free = hexx_cards_free,
	.setup_cards = hexx_setup,
	.load_cards = hexx_load,
	.bot_move = hexx_bot_move,
	.oldest_ruleset_version = HEXX_RULESET_1,
	.setup_cards_version = hexx_setup_version,
};
