/*
 * committed.c -- the engine's commit hook (see engine.h): one function
 * pointer, set once by pbemd before its threads start and only read
 * afterwards, so it needs no lock.
 */
#include "engine.h"

static engine_commit_hook	commit_hook;
static void		       *commit_hook_arg;

void
engine_set_commit_hook(engine_commit_hook hook, void *arg)
{
	commit_hook = hook;
	commit_hook_arg = arg;
}

void
engine_committed(int64_t game_id, int64_t seq)
{
	if (commit_hook != NULL)
		commit_hook(game_id, seq, commit_hook_arg);
}
