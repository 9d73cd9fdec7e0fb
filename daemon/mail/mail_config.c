/*
 * mail_config.c -- the mail settings from pbemd's configuration: every
 * mail setting NAME is the option mail_NAME (daemon/runtime/conf.c, docs/CONFIG.md).
 * mail_settings_default() takes its defaults from the same rows.
 */
#include <stdio.h>

#include "conf.h"
#include "mail.h"

int
mail_settings_from_config(struct mail_settings *s, const struct config *cfg,
    char *err, size_t errlen)
{
	const char *name;
	char option[64];
	int i;

	mail_settings_default(s);
	for (i = 0; (name = mail_settings_name(i)) != NULL; i++) {
		snprintf(option, sizeof(option), "mail_%s", name);
		if (mail_settings_set(s, name, config_str(cfg, option), err,
		    errlen) != 0)
			return -1;
	}
	return 0;
}
