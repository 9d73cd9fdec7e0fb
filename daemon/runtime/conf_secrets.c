/*
 * conf_secrets.c -- secrets read from the files the settings name (see
 * conf_secrets.h).
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "conf_secrets.h"
#include "secretfile.h"

/* The options that may come from a file; the file's option is the name
 * with "_file" added. */
static const char *const secret_options[] = {
	"mail_smtp_password",
	"mail_imap_password",
	"webhook_admin_token",
	NULL
};

/* The longest secret accepted from a file, in bytes. */
#define SECRET_MAX	1024

int
config_read_secret_files(struct config *cfg, char *err, size_t errlen)
{
	char file_option[64], secret[SECRET_MAX + 2], why[512];
	const char *path;
	size_t i;
	int rc;

	for (i = 0; secret_options[i] != NULL; i++) {
		snprintf(file_option, sizeof(file_option), "%s_file",
		    secret_options[i]);
		path = config_str(cfg, file_option);
		if (*path == '\0')
			continue;
		if (*config_str(cfg, secret_options[i]) != '\0') {
			snprintf(err, errlen, "%s and %s are both set; keep "
			    "only %s (the secret stays out of the "
			    "configuration file)", secret_options[i],
			    file_option, file_option);
			return -1;
		}
		if (secretfile_read_line(path, secret, sizeof(secret), why,
		    sizeof(why)) != 0) {
			snprintf(err, errlen, "%s: %s", file_option, why);
			return -1;
		}
		rc = config_set(cfg, secret_options[i], secret, why,
		    sizeof(why));
		sodium_memzero(secret, sizeof(secret));
		if (rc != 0) {
			snprintf(err, errlen, "%s: %s", file_option, why);
			return -1;
		}
	}
	return 0;
}
