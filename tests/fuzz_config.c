/*
 * fuzz_config.c -- libFuzzer harness for pbemd's configuration file and
 * its command-line settings (daemon/runtime/conf.c), and for the
 * Authorization header of signed HTTP requests (daemon/common/reqsig.c).
 *
 * Properties, besides not crashing:
 *   - a file is taken whole or refused whole with "path:line: reason";
 *     one that is taken, written back (config_write, what `pbemd -n -v`
 *     prints) and read again gives the same settings;
 *   - a "name=value" pair is taken or refused, never half-applied;
 *   - a header either parses or is refused with a sentence.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "reqsig.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* What config_write() prints for cfg, as a string (malloc'd). */
static char *
written(const struct config *cfg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (out == NULL)
		abort();
	config_write(cfg, out);
	fclose(out);
	return text;
}

static void
check_file(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/pbem-fuzz-config-XXXXXX", err[1024];
	struct config *cfg, *again;
	char *a, *b;
	FILE *f;
	int fd;

	if ((fd = mkstemp(path)) < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	cfg = config_new();
	if (config_load_file(cfg, path, err, sizeof(err)) == 0) {
		a = written(cfg);
		if ((f = fopen(path, "w")) == NULL)
			abort();
		fputs(a, f);
		fclose(f);
		again = config_new();
		if (config_load_file(again, path, err, sizeof(err)) != 0)
			abort();	/* what we print, we must read */
		b = written(again);
		if (strcmp(a, b) != 0)
			abort();
		free(a);
		free(b);
		config_free(again);
	} else if (strncmp(err, path, strlen(path)) != 0)
		abort();		/* every refusal names the file */
	config_free(cfg);
	unlink(path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, err[1024];
	struct config *cfg;
	struct reqsig rs;

	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	check_file(data, size);
	cfg = config_new();
	(void)config_set_pair(cfg, text, err, sizeof(err));
	config_free(cfg);
	err[0] = '\0';
	if (reqsig_parse_header(text, &rs, err, sizeof(err)) != PROTO_OK &&
	    err[0] == '\0')
		abort();		/* a refusal says why */
	(void)reqsig_valid_player(text);
	free(text);
	return 0;
}
