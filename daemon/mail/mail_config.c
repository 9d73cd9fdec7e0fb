/*
 * mail_config.c -- the mail settings from pbemd's configuration: every
 * mail setting NAME is the option mail_NAME (daemon/runtime/conf.c, docs/CONFIG.md).
 * mail_settings_default() takes its defaults from the same rows.
 */
#include <stdio.h>
#include <string.h>

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
	return mail_settings_links(s, cfg, config_str(cfg, "database"), err,
	    errlen);
}

int
mail_settings_links(struct mail_settings *s, const struct config *cfg,
    const char *dbpath, char *err, size_t errlen)
{
	const char *kek = config_str(cfg, "hosted_key_file");
	const char *url = config_str(cfg, "public_base_url");
	size_t n;

	if (*kek != '\0')
		n = (size_t)snprintf(s->hosted_key_file,
		    sizeof(s->hosted_key_file), "%s", kek);
	else
		n = (size_t)snprintf(s->hosted_key_file,
		    sizeof(s->hosted_key_file), "%s.kek", dbpath);
	if (n >= sizeof(s->hosted_key_file) || strlen(url) >=
	    sizeof(s->public_base_url)) {
		snprintf(err, errlen, "hosted_key_file or public_base_url is "
		    "too long");
		return -1;
	}
	snprintf(s->public_base_url, sizeof(s->public_base_url), "%s", url);
	s->forming_games_per_player = (int)config_int(cfg,
	    "forming_games_per_player");
	/* Links are made by appending "/play/TOKEN". */
	n = strlen(s->public_base_url);
	while (n > 0 && s->public_base_url[n - 1] == '/')
		s->public_base_url[--n] = '\0';
	return 0;
}
