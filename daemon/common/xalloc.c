/*
 * xalloc.c -- memory allocation that does not fail (see xalloc.h).
 */
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void *
xrealloc(void *p, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > (size_t)-1 / size)
		abort();
	if ((p = realloc(p, nmemb * size == 0 ? 1 : nmemb * size)) == NULL)
		abort();
	return p;
}

char *
xstrndup(const char *s, size_t len)
{
	char	*d;

	d = xrealloc(NULL, len + 1, 1);
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}
