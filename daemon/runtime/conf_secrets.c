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

/*
 * The secret of option name from the file its NAME_file option names,
 * into secret (size bytes).  0 read, 1 when NAME_file is not set, -1
 * with the reason (naming the option and the file) in err.
 */
static int
read_secret(const struct config *cfg, const char *name, char *secret,
    size_t size, char *err, size_t errlen)
{
	char file_option[64], why[512];
	const char *path;

	snprintf(file_option, sizeof(file_option), "%s_file", name);
	path = config_str(cfg, file_option);
	if (*path == '\0')
		return 1;
	if (*config_str(cfg, name) != '\0') {
		snprintf(err, errlen, "%s and %s are both set; keep only %s "
		    "(the secret stays out of the configuration file)", name,
		    file_option, file_option);
		return -1;
	}
	if (secretfile_read_line(path, secret, size, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", file_option, why);
		return -1;
	}
	return 0;
}

int
config_read_secret_files(struct config *cfg, char *err, size_t errlen)
{
	char secret[SECRET_MAX + 2], why[512];
	size_t i;
	int rc;

	for (i = 0; secret_options[i] != NULL; i++) {
		if ((rc = read_secret(cfg, secret_options[i], secret,
		    sizeof(secret), err, errlen)) == 1)
			continue;
		if (rc == 0 && config_set(cfg, secret_options[i], secret, why,
		    sizeof(why)) != 0) {
			snprintf(err, errlen, "%s_file: %s", secret_options[i],
			    why);
			rc = -1;
		}
		sodium_memzero(secret, sizeof(secret));
		if (rc != 0)
			return -1;
	}
	return 0;
}

int
config_check_secret_files(const struct config *cfg, FILE *errors)
{
	char secret[SECRET_MAX + 2], err[1024];
	int problems = 0;
	size_t i;

	for (i = 0; secret_options[i] != NULL; i++) {
		if (read_secret(cfg, secret_options[i], secret, sizeof(secret),
		    err, sizeof(err)) < 0) {
			fprintf(errors, "pbemd: %s\n", err);
			problems++;
		}
		sodium_memzero(secret, sizeof(secret));
	}
	return problems;
}
