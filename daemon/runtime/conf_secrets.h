/*
 * conf_secrets.h -- the settings whose value may come from a file of its
 * own (docs/CONFIG.md, "Secrets").
 *
 * Each secret option NAME (mail_smtp_password, mail_imap_password,
 * webhook_admin_token) has a companion NAME_file.  When NAME_file is set,
 * the secret is that file's first line (secretfile.h: mode 0600/0640 or
 * stricter, else refused) and NAME itself must be empty: a secret set
 * both ways is refused, so nobody wonders which one wins.  pbemd calls
 * this after the file and the command line are applied, at start-up, at
 * each SIGHUP and in `pbemd -n`; `pbemd deliver` too.
 */
#ifndef PBEM_CONF_SECRETS_H
#define PBEM_CONF_SECRETS_H

#include <stddef.h>
#include <stdio.h>

#include "conf.h"

/* Read every NAME_file that is set into NAME.  0, or -1 with the reason
 * (naming the option and the file) in err; cfg may then hold some of the
 * secrets, and the caller drops it. */
int	config_read_secret_files(struct config *cfg, char *err,
	    size_t errlen);

/* `pbemd -n`: try every NAME_file that is set, as above, without
 * keeping a secret; one line on errors for each that would be refused.
 * The number of them. */
int	config_check_secret_files(const struct config *cfg, FILE *errors);

#endif /* PBEM_CONF_SECRETS_H */
