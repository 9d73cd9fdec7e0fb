/*
 * cardsets.c -- card files, their hashes and the cache of parsed card
 * sets (cardsets.h, docs/CARDFILES.md).
 */
#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "cardsets.h"

#ifndef PBEM_CARDS_DIR
#define PBEM_CARDS_DIR "/usr/local/share/pbem/cards"
#endif

/* One parsed set: the module, the file's hash, the set. */
struct cached_set {
	const struct rules_module	*module;
	char				 hash[STORE_CARDS_HASH_HEX + 1];
	void				*set;
};

static pthread_mutex_t	 cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cached_set cache[CARDSETS_MAX];
static size_t		 ncached;
static const char	*source_tree;	/* tests only */

void
cardsets_hash(const char *bytes, size_t len,
    char hash[STORE_CARDS_HASH_HEX + 1])
{
	unsigned char digest[crypto_hash_sha256_BYTES];

	crypto_hash_sha256(digest, (const unsigned char *)bytes, len);
	sodium_bin2hex(hash, STORE_CARDS_HASH_HEX + 1, digest, sizeof(digest));
}

int
cardfile_from_bytes(const char *bytes, size_t len, const char *name,
    struct cardfile *cf, char *err, size_t errlen)
{
	memset(cf, 0, sizeof(*cf));
	snprintf(cf->name, sizeof(cf->name), "%s", name);
	if (len < 1 || len > STORE_CARDS_MAX) {
		snprintf(err, errlen, "%s: a card file has 1 to %d bytes, not "
		    "%zu", name, STORE_CARDS_MAX, len);
		return -1;
	}
	if ((cf->bytes = malloc(len + 1)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	memcpy(cf->bytes, bytes, len);
	cf->bytes[len] = '\0';
	cf->len = len;
	cardsets_hash(cf->bytes, len, cf->hash);
	return 0;
}

int
cardfile_read(const char *path, struct cardfile *cf, char *err,
    size_t errlen)
{
	char *buf;
	size_t n;
	FILE *f;
	int rc;

	memset(cf, 0, sizeof(*cf));
	if ((f = fopen(path, "rb")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* One byte more than the limit tells a file that is too long. */
	if ((buf = malloc((size_t)STORE_CARDS_MAX + 1)) == NULL) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	n = fread(buf, 1, (size_t)STORE_CARDS_MAX + 1, f);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	} else if (n > STORE_CARDS_MAX) {
		snprintf(err, errlen, "%s: longer than %d bytes; a card file "
		    "is at most that", path, STORE_CARDS_MAX);
		rc = -1;
	} else
		rc = cardfile_from_bytes(buf, n, path, cf, err, errlen);
	free(buf);
	fclose(f);
	return rc;
}

void
cardfile_clear(struct cardfile *cf)
{
	free(cf->bytes);
	memset(cf, 0, sizeof(*cf));
}

void
cardsets_use_source_tree(const char *srcdir)
{
	source_tree = srcdir;
}

static int
is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

void
cardsets_default_path(const struct rules_module *m, char *out,
    size_t outlen)
{
	struct stat sb;
	const char *dir = getenv("PBEM_CARDS");

	if (dir != NULL && *dir != '\0')
		snprintf(out, outlen, "%s/%s.yaml", dir, m->name);
	else if (source_tree != NULL)
		snprintf(out, outlen, "%s/rules/%s/cards.yaml", source_tree,
		    m->name);
	else if (is_dir(PBEM_CARDS_DIR))
		snprintf(out, outlen, "%s/%s.yaml", PBEM_CARDS_DIR, m->name);
	else {
		/* Run from the source tree, not installed. */
		snprintf(out, outlen, "rules/%s/cards.yaml", m->name);
		if (stat(out, &sb) != 0)
			snprintf(out, outlen, "%s/%s.yaml", PBEM_CARDS_DIR,
			    m->name);
	}
}

int
cardfile_default(const struct rules_module *m, struct cardfile *cf,
    char *err, size_t errlen)
{
	char path[512];

	cardsets_default_path(m, path, sizeof(path));
	return cardfile_read(path, cf, err, errlen);
}

/* The cached set of m under hash, or NULL; called with the lock held. */
static void *
cache_find(const struct rules_module *m, const char *hash)
{
	size_t i;

	for (i = 0; i < ncached; i++)
		if (cache[i].module == m && strcmp(cache[i].hash, hash) == 0)
			return cache[i].set;
	return NULL;
}

const void *
cardsets_add(const struct rules_module *m, const struct cardfile *cf,
    char *err, size_t errlen)
{
	void *set, *found;
	int full;

	if (!rules_has_cards(m)) {
		snprintf(err, errlen, "%s is not played with a card file",
		    m->name);
		return NULL;
	}
	pthread_mutex_lock(&cache_lock);
	found = cache_find(m, cf->hash);
	full = ncached == CARDSETS_MAX;
	pthread_mutex_unlock(&cache_lock);
	if (found != NULL)
		return found;
	if (full) {
		snprintf(err, errlen, "%s: this process already keeps %d card "
		    "sets, the most it keeps; restart it", cf->name,
		    CARDSETS_MAX);
		return NULL;
	}
	/* Parsed outside the lock: it may take a while, and two threads
	 * parsing the same file at once only cost a second parse. */
	if ((set = m->cards_parse(cf->bytes, cf->len, cf->name, err,
	    errlen)) == NULL)
		return NULL;
	pthread_mutex_lock(&cache_lock);
	if ((found = cache_find(m, cf->hash)) == NULL && ncached <
	    CARDSETS_MAX) {
		cache[ncached].module = m;
		memcpy(cache[ncached].hash, cf->hash, sizeof(cf->hash));
		cache[ncached].set = set;
		ncached++;
		found = set;
		set = NULL;
	}
	pthread_mutex_unlock(&cache_lock);
	if (set != NULL)
		m->cards_free(set);	/* another thread was first, or full */
	if (found == NULL)
		snprintf(err, errlen, "%s: this process already keeps %d card "
		    "sets, the most it keeps; restart it", cf->name,
		    CARDSETS_MAX);
	return found;
}

const void *
cardsets_get(struct store *st, const struct rules_module *m,
    const char *hash, char *err, size_t errlen)
{
	struct cardfile cf;
	char game[STORE_RULESET_MAX], name[128];
	const void *set;
	char *bytes;
	size_t len;
	enum store_status rc;

	pthread_mutex_lock(&cache_lock);
	set = cache_find(m, hash);
	pthread_mutex_unlock(&cache_lock);
	if (set != NULL)
		return set;
	if ((rc = store_card_file_get(st, hash, game, &bytes, &len)) !=
	    STORE_OK) {
		snprintf(err, errlen, "card file %s: %s", hash,
		    rc == STORE_NOTFOUND ? "not in the store" :
		    store_errmsg(st));
		return NULL;
	}
	snprintf(name, sizeof(name), "card file %.16s", hash);
	if (cardfile_from_bytes(bytes, len, name, &cf, err, errlen) != 0) {
		free(bytes);
		return NULL;
	}
	free(bytes);
	if (strcmp(cf.hash, hash) != 0 || strcmp(game, m->name) != 0) {
		snprintf(err, errlen, "card file %s: the stored bytes are for "
		    "%s and hash to %s (the store was altered)", hash, game,
		    cf.hash);
		cardfile_clear(&cf);
		return NULL;
	}
	set = cardsets_add(m, &cf, err, errlen);
	cardfile_clear(&cf);
	return set;
}

int
cardsets_for_game(struct store *st, const struct rules_module *m,
    const char *cards_hash, const void **cards, char *err, size_t errlen)
{
	*cards = NULL;
	if (!rules_has_cards(m)) {
		if (cards_hash != NULL && cards_hash[0] != '\0') {
			snprintf(err, errlen, "%s is not played with a card "
			    "file, yet the game names one", m->name);
			return -1;
		}
		return 0;
	}
	if (cards_hash == NULL || cards_hash[0] == '\0') {
		snprintf(err, errlen, "a game of %s names no card file",
		    m->name);
		return -1;
	}
	*cards = cardsets_get(st, m, cards_hash, err, errlen);
	return *cards != NULL ? 0 : -1;
}
