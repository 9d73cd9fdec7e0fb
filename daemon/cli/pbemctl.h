/*
 * pbemctl.h -- what pbemctl.c shares with the files of its other
 * commands (ctl_backup.c: backup and restore; ctl_queue.c: the outbox
 * queue; ctl_cards.c: card files).  Internal to pbemctl.
 *
 * A command is int cmd(struct ctl *c, int argc, char **argv), argv[0]
 * being its name; it returns the exit status (0 done, 1 failed) and
 * calls usage() on a usage error, which exits EX_USAGE.
 */
#ifndef PBEM_PBEMCTL_H
#define PBEM_PBEMCTL_H

#include "engine.h"

struct ctl {
	const char		*dbpath;	/* -d, $PBEM_DB or pbem.db */
	struct store		*st;		/* after ctl_open() */
	struct serverkey	*key;
};

/* Print the usage on stderr and exit EX_USAGE. */
void	usage(void) __attribute__((noreturn));
/* Open the store and the server key (create: make them if missing);
 * exits with a message when they do not open. */
void	ctl_open(struct ctl *c, int create);
void	ctl_close(struct ctl *c);
/* Audit every game of the open store, a line each on stdout; 0 when all
 * check out, -1 when one does not. */
int	ctl_audit_all(struct ctl *c);

/* ctl_backup.c */
int	ctl_cmd_backup(struct ctl *c, int argc, char **argv);
int	ctl_cmd_restore(struct ctl *c, int argc, char **argv);
/* ctl_queue.c */
int	ctl_cmd_queue(struct ctl *c, int argc, char **argv);
/* ctl_cards.c: `cards check GAME FILE`; and game create's --cards FILE,
 * read into cf and judged by game's module (exits 66 if FILE cannot be
 * read, 65 with the module's message if it refuses it, 1 if game is not
 * a card game). */
struct cardfile;
int	ctl_cmd_cards(struct ctl *c, int argc, char **argv);
void	ctl_cards_read(const char *game, const char *path,
	    struct cardfile *cf);

#endif /* PBEM_PBEMCTL_H */
