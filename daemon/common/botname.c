/*
 * botname.c -- see botname.h.
 */
#include <string.h>

#include "botname.h"

int
botname_is_made_up(const char *name)
{
	return name != NULL && strncmp(name, BOTNAME_PREFIX,
	    strlen(BOTNAME_PREFIX)) == 0;
}

const char *
botname_display(const char *name, int fr)
{
	if (!botname_is_made_up(name))
		return name;
	return fr ? "robot" : "bot";
}
