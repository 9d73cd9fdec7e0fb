# Star Trek: Missions -- the rule module (flow, moves, views).
STM_GAME_SOURCES = rules/stmissions/stmissions.c
