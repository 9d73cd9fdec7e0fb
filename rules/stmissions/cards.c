/*
 * cards.c -- the 74 cards of Star Trek: Missions, as data.
 *
 * Transcribed from shared/games/stmissions-cards.md, the only source of
 * truth for cards: names in English and French exactly as listed there,
 * attributes as bit sets (cards.h), and each card's bonus as printed, for
 * people.  The French bonus texts are our rendering; the rulebook's own
 * French terms are used (MASQUÉE for BLANKED, AVEC, POUR CHAQUE).  What
 * a bonus means for scoring is decided in score.c, not here.
 *
 * Also the names of attribute values, in both languages, for views and
 * score breakdowns.
 */
#include <stddef.h>

#include "cards.h"

/* Shorthands for the catalogue's columns; plain constants. */
#define CAP	STM_T_CAPTAIN
#define PERS	STM_T_PERSONNEL
#define CIV	STM_T_CIVILIAN
#define LOC	STM_T_LOCATION
#define SYS	STM_T_SYSTEM
#define EQUIP	STM_T_EQUIPMENT
#define ART	STM_T_ARTIFACT
#define ENT	STM_T_ENTITY
#define WILD	STM_T_WILD
#define MISSION	STM_T_MISSION

const struct stm_card stm_cards[STM_NCARDS] = {
	/* Galaxy cards */
	{ "G01", "Ambassador K'Ehleyr", "Ambassadeur K'Ehleyr",
	  PERS, STM_S_AMBASSADOR | STM_S_SECURITY,
	  STM_L_KLINGON | STM_L_HUMAN, STM_A_FED,
	  "10 if Lieutenant Worf is in hand",
	  "10 si le Lieutenant Worf est dans la main" },
	{ "G02", "Ambassador Sarek", "Ambassadeur Sarek",
	  CIV, STM_S_AMBASSADOR, STM_L_VULCAN, STM_A_FED,
	  "5 per Captain that is non-Federation",
	  "5 par Capitaine non-Fédération" },
	{ "G03", "Bat'leth", "Bat'leth",
	  EQUIP, STM_S_WEAPON, 0, STM_A_NONE,
	  "6 if one card is Klingon (lifeform) or KE; "
	  "16 instead if two or more such cards",
	  "6 si une carte est Klingon (forme de vie) ou Empire Klingon ; "
	  "16 à la place si deux cartes ou plus le sont" },
	{ "G04", "Bridge", "Passerelle",
	  LOC, STM_S_COMBAT, 0, STM_A_FED,
	  "3 per FED card that is Personnel or System",
	  "3 par carte Fédération de type Personnel ou Système" },
	{ "G05", "Captain Jean-Luc Picard", "Capitaine Jean-Luc Picard",
	  CAP, STM_S_COMMAND | STM_S_ARCHAEOLOGIST, STM_L_HUMAN, STM_A_FED,
	  "5 if Bridge is in hand; 3 per other Location",
	  "5 si la Passerelle est dans la main ; 3 par autre Lieu" },
	{ "G06", "Chancellor Gowron", "Chancelier Gowron",
	  CAP, STM_S_COMMAND, STM_L_KLINGON, STM_A_KE,
	  "5 per other card that is Klingon or KE",
	  "5 par autre carte Klingon ou Empire Klingon" },
	{ "G07", "Commander Bruce Maddox", "Commandant Bruce Maddox",
	  PERS, STM_S_ENGINEER, STM_L_HUMAN, STM_A_FED,
	  "5 per Android and per Hologram",
	  "5 par Androïde et par Hologramme" },
	{ "G08", "Commander Kurn", "Commander Kurn",
	  CAP, STM_S_COMMAND, STM_L_KLINGON, STM_A_KE,
	  "10 if Lieutenant Worf is in hand",
	  "10 si le Lieutenant Worf est dans la main" },
	{ "G09", "Commander Sela", "Commander Sela",
	  CAP, STM_S_COMMAND, STM_L_ROMULAN, STM_A_RSE,
	  "4 per card that is HOS or KE",
	  "4 par carte Hostile ou Empire Klingon" },
	{ "G10", "Commander Tomalak", "Commander Tomalak",
	  CAP, STM_S_COMMAND, STM_L_ROMULAN, STM_A_RSE,
	  "13 if three FED cards can each show a different Specialty",
	  "13 si trois cartes Fédération peuvent chacune montrer une "
	  "Spécialité différente" },
	{ "G11", "Commander William Riker", "Commander William Riker",
	  PERS, STM_S_COMMAND, STM_L_HUMAN, STM_A_FED,
	  "7 each for Transporter, Counselor Deanna Troi, Away Team",
	  "7 pour chacune de ces cartes : Téléporteur, Conseillère Deanna "
	  "Troi, Équipe d'exploration" },
	{ "G12", "Computer", "Ordinateur",
	  SYS, STM_S_SCIENCE, 0, STM_A_FED,
	  "6 per Cosmic",
	  "6 par Cosmique" },
	{ "G13", "Counselor Deanna Troi", "Conseillère Deanna Troi",
	  PERS, STM_S_COUNSELOR, STM_L_BETAZOID | STM_L_HUMAN, STM_A_FED,
	  "5 per different Lifeform among the other cards",
	  "5 par Forme de vie différente parmi les autres cartes" },
	{ "G14", "Crystal Entity", "Entité de cristal",
	  ENT, STM_S_COSMIC, STM_L_CRYSTALLINE, STM_A_HOS,
	  "6 per Combat",
	  "6 par Combat" },
	{ "G15", "DaiMon Bok", "DaiMon Bok",
	  CAP, STM_S_COMMAND, STM_L_FERENGI, STM_A_FA,
	  "8 each for Captain Jean-Luc Picard and Thought Maker",
	  "8 pour chacune de ces cartes : Capitaine Jean-Luc Picard, "
	  "Générateur de pensées" },
	{ "G16", "DaiMon Tog", "DaiMon Tog",
	  CAP, STM_S_COMMAND, STM_L_FERENGI, STM_A_FA,
	  "8 per Betazoid",
	  "8 par Betazoïde" },
	{ "G17", "Doctor Beverly Crusher", "Docteur Beverly Crusher",
	  PERS, STM_S_MEDICAL, STM_L_HUMAN, STM_A_FED,
	  "8 each for Sickbay and Ensign Wesley Crusher",
	  "8 pour chacune de ces cartes : Infirmerie, Enseigne Wesley "
	  "Crusher" },
	{ "G18", "Engine Room", "Salle des machines",
	  LOC, STM_S_ENGINEER, 0, STM_A_FED,
	  "6 per other Engineer",
	  "6 par autre Ingénieur" },
	{ "G19", "Ensign Wesley Crusher", "Enseigne Wesley Crusher",
	  PERS, STM_S_ENGINEER, STM_L_HUMAN, STM_A_FED,
	  "equals the final score of the best other card in hand that is a "
	  "System or an Engineer",
	  "égale le score final de la meilleure autre carte de la main qui "
	  "est un Système ou un Ingénieur" },
	{ "G20", "Hand Phaser", "Phaseur",
	  EQUIP, STM_S_WEAPON, 0, STM_A_NONE,
	  "9 if a FED card with Security or Command is in hand",
	  "9 si une carte Fédération avec Sécurité ou Commandement est dans "
	  "la main" },
	{ "G21", "Holodeck 1", "Holodeck 1",
	  LOC, 0, 0, STM_A_FED,
	  "8 per Hologram; 2 per FED Personnel or Captain that is not a "
	  "Hologram",
	  "8 par Hologramme ; 2 par Personnel ou Capitaine Fédération qui "
	  "n'est pas un Hologramme" },
	{ "G22", "Holodeck 2", "Holodeck 2",
	  LOC, 0, 0, STM_A_FED,
	  "8 per Hologram; 2 per FED Personnel or Captain that is not a "
	  "Hologram",
	  "8 par Hologramme ; 2 par Personnel ou Capitaine Fédération qui "
	  "n'est pas un Hologramme" },
	{ "G23", "James Moriarty", "James Moriarty",
	  CIV, 0, STM_L_HOLOGRAM, STM_A_HOS,
	  "BLANKED unless Holodeck 1, Holodeck 2 or Computer; 8 per Science "
	  "and per Engineer",
	  "MASQUÉE sauf avec Holodeck 1, Holodeck 2 ou Ordinateur ; 8 par "
	  "Science et par Ingénieur" },
	{ "G24", "Leah Brahms", "Leah Brahms",
	  PERS, STM_S_ENGINEER, STM_L_HUMAN, STM_A_FED,
	  "9 each for Lieutenant Geordi La Forge and Engine Room; with "
	  "Holodeck 1, Holodeck 2 or Computer: +5 and her lifeform is "
	  "Hologram instead of Human",
	  "9 pour chacune de ces cartes : Lieutenant Geordi La Forge, Salle "
	  "des machines ; avec Holodeck 1, Holodeck 2 ou Ordinateur : +5 et "
	  "sa forme de vie est Hologramme au lieu d'Humain" },
	{ "G25", "Lieutenant Commander Data", "Lieutenant-Commander Data",
	  PERS, STM_S_COMMAND | STM_S_ENGINEER | STM_S_SECURITY |
	  STM_S_SCIENCE, STM_L_ANDROID, STM_A_FED,
	  "no bonus",
	  "aucun bonus" },
	{ "G26", "Lieutenant Geordi La Forge", "Lieutenant Geordi La Forge",
	  PERS, STM_S_ENGINEER, STM_L_HUMAN, STM_A_FED,
	  "4 per System and 4 for Engine Room",
	  "4 par Système et 4 pour la Salle des machines" },
	{ "G27", "Lieutenant Worf", "Lieutenant Worf",
	  PERS, STM_S_SECURITY | STM_S_COMBAT, STM_L_KLINGON, STM_A_FED,
	  "4 per Weapon and per other Combat",
	  "4 par Arme et par autre Combat" },
	{ "G28", "Lore", "Lore",
	  CIV, 0, STM_L_ANDROID, STM_A_HOS,
	  "8 each for Lieutenant Commander Data, Crystal Entity, Borg Cube",
	  "8 pour chacune de ces cartes : Lieutenant-Commander Data, Entité "
	  "de cristal, Cube Borg" },
	{ "G29", "Lursa and B'Etor", "Lursa et B'Etor",
	  CAP, STM_S_COMMAND, STM_L_KLINGON, STM_A_KE,
	  "7 per card that is Romulan (lifeform) or RSE",
	  "7 par carte Romulien (forme de vie) ou Empire Stellaire "
	  "Romulien" },
	{ "G30", "Lwaxana Troi", "Lwaxana Troi",
	  CIV, STM_S_AMBASSADOR, STM_L_BETAZOID, STM_A_FED,
	  "9 each for Counselor Deanna Troi and Captain Jean-Luc Picard",
	  "9 pour chacune de ces cartes : Conseillère Deanna Troi, Capitaine "
	  "Jean-Luc Picard" },
	{ "G31", "Minuet", "Minuet",
	  CIV, STM_S_COUNSELOR, STM_L_HOLOGRAM, STM_A_NONE,
	  "BLANKED unless Holodeck 1, Holodeck 2 or Computer; 20 if Commander "
	  "William Riker is in hand, otherwise 10 if any Command card",
	  "MASQUÉE sauf avec Holodeck 1, Holodeck 2 ou Ordinateur ; 20 si le "
	  "Commander William Riker est dans la main, sinon 10 avec une carte "
	  "Commandement" },
	{ "G32", "Photon Torpedoes", "Torpilles à photons",
	  SYS, STM_S_COMBAT, 0, STM_A_FED,
	  "6 if a non-Federation Captain is in hand; 2 per other Combat",
	  "6 si un Capitaine non-Fédération est dans la main ; 2 par autre "
	  "Combat" },
	{ "G33", "Quarters", "Quartiers",
	  LOC, 0, 0, STM_A_FED,
	  "12 if two or more FED cards that are Personnel, Civilian or "
	  "Captain",
	  "12 avec au moins deux cartes Fédération de type Personnel, Civil "
	  "ou Capitaine" },
	{ "G34", "Shields", "Boucliers",
	  SYS, STM_S_COMBAT, 0, STM_A_FED,
	  "6 if a non-Federation Captain is in hand; 2 per other Combat",
	  "6 si un Capitaine non-Fédération est dans la main ; 2 par autre "
	  "Combat" },
	{ "G35", "Sickbay", "Infirmerie",
	  LOC, STM_S_MEDICAL, 0, STM_A_FED,
	  "20 if three distinct other cards: one Personnel, one "
	  "non-Federation, one Combat or Weapon",
	  "20 avec trois autres cartes distinctes : un Personnel, une carte "
	  "non-Fédération, une carte Combat ou Arme" },
	{ "G36", "Sovak", "Sovak",
	  CIV, STM_S_ARCHAEOLOGIST, STM_L_FERENGI, STM_A_FA,
	  "8 per Artifact",
	  "8 par Artefact" },
	{ "G37", "Spock", "Spock",
	  CIV, STM_S_AMBASSADOR | STM_S_SCIENCE, STM_L_VULCAN, STM_A_FED,
	  "6 per Romulan (lifeform), 6 each for Ambassador Sarek and "
	  "Lieutenant Commander Data",
	  "6 par Romulien (forme de vie), 6 pour chacune de ces cartes : "
	  "Ambassadeur Sarek, Lieutenant-Commander Data" },
	{ "G38", "Stone of Gol", "Pierre de Gol",
	  ART, STM_S_WEAPON, 0, STM_A_NONE,
	  "11 if a Vulcan or Betazoid is in hand",
	  "11 si un Vulcain ou un Betazoïde est dans la main" },
	{ "G39", "Ten-Forward", "Ten-Forward",
	  LOC, STM_S_COUNSELOR, 0, STM_A_FED,
	  "4 per FED Personnel or Civilian",
	  "4 par Personnel ou Civil Fédération" },
	{ "G40", "The Traveler", "Le Voyageur",
	  CIV, STM_S_COSMIC | STM_S_ENGINEER, 0, STM_A_NONE,
	  "10 each for Ensign Wesley Crusher and Engine Room",
	  "10 pour chacune de ces cartes : Enseigne Wesley Crusher, Salle "
	  "des machines" },
	{ "G41", "Thought Maker", "Générateur de pensées",
	  ART, 0, 0, STM_A_FA,
	  "may change the affiliation of one other card that has a lifeform "
	  "to any affiliation; +5 if it does",
	  "peut changer l'affiliation d'une autre carte qui a une forme de "
	  "vie en n'importe quelle affiliation ; +5 s'il le fait" },
	{ "G42", "Tolian Soran", "Tolian Soran",
	  CIV, STM_S_COSMIC, STM_L_EL_AURIAN, STM_A_HOS,
	  "12 each for Time Distortion and Borg Cube",
	  "12 pour chacune de ces cartes : Distorsion temporelle, Cube "
	  "Borg" },
	{ "G43", "Tox Uthat", "Tox Uthat",
	  ART, STM_S_COSMIC, 0, STM_A_NONE,
	  "6 per Archaeologist and per other Cosmic",
	  "6 par Archéologue et par autre Cosmique" },
	{ "G44", "Tractor Beam", "Rayon tracteur",
	  SYS, STM_S_COMBAT, 0, STM_A_FED,
	  "6 if a non-Federation Captain is in hand; 2 per other Combat",
	  "6 si un Capitaine non-Fédération est dans la main ; 2 par autre "
	  "Combat" },
	{ "G45", "Transporter", "Téléporteur",
	  SYS | LOC, 0, 0, STM_A_FED,
	  "18 if three Personnel can each show a different Specialty",
	  "18 si trois Personnels peuvent chacun montrer une Spécialité "
	  "différente" },
	{ "G46", "Tricorder", "Tricordeur",
	  EQUIP, STM_S_SCIENCE | STM_S_MEDICAL, 0, STM_A_NONE,
	  "9 per other Medical or Science card",
	  "9 par autre carte Médical ou Science" },
	{ "G47", "Turbolift", "Turbolift",
	  LOC, 0, 0, STM_A_FED,
	  "16 if two or more other Locations",
	  "16 avec au moins deux autres Lieux" },
	{ "G48", "Unidentified Ship", "Vaisseau non identifié",
	  WILD, 0, 0, STM_A_NONE,
	  "holder chooses its type (Personnel, Civilian or Captain), one "
	  "Lifeform, one Affiliation, one Specialty; no bonus of its own",
	  "son détenteur choisit son type (Personnel, Civil ou Capitaine), "
	  "une Forme de vie, une Affiliation, une Spécialité ; aucun bonus "
	  "propre" },
	{ "G49", "Vash", "Vash",
	  CIV, STM_S_ARCHAEOLOGIST, STM_L_HUMAN, STM_A_NONE,
	  "7 per other Archaeologist, per Artifact, and for Meddlesome Q",
	  "7 par autre Archéologue, par Artefact, et pour Q l'importun" },
	{ "G50", "Vice Admiral Nakamura", "Vice-amiral Nakamura",
	  CAP, STM_S_COMMAND, STM_L_HUMAN, STM_A_FED,
	  "7 per other FED Command card",
	  "7 par autre carte Fédération Commandement" },

	/* Mission cards */
	{ "M01", "Away Team", "Équipe d'exploration",
	  MISSION, 0, 0, STM_A_NONE,
	  "5 per Personnel showing a different Specialty; 5 each for "
	  "Transporter, Tricorder, Hand Phaser",
	  "5 par Personnel montrant une Spécialité différente ; 5 pour "
	  "chacune de ces cartes : Téléporteur, Tricordeur, Phaseur" },
	{ "M02", "Borg Cube", "Cube Borg",
	  MISSION, 0, 0, STM_A_NONE,
	  "5 per Captain and per Combat or Security card. Holder may BLANK "
	  "up to two Galaxy cards in hand; each card so blanked scores the "
	  "same as Borg Cube instead",
	  "5 par Capitaine et par carte Combat ou Sécurité. Son détenteur "
	  "peut MASQUER jusqu'à deux cartes Galaxie de sa main ; chaque "
	  "carte ainsi masquée marque à la place autant que le Cube Borg" },
	{ "M03", "Computer Virus", "Virus informatique",
	  MISSION, 0, 0, STM_A_NONE,
	  "7 per System and per Hologram",
	  "7 par Système et par Hologramme" },
	{ "M04", "Conflicting Orders", "Ordres contradictoires",
	  MISSION, 0, 0, STM_A_NONE,
	  "14 if two or more Command cards share an affiliation",
	  "14 si au moins deux cartes Commandement partagent une "
	  "affiliation" },
	{ "M05", "Diplomatic Conference", "Conférence diplomatique",
	  MISSION, 0, 0, STM_A_NONE,
	  "5 per different affiliation among Captains; 5 per Ambassador",
	  "5 par affiliation différente parmi les Capitaines ; 5 par "
	  "Ambassadeur" },
	{ "M06", "Distress Call", "Appel de détresse",
	  MISSION, 0, 0, STM_A_NONE,
	  "9 each for Bridge, Tractor Beam, Transporter; 9 per Medical card",
	  "9 pour chacune de ces cartes : Passerelle, Rayon tracteur, "
	  "Téléporteur ; 9 par carte Médical" },
	{ "M07", "Do Machines Have Rights?",
	  "Les machines ont-elles des droits ?",
	  MISSION, 0, 0, STM_A_NONE,
	  "9 per Hologram or Android; 9 each for Vice Admiral Nakamura and "
	  "Commander Bruce Maddox",
	  "9 par Hologramme ou Androïde ; 9 pour chacune de ces cartes : "
	  "Vice-amiral Nakamura, Commandant Bruce Maddox" },
	{ "M08", "Enemies to Friends", "D'ennemis à amis",
	  MISSION, 0, 0, STM_A_NONE,
	  "12 if two distinct cards: one RSE, FA or HOS; one Betazoid or "
	  "Ambassador",
	  "12 avec deux cartes distinctes : l'une Empire Stellaire Romulien, "
	  "Alliance Ferengi ou Hostile ; l'autre Betazoïde ou Ambassadeur" },
	{ "M09", "Enterprise Goes Haywire", "L'Enterprise se dérègle",
	  MISSION, 0, 0, STM_A_NONE,
	  "5 per Engineer, per System, per Location",
	  "5 par Ingénieur, par Système, par Lieu" },
	{ "M10", "Ethical Dilemma", "Dilemme éthique",
	  MISSION, 0, 0, STM_A_NONE,
	  "15 if one FED card with Command and two further cards with a "
	  "lifeform that show different Specialties",
	  "15 avec une carte Fédération Commandement et deux autres cartes "
	  "ayant une forme de vie, qui montrent des Spécialités "
	  "différentes" },
	{ "M11", "Federation Under Siege", "La Fédération assiégée",
	  MISSION, 0, 0, STM_A_NONE,
	  "6 per non-Federation card",
	  "6 par carte non-Fédération" },
	{ "M12", "Imminent Destruction", "Destruction imminente",
	  MISSION, 0, 0, STM_A_NONE,
	  "8 per Engineer",
	  "8 par Ingénieur" },
	{ "M13", "Intruder Alert", "Alerte intrus",
	  MISSION, 0, 0, STM_A_NONE,
	  "BLANKED unless a non-Federation card is in hand; 12 per Security "
	  "or Weapon card",
	  "MASQUÉE sauf si une carte non-Fédération est dans la main ; 12 "
	  "par carte Sécurité ou Arme" },
	{ "M14", "Klingon Civil War", "Guerre civile klingonne",
	  MISSION, 0, 0, STM_A_NONE,
	  "8 per card that is Klingon or Romulan (lifeform) or KE or RSE",
	  "8 par carte Klingon ou Romulien (forme de vie), Empire Klingon ou "
	  "Empire Stellaire Romulien" },
	{ "M15", "Language Barrier", "Barrière de la langue",
	  MISSION, 0, 0, STM_A_NONE,
	  "8 per Betazoid or Vulcan; 8 each for Computer and Tricorder",
	  "8 par Betazoïde ou Vulcain ; 8 pour chacune de ces cartes : "
	  "Ordinateur, Tricordeur" },
	{ "M16", "Personnel Issues", "Problèmes de personnel",
	  MISSION, 0, 0, STM_A_NONE,
	  "14 if two distinct cards: one Personnel; one Counselor or FED "
	  "Captain",
	  "14 avec deux cartes distinctes : l'une Personnel ; l'autre "
	  "Conseiller ou Capitaine Fédération" },
	{ "M17", "Mysterious Plague", "Peste mystérieuse",
	  MISSION, 0, 0, STM_A_NONE,
	  "5 per Medical card. Holder chooses a lifeform other than Hologram "
	  "or Android: 5 per card with it if Human, 8 per card with it "
	  "otherwise",
	  "5 par carte Médical. Son détenteur choisit une forme de vie autre "
	  "qu'Hologramme ou Androïde : 5 par carte de cette forme de vie si "
	  "c'est Humain, 8 sinon" },
	{ "M18", "Meddlesome Q", "Q l'importun",
	  MISSION, 0, 0, STM_A_NONE,
	  "no points. At game end its holder draws one card from each of the "
	  "discard area (choice), the Galaxy deck and the Mission deck, then "
	  "discards one card other than Meddlesome Q, and must end holding "
	  "Meddlesome Q plus exactly one other Mission",
	  "aucun point. En fin de partie, son détenteur prend une carte de "
	  "la défausse (au choix), une de la pioche Galaxie et une de la "
	  "pioche Mission, puis défausse une carte autre que Q l'importun ; "
	  "il doit finir avec Q l'importun et exactement une autre "
	  "Mission" },
	{ "M19", "Blossoming Romance", "Idylle naissante",
	  MISSION, 0, 0, STM_A_NONE,
	  "8 with two cards that are Personnel, Civilian or Captain; 6 per "
	  "additional Counselor or Betazoid card, and 6 for Quarters",
	  "8 avec deux cartes Personnel, Civil ou Capitaine ; 6 par carte "
	  "Conseiller ou Betazoïde supplémentaire, et 6 pour Quartiers" },
	{ "M20", "Scientific Puzzle", "Énigme scientifique",
	  MISSION, 0, 0, STM_A_NONE,
	  "6 per Artifact, Cosmic or Science card",
	  "6 par carte Artefact, Cosmique ou Science" },
	{ "M21", "Space Confrontation", "Affrontement spatial",
	  MISSION, 0, 0, STM_A_NONE,
	  "BLANKED unless a non-Federation Captain or an Entity is in hand; "
	  "6 per other Command or Combat card (the card that lifts the blank "
	  "is not counted)",
	  "MASQUÉE sauf si un Capitaine non-Fédération ou une Entité est "
	  "dans la main ; 6 par autre carte Commandement ou Combat (la carte "
	  "qui lève le masque ne compte pas)" },
	{ "M22", "The Lure of Profit", "L'appât du gain",
	  MISSION, 0, 0, STM_A_NONE,
	  "7 per FA, Artifact or Archaeologist card",
	  "7 par carte Alliance Ferengi, Artefact ou Archéologue" },
	{ "M23", "Time Distortion", "Distorsion temporelle",
	  MISSION, 0, 0, STM_A_NONE,
	  "10 for Ten-Forward and per Cosmic card. A player who takes it "
	  "from the discard area gets one extra turn after the current one, "
	  "even if the current turn ended the game",
	  "10 pour Ten-Forward et par carte Cosmique. Un joueur qui la prend "
	  "dans la défausse joue un tour supplémentaire après le tour en "
	  "cours, même si ce tour a mis fin à la partie" },
	{ "M24", "Trapped on the Holodeck", "Piégés sur le Holodeck",
	  MISSION, 0, 0, STM_A_NONE,
	  "15 if Holodeck 1 or Holodeck 2 and at least one FED Personnel or "
	  "Captain",
	  "15 avec Holodeck 1 ou Holodeck 2 et au moins un Personnel ou "
	  "Capitaine Fédération" },
};

static const char *const type_names[STM_NTYPES][2] = {
	{ "Captain", "Capitaine" },
	{ "Personnel", "Personnel" },
	{ "Civilian", "Civil" },
	{ "Location", "Lieu" },
	{ "System", "Système" },
	{ "Equipment", "Équipement" },
	{ "Artifact", "Artefact" },
	{ "Entity", "Entité" },
	{ "Wild", "Joker" },
	{ "Mission", "Mission" },
};

static const char *const specialty_names[STM_NSPECIALTIES][2] = {
	{ "Command", "Commandement" },
	{ "Combat", "Combat" },
	{ "Science", "Science" },
	{ "Medical", "Médical" },
	{ "Security", "Sécurité" },
	{ "Archaeologist", "Archéologue" },
	{ "Ambassador", "Ambassadeur" },
	{ "Engineer", "Ingénieur" },
	{ "Counselor", "Conseiller" },
	{ "Weapon", "Arme" },
	{ "Cosmic", "Cosmique" },
};

static const char *const lifeform_names[STM_NLIFEFORMS][2] = {
	{ "Human", "Humain" },
	{ "Vulcan", "Vulcain" },
	{ "Klingon", "Klingon" },
	{ "Romulan", "Romulien" },
	{ "Ferengi", "Ferengi" },
	{ "Betazoid", "Betazoïde" },
	{ "Android", "Androïde" },
	{ "Hologram", "Hologramme" },
	{ "Crystalline", "Cristallin" },
	{ "El-Aurian", "El-Aurien" },
};

static const char *const affiliation_names[STM_NAFFILIATIONS][2] = {
	{ "none", "aucune" },
	{ "Federation", "Fédération" },
	{ "Klingon Empire", "Empire Klingon" },
	{ "Romulan Star Empire", "Empire Stellaire Romulien" },
	{ "Ferengi Alliance", "Alliance Ferengi" },
	{ "Hostile", "Hostile" },
};

/* lang is 0 (English) or 1 (French); anything else reads as English. */
static int
lang_index(int lang)
{
	return lang == 1 ? 1 : 0;
}

const char *
stm_type_name(int bit, int lang)
{
	if (bit < 0 || bit >= STM_NTYPES)
		return NULL;
	return type_names[bit][lang_index(lang)];
}

const char *
stm_specialty_name(int bit, int lang)
{
	if (bit < 0 || bit >= STM_NSPECIALTIES)
		return NULL;
	return specialty_names[bit][lang_index(lang)];
}

const char *
stm_lifeform_name(int bit, int lang)
{
	if (bit < 0 || bit >= STM_NLIFEFORMS)
		return NULL;
	return lifeform_names[bit][lang_index(lang)];
}

const char *
stm_affiliation_name(int aff, int lang)
{
	if (aff < 0 || aff >= STM_NAFFILIATIONS)
		return NULL;
	return affiliation_names[aff][lang_index(lang)];
}
