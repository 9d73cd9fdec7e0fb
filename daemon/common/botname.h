/*
 * botname.h -- what people read for the player of a seat the server
 * plays (docs/SERVER-BOTS.md).
 *
 * A bot created without a name gets one no person can register (it
 * starts with BOTNAME_PREFIX; players' names are letters, digits, '.',
 * '-' and '_'), which is shown as "bot" in English and "robot" in
 * French, so a seat reads "bot (seat 1)" / "robot (siège 1)".  A bot
 * given a name ("@bot:normal=Data") is shown by that name.
 */
#ifndef PBEM_BOTNAME_H
#define PBEM_BOTNAME_H

#define BOTNAME_PREFIX	"@bot-"

/* Whether name is a made-up bot's name. */
int		 botname_is_made_up(const char *name);
/* name as people read it in French (fr) or English. */
const char	*botname_display(const char *name, int fr);

#endif /* PBEM_BOTNAME_H */
