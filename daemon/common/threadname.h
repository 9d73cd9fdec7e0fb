/*
 * threadname.h -- name the calling thread, for top -H, perf and
 * /proc/<pid>/task/<tid>/comm (tests/bench_load prints CPU per name).
 *
 * pbemd's threads: "pbem-writer", "pbem-sched", "pbem-webhooks",
 * "pbem-events", "pbem-watchdog", "pbem-verify", and the mail
 * gateway's loops "pbem-sender", "pbem-maildir", "pbem-imap"; the
 * libmicrohttpd workers keep the process's name (or the one libmicrohttpd
 * gives them).  A name longer than 15 bytes is cut (the
 * kernel's limit); a failure is ignored, since a name is only a label.
 */
#ifndef PBEM_THREADNAME_H
#define PBEM_THREADNAME_H

void	thread_name_set(const char *name);

#endif
