/*
 * xalloc.h -- memory allocation that does not fail.
 *
 * What this module promises: each function returns usable memory or
 * aborts the process.  It is for code whose contract says that running
 * out of memory is fatal (mustache.h, templates.h), so that it need not
 * carry an error path for every allocation.  Code that must survive an
 * allocation failure (a refused request, a message to the peer) calls
 * malloc() itself.
 */
#ifndef PBEM_XALLOC_H
#define PBEM_XALLOC_H

#include <stddef.h>

/* realloc() of nmemb * size bytes (at least 1); aborts when the product
 * overflows or memory runs out.  p may be NULL. */
void	*xrealloc(void *p, size_t nmemb, size_t size);
/* A NUL-terminated copy of s, or of the first len bytes of s. */
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t len);

#endif /* PBEM_XALLOC_H */
