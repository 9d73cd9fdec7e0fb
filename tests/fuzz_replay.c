/*
 * fuzz_replay.c -- a main() for the libFuzzer harnesses without libFuzzer:
 * it runs LLVMFuzzerTestOneInput once on each file named (or each file of
 * each folder named), as libFuzzer runs a corpus.  tests/fuzz-replay.sh
 * links it with each harness and its sources by `make fuzz`'s own
 * recipe and the system compiler, in every `make check`, so a harness
 * that no longer builds, or fails on one of its seeds, is seen there and
 * not only by the fuzzing run of tests/run-all.sh.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Run the harness on one file; 1 if it was read, 0 if not. */
static int
run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL) {
		perror(path);
		return 0;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			if ((buf = realloc(buf, cap)) == NULL) {
				perror("realloc");
				exit(1);
			}
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 1;
}

int
main(int argc, char **argv)
{
	struct dirent *e;
	struct stat sb;
	char path[4096];
	int i, runs = 0, bad = 0;
	DIR *d;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			if (run_file(argv[i]))
				runs++;
			else
				bad++;
			continue;
		}
		if ((d = opendir(argv[i])) == NULL) {
			perror(argv[i]);
			bad++;
			continue;
		}
		while ((e = readdir(d)) != NULL) {
			snprintf(path, sizeof(path), "%s/%s", argv[i],
			    e->d_name);
			if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
				runs += run_file(path);
		}
		closedir(d);
	}
	printf("%s: %d inputs\n", argv[0], runs);
	return bad == 0 && runs > 0 ? 0 : 1;
}
