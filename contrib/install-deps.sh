#!/bin/sh
# install-deps.sh -- install what pbem needs to build, test and run, from
# Debian 12's packages.  Run as root (CI runs it from .ci/run).
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	ca-certificates build-essential autoconf automake pkg-config \
	libsodium-dev libsqlite3-dev libjansson-dev libmicrohttpd-dev \
	libsystemd-dev libcurl4-openssl-dev libgmime-3.0-dev \
	check sqlite3 curl valgrind
# clang brings libFuzzer: `make fuzz` and tests/fuzz-run.sh (docs/MAIL.md).
apt-get install -y --no-install-recommends clang
# A real MTA, IMAP server and SMTP test client for the mail gateway's
# end-to-end test (tests/mail-e2e.sh).
apt-get install -y --no-install-recommends \
	postfix dovecot-imapd swaks
# docs/BOTS.md's example bot, run by tests/bots-test.sh: Python's
# Ed25519 package, and Node.js (its standard library is the point).
apt-get install -y --no-install-recommends python3 python3-cryptography nodejs
# A real browser for the web page's end-to-end test (tests/web-e2e.sh):
# headless Chromium driven by Selenium.
apt-get install -y --no-install-recommends \
	chromium chromium-driver python3-selenium
