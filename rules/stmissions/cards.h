/*
 * cards.h -- the 74 cards of Star Trek: Missions as data.
 *
 * Card numbers are indexes into stm_cards[]: 0..49 are the Galaxy cards
 * G01..G50, 50..73 the Mission cards M01..M24, in the order of
 * shared/games/stmissions-cards.md (alphabetical English names).  Every
 * attribute is a bit set so scoring can test membership cheaply.  The
 * bonus rules themselves live in score_cards.c, keyed by card number.
 */
#ifndef STM_CARDS_H
#define STM_CARDS_H

#define STM_NGALAXY	50
#define STM_NMISSION	24
#define STM_NCARDS	74

/* Types (a card may have two: Transporter is System and Location). */
enum stm_type {
	STM_T_CAPTAIN	= 1 << 0,
	STM_T_PERSONNEL	= 1 << 1,
	STM_T_CIVILIAN	= 1 << 2,
	STM_T_LOCATION	= 1 << 3,
	STM_T_SYSTEM	= 1 << 4,
	STM_T_EQUIPMENT	= 1 << 5,
	STM_T_ARTIFACT	= 1 << 6,
	STM_T_ENTITY	= 1 << 7,
	STM_T_WILD	= 1 << 8,
	STM_T_MISSION	= 1 << 9
};
#define STM_NTYPES 10

enum stm_specialty {
	STM_S_COMMAND		= 1 << 0,
	STM_S_COMBAT		= 1 << 1,
	STM_S_SCIENCE		= 1 << 2,
	STM_S_MEDICAL		= 1 << 3,
	STM_S_SECURITY		= 1 << 4,
	STM_S_ARCHAEOLOGIST	= 1 << 5,
	STM_S_AMBASSADOR	= 1 << 6,
	STM_S_ENGINEER		= 1 << 7,
	STM_S_COUNSELOR		= 1 << 8,
	STM_S_WEAPON		= 1 << 9,
	STM_S_COSMIC		= 1 << 10
};
#define STM_NSPECIALTIES 11

enum stm_lifeform {
	STM_L_HUMAN		= 1 << 0,
	STM_L_VULCAN		= 1 << 1,
	STM_L_KLINGON		= 1 << 2,
	STM_L_ROMULAN		= 1 << 3,
	STM_L_FERENGI		= 1 << 4,
	STM_L_BETAZOID		= 1 << 5,
	STM_L_ANDROID		= 1 << 6,
	STM_L_HOLOGRAM		= 1 << 7,
	STM_L_CRYSTALLINE	= 1 << 8,
	STM_L_EL_AURIAN		= 1 << 9
};
#define STM_NLIFEFORMS 10

/* Affiliation: exactly one, or none. */
enum stm_affiliation {
	STM_A_NONE = 0,
	STM_A_FED,
	STM_A_KE,
	STM_A_RSE,
	STM_A_FA,
	STM_A_HOS
};
#define STM_NAFFILIATIONS 6

struct stm_card {
	const char	*id;		/* "G01" .. "G50", "M01" .. "M24" */
	const char	*name_en;
	const char	*name_fr;
	unsigned	 types;		/* enum stm_type bits */
	unsigned	 specialties;	/* enum stm_specialty bits */
	unsigned	 lifeforms;	/* enum stm_lifeform bits */
	int		 affiliation;	/* enum stm_affiliation */
	const char	*bonus_en;	/* the bonus, as printed, for people */
	const char	*bonus_fr;
};

/* Card numbers by name, for rules that name a card and for tests. */
enum stm_card_number {
	STM_C_KEHLEYR = 0,	/* G01 */
	STM_C_SAREK,
	STM_C_BATLETH,
	STM_C_BRIDGE,
	STM_C_PICARD,
	STM_C_GOWRON,
	STM_C_MADDOX,
	STM_C_KURN,
	STM_C_SELA,
	STM_C_TOMALAK,		/* G10 */
	STM_C_RIKER,
	STM_C_COMPUTER,
	STM_C_DEANNA_TROI,
	STM_C_CRYSTAL_ENTITY,
	STM_C_BOK,
	STM_C_TOG,
	STM_C_BEVERLY,
	STM_C_ENGINE_ROOM,
	STM_C_WESLEY,
	STM_C_HAND_PHASER,	/* G20 */
	STM_C_HOLODECK_1,
	STM_C_HOLODECK_2,
	STM_C_MORIARTY,
	STM_C_LEAH_BRAHMS,
	STM_C_DATA,
	STM_C_GEORDI,
	STM_C_WORF,
	STM_C_LORE,
	STM_C_LURSA_BETOR,
	STM_C_LWAXANA,		/* G30 */
	STM_C_MINUET,
	STM_C_PHOTON_TORPEDOES,
	STM_C_QUARTERS,
	STM_C_SHIELDS,
	STM_C_SICKBAY,
	STM_C_SOVAK,
	STM_C_SPOCK,
	STM_C_STONE_OF_GOL,
	STM_C_TEN_FORWARD,
	STM_C_TRAVELER,		/* G40 */
	STM_C_THOUGHT_MAKER,
	STM_C_SORAN,
	STM_C_TOX_UTHAT,
	STM_C_TRACTOR_BEAM,
	STM_C_TRANSPORTER,
	STM_C_TRICORDER,
	STM_C_TURBOLIFT,
	STM_C_UNIDENTIFIED_SHIP,
	STM_C_VASH,
	STM_C_NAKAMURA,		/* G50 */
	STM_C_AWAY_TEAM,	/* M01 */
	STM_C_BORG_CUBE,
	STM_C_COMPUTER_VIRUS,
	STM_C_CONFLICTING_ORDERS,
	STM_C_DIPLOMATIC_CONFERENCE,
	STM_C_DISTRESS_CALL,
	STM_C_MACHINES_RIGHTS,
	STM_C_ENEMIES_TO_FRIENDS,
	STM_C_HAYWIRE,
	STM_C_ETHICAL_DILEMMA,	/* M10 */
	STM_C_UNDER_SIEGE,
	STM_C_IMMINENT_DESTRUCTION,
	STM_C_INTRUDER_ALERT,
	STM_C_CIVIL_WAR,
	STM_C_LANGUAGE_BARRIER,
	STM_C_PERSONNEL_ISSUES,
	STM_C_MYSTERIOUS_PLAGUE,
	STM_C_MEDDLESOME_Q,
	STM_C_BLOSSOMING_ROMANCE,
	STM_C_SCIENTIFIC_PUZZLE,	/* M20 */
	STM_C_SPACE_CONFRONTATION,
	STM_C_LURE_OF_PROFIT,
	STM_C_TIME_DISTORTION,
	STM_C_TRAPPED_HOLODECK	/* M24 */
};

extern const struct stm_card stm_cards[STM_NCARDS];

/* Convenience: is card number c a Mission card? */
#define STM_IS_MISSION(c) ((c) >= STM_NGALAXY)

/* Names of attribute values for views and breakdowns, by bit position
 * (types, specialties, lifeforms) or enum value (affiliations). */
const char *stm_type_name(int bit, int lang);
const char *stm_specialty_name(int bit, int lang);
const char *stm_lifeform_name(int bit, int lang);
const char *stm_affiliation_name(int aff, int lang);

#endif /* STM_CARDS_H */
