/*
 * registry.c -- the one list of rule modules this build knows.
 *
 * Modules are registered here, at compile time, and nowhere else: the
 * table is fixed before the core starts, so no module can be added or
 * changed while games are running.  rules_validate_module() is the check
 * the core runs on each entry at start-up.
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

extern const struct rules_module stmissions_module;
extern const struct rules_module template_module;
extern const struct rules_module eve_module;
extern const struct rules_module respond_module;

static const struct rules_module *const modules[] = {
	&stmissions_module,
	&template_module,
	&eve_module,
	&respond_module,
	NULL
};

const struct rules_module *const *
rules_all(void)
{
	return modules;
}

const struct rules_module *
rules_find(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; modules[i] != NULL; i++)
		if (strcmp(modules[i]->name, name) == 0)
			return modules[i];
	return NULL;
}

int
rules_version_supported(const struct rules_module *m, int version)
{
	int oldest = m->ruleset_version;

	if (m->api_version >= 4 && m->setup_version != NULL &&
	    m->oldest_ruleset_version > 0)
		oldest = m->oldest_ruleset_version;
	return version >= oldest && version <= m->ruleset_version;
}

void *
rules_setup_version(const struct rules_module *m, int version, int nseats,
    const json_t *options, struct rules_rng *rng, char *err, size_t errlen)
{
	if (!rules_version_supported(m, version)) {
		snprintf(err, errlen, "%s ruleset version %d is not kept by "
		    "this build (it plays versions up to %d)", m->name, version,
		    m->ruleset_version);
		return NULL;
	}
	if (version == m->ruleset_version)
		return m->setup(nseats, options, rng, err, errlen);
	return m->setup_version(version, nseats, options, rng, err, errlen);
}

/* A module name is what the store and URLs carry: short, lower-case. */
static int
valid_name(const char *name)
{
	size_t i, len;

	if (name == NULL)
		return 0;
	len = strlen(name);
	if (len == 0 || len > 31)
		return 0;
	for (i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= '0' && name[i] <= '9') || name[i] == '-'))
			return 0;
	return 1;
}

int
rules_validate_module(const struct rules_module *m, char *err, size_t errlen)
{
	const char *missing = NULL;

	if (m == NULL) {
		snprintf(err, errlen, "module table is NULL");
		return -1;
	}
	if (m->api_version < 1 || m->api_version > RULES_API_VERSION) {
		snprintf(err, errlen, "module api_version %d: this core "
		    "reads versions 1 to %d", m->api_version, RULES_API_VERSION);
		return -1;
	}
	if (!valid_name(m->name)) {
		snprintf(err, errlen, "module name \"%s\" is not 1-31 "
		    "characters of a-z, 0-9 and -", m->name ? m->name : "");
		return -1;
	}
	if (m->ruleset_version < 1) {
		snprintf(err, errlen, "%s: ruleset_version must be at least 1",
		    m->name);
		return -1;
	}
	if (m->min_seats < 1 || m->max_seats < m->min_seats ||
	    m->max_seats > 8) {
		snprintf(err, errlen, "%s: seats %d..%d are not within 1..8",
		    m->name, m->min_seats, m->max_seats);
		return -1;
	}
	if (m->title_en == NULL || m->title_fr == NULL)
		missing = "title_en/title_fr";
	else if (m->summary_en == NULL || m->summary_fr == NULL)
		missing = "summary_en/summary_fr";
	else if (m->setup == NULL)
		missing = "setup";
	else if (m->destroy == NULL)
		missing = "destroy";
	else if (m->save == NULL)
		missing = "save";
	else if (m->load == NULL)
		missing = "load";
	else if (m->to_act == NULL)
		missing = "to_act";
	else if (m->parse == NULL)
		missing = "parse";
	else if (m->check == NULL)
		missing = "check";
	else if (m->apply == NULL)
		missing = "apply";
	else if (m->view == NULL)
		missing = "view";
	else if (m->legal_moves == NULL)
		missing = "legal_moves";
	else if (m->move_forms == NULL)
		missing = "move_forms";
	else if (m->result == NULL)
		missing = "result";
	else if (m->api_version >= 3 && m->default_move == NULL)
		missing = "default_move";
	else if (m->api_version >= 3 &&
	    (m->skip_check == NULL) != (m->skip_apply == NULL))
		missing = "skip_check/skip_apply (give both or neither)";
	else if (m->api_version >= 4 &&
	    (m->setup_version == NULL) != (m->oldest_ruleset_version == 0))
		missing = "oldest_ruleset_version/setup_version (give both or "
		    "neither)";
	if (missing == NULL && m->api_version >= 4 &&
	    m->setup_version != NULL &&
	    (m->oldest_ruleset_version < 1 ||
	    m->oldest_ruleset_version >= m->ruleset_version)) {
		snprintf(err, errlen, "%s: oldest_ruleset_version %d must be "
		    "from 1 to ruleset_version - 1 (%d)", m->name,
		    m->oldest_ruleset_version, m->ruleset_version - 1);
		return -1;
	}
	if (missing != NULL) {
		snprintf(err, errlen, "%s: required method %s is missing",
		    m->name, missing);
		return -1;
	}
	return 0;
}
