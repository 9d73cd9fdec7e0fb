/*
 * refusal.c -- the engine's refusals as text (refusal.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "refusal.h"

enum engine_status
engine_refusal(char *err, size_t errlen, enum engine_status status,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return status;
}

enum engine_status
engine_refusal_in(char *err, size_t errlen, enum engine_status status,
    enum rules_lang lang, const char *fmt_en, const char *fmt_fr, ...)
{
	va_list ap;

	va_start(ap, fmt_fr);
	vsnprintf(err, errlen, lang == RULES_LANG_FR ? fmt_fr : fmt_en, ap);
	va_end(ap);
	return status;
}
