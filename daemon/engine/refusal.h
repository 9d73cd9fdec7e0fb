/*
 * refusal.h -- the engine's refusals as text: a status and a message
 * written into the caller's buffer, in one place for every engine file
 * that answers "no" (seats.c, gamemaster.c).
 *
 * Each function writes the formatted message into err (errlen bytes,
 * always NUL-terminated, cut if too long) and returns status, so that a
 * refusal reads as one statement: return engine_refusal(err, errlen,
 * ENGINE_BAD_SEAT, "seat %d is empty", seat);
 */
#ifndef PBEM_REFUSAL_H
#define PBEM_REFUSAL_H

#include <stddef.h>

#include "engine.h"

/* One message, whatever the reader's language. */
enum engine_status	engine_refusal(char *err, size_t errlen,
			    enum engine_status status, const char *fmt, ...)
			    __attribute__((format(printf, 4, 5)));
/* The message in the reader's language: fmt_en or fmt_fr, the same
 * arguments in the same order. */
enum engine_status	engine_refusal_in(char *err, size_t errlen,
			    enum engine_status status, enum rules_lang lang,
			    const char *fmt_en, const char *fmt_fr, ...)
			    __attribute__((format(printf, 5, 7),
			    format(printf, 6, 7)));

#endif
