/*
 * present.h -- the view decorator: a copy of a seat's view with the
 * presentation fields a Mustache template cannot compute.
 *
 * Mustache has no arithmetic, no string functions and no way to pick a
 * field by language.  present_view() adds those fields, knowing nothing
 * of any game beyond the rule-module contract (rules.h): it works on key
 * names and on the "to_act", "seats", "hands" and "result" fields every
 * module documents.  It adds nothing the view did not already show but
 * the seats' player names, which are public, so a decorated view is
 * exactly as secret as the view it came from.
 *
 * Added to every object of the view, at any depth:
 *   K            for each K_en / K_fr pair, the value in the player's
 *                language ("name" from "name_en"); a French K_fr also
 *                replaces a plain K ("breakdown" from "breakdown_fr")
 *   K_text       for each localised array of strings, its items joined
 *                with ", " ("types_text")
 *   K_lines, K_text_lines   the same strings broken into lines of at
 *                most 70 characters, for a 78-column text with an indent
 *   K_names, K_names_lines  for each array of objects that all have a
 *                string "name", the names joined with ", ", and wrapped
 *                ("discard_names_lines")
 *   K_VALUE      true, for each field K whose value (or an item of whose
 *                array value) is a lowercase keyword [a-z0-9_]{1,32}:
 *                "action_take", "phase_q_draw", "end_reasons_discard_galaxy"
 *                -- Mustache cannot compare strings
 *   player, K_player   for each integer field "seat" or "K_seat"
 *                ("q_seat" gives "q_player"), when names are given, that
 *                seat's player's name (null when it has none, so an
 *                inner object never shows an outer one's name):
 *                seats[].player, last.player, the viewer's own at the top
 * Added to each object in an array of objects:
 *   K_padded     each string field padded with spaces to the widest value
 *                of K in that array (in characters), for aligned tables
 * Added at the top:
 *   lang         "en" or "fr"
 *   title, summary        the game's, in the player's language
 *   spectator    true for the public view
 *   hosted       true when info->hosted: the viewer plays by answering
 *                mail in plain words (examples show "text", not "sign")
 *   plain_examples, sign_examples   true when there are examples, for a
 *                hosted viewer or not: which heading they get
 *   your_turn    the viewer is in to_act
 *   waiting_for  the seats in to_act as text, in the player's language:
 *                "alice (seat 0), bruno (seat 2)" when the seats' names
 *                are given, "seat 0, 2" when not
 *   players      [{"seat", "player"}]: each named seat, in seat order
 *                (only when names are given)
 *   seats[].you, seats[].to_act   booleans (when "seats" is an array of
 *                objects with "seat")
 *   forms        [{"text", "sign", "command", "text_lines", ...}]: the move
 *                forms open to the viewer, each with a ready-to-fill
 *                `pbem sign` line, that line's command without the move
 *                ("pbem sign -g 4 -n 7 -s 0") and the text wrapped
 *                (text_lines, and text_first_line and text_more_lines
 *                for a list item with a hanging indent)
 *   examples     [{"text", "sign", "command", "text_lines", ...}]: up to
 *                three legal moves, likewise, each short enough for
 *                one line of an 80-column text (a longer pick gives way
 *                to a nearby move that fits, or is left out),
 *                written in the player's language by the module's
 *                translate() when it has one (api_version >= 2) and
 *                state is given; otherwise as legal_moves() wrote them
 *   move, reason the move text and refusal message, when given, and
 *   move_lines, reason_lines   the same wrapped
 *   standings    once "result" exists: [{"seat", "score", "winner",
 *                "you", "hand", "breakdown", "player"}] in seat order
 *                ("player" when the seat's name is known); each string
 *                field K of a breakdown also as K_lines
 *   scored       once "result" exists: whether the game was scored
 *                (false when it ended outside its rules: a resignation,
 *                a call-off), for a template's score sections
 *   winners_text the winning seats as text, like waiting_for
 *
 * The seats' names are public (the game's summary lists them), so adding
 * them keeps a view exactly as secret.  A template prints a seat as
 * "{{#player}}{{player}} (seat {{seat}}){{/player}}{{^player}}seat
 * {{seat}}{{/player}}" (the partials seat_name and seat_name_start), so
 * a view without names reads as before.
 */
#ifndef PBEM_PRESENT_H
#define PBEM_PRESENT_H

#include <jansson.h>

#include "rules.h"

struct present_info {
	enum rules_lang			 lang;
	const struct rules_module	*module;	/* title; may be NULL */
	int				 viewer;	/* a seat, or
							 * RULES_VIEW_PUBLIC */
	const json_t			*forms;		/* move_forms(), or
							 * NULL */
	const json_t			*legal;		/* legal_moves(), or
							 * NULL */
	const void			*state;		/* the state legal
							 * came from, for
							 * translate(); or
							 * NULL */
	const char			*move;		/* or NULL */
	const char			*reason;	/* or NULL */
	int				 move_is_command; /* move is a
							 * signed command
							 * (resign, ...) */
	/* The players' names by seat (seat_names[s], NULL for an open
	 * seat or a name not known), for nseats seats; or NULL for no
	 * names at all.  Only read during present_view(). */
	const char *const		*seat_names;
	int				 nseats;
	/* The reader's time zone for deadlines ("" or NULL: UTC). */
	const char			*zone;
	/* The viewer answers mail in plain words (a key the server holds):
	 * "hosted" is true at the top, and templates show examples as the
	 * moves to write rather than as `pbem sign` lines. */
	int				 hosted;
};

/* A new, decorated copy of view (which is not changed). */
json_t	*present_view(const json_t *view, const struct present_info *info);

/* The language code for lang: "en" or "fr". */
const char *present_lang_code(enum rules_lang lang);

#endif /* PBEM_PRESENT_H */
