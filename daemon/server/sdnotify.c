/*
 * notify.c -- pbemd's state for systemd (Type=notify; see daemon.h).
 *
 * sd_notify() does nothing when NOTIFY_SOCKET is not set, that is when
 * pbemd was not started by systemd; without libsystemd at build time
 * these are empty.
 */
#include "config.h"

#ifdef HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "server.h"

void
notify_ready(void)
{
#ifdef HAVE_SYSTEMD
	sd_notify(0, "READY=1\nSTATUS=serving");
#endif
}

void
notify_reloading(void)
{
#ifdef HAVE_SYSTEMD
	sd_notify(0, "RELOADING=1\nSTATUS=reloading the configuration");
#endif
}

void
notify_stopping(void)
{
#ifdef HAVE_SYSTEMD
	sd_notify(0, "STOPPING=1\nSTATUS=finishing requests in flight");
#endif
}
