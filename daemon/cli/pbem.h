/*
 * pbem.h -- what the files of the player's program `pbem` share: the
 * usage, the key file, and sending a signed request (pbem.c), and the
 * delegate command (pbem_delegate.c).
 */
#ifndef PBEM_PBEM_H
#define PBEM_PBEM_H

#include <stddef.h>

#include "protocol.h"

/* Print the usage on stderr and exit EX_USAGE. */
void	pbem_usage(void) __attribute__((noreturn));
/* $PBEM_KEY, else "pbem.key". */
const char *pbem_default_keyfile(void);
/* The secret key in path, or exit with a message. */
void	pbem_load_secret(const char *path,
	    unsigned char sk[PROTO_SECKEY_BYTES]);

/* One signed HTTP request (docs/PROTOCOL.md section 12). */
struct pbem_request {
	const char	*keyfile;	/* the signer's secret key */
	const char	*player;	/* the name the request is signed as */
	const char	*base;		/* NULL: http://127.0.0.1:8080 */
	int		 version;	/* REQSIG_V1_BLAKE2B or V2_SHA256 */
	const char	*method, *target;
	const char	*body;		/* NULL: none */
	size_t		 body_len;
	const char	*content_type;	/* a header line; NULL: octet-stream */
	int		 header_only;	/* print the header, send nothing */
};
/* Sign and send rq, the answer's body to stdout: 0 for a 2xx answer, 1
 * otherwise (the status on stderr); exits on a local failure. */
int	pbem_send(const struct pbem_request *rq);

/* pbem delegate ... (pbem_delegate.c); argv[0] is "delegate". */
int	pbem_delegate(int argc, char **argv);

#endif /* PBEM_PBEM_H */
