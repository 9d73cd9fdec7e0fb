/*
 * threadname.c -- name the calling thread (threadname.h).
 */
#define _GNU_SOURCE		/* pthread_setname_np */
#include <pthread.h>
#include <string.h>

#include "threadname.h"

void
thread_name_set(const char *name)
{
	char cut[16];

	strncpy(cut, name, sizeof(cut) - 1);
	cut[sizeof(cut) - 1] = '\0';
	(void)pthread_setname_np(pthread_self(), cut);
}
