#!/bin/sh
# install-deps.sh -- install what pbem needs to build, test and run, from
# Debian 12's packages.  Run as root (CI runs it from .ci/run).
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	ca-certificates build-essential autoconf automake pkg-config \
	libsodium-dev libsqlite3-dev libjansson-dev libyaml-dev libmicrohttpd-dev \
	libsystemd-dev libcurl4-openssl-dev libgmime-3.0-dev libglib2.0-dev tzdata \
	check sqlite3 curl valgrind
# mandoc lints the manual pages (tests/man-test.sh; groff is the fallback).
apt-get install -y --no-install-recommends mandoc
# systemd-analyze verifies the generated unit (tests/unit-test.sh).  The
# package installs programs only: in a container or chroot where systemd
# is not PID 1 nothing is started.  Where it cannot be installed the test
# skips that check and says so.
command -v systemd-analyze >/dev/null ||
	apt-get install -y --no-install-recommends systemd ||
	echo "install-deps: systemd not installed; tests/unit-test.sh will skip systemd-analyze verify"
# clang brings libFuzzer: `make fuzz` and tests/fuzz-run.sh (docs/MAIL.md).
# libFuzzer and the sanitizers' runtimes are in libclang-rt-14-dev, which
# clang only recommends: without it the fuzzers do not link.
apt-get install -y --no-install-recommends clang libclang-rt-14-dev
# A real MTA, IMAP server and SMTP test client for the mail gateway's
# end-to-end test (tests/mail-e2e.sh).
apt-get install -y --no-install-recommends \
	postfix dovecot-imapd swaks
# docs/BOTS.md's example bot, run by tests/bots-test.sh: Python's
# Ed25519 package, and Node.js (its standard library is the point).
apt-get install -y --no-install-recommends python3 python3-cryptography nodejs
# A real IRC server for the reference IRC bot's test (tests/ircbot-test.sh,
# contrib/ircbot/).
apt-get install -y --no-install-recommends ngircd
# tests/openapi-check.py reads docs/openapi.yaml and checks the answers of
# tests/check_http against it (docs/API.md, "The OpenAPI file").
apt-get install -y --no-install-recommends python3-yaml python3-jsonschema
# A real browser for the web page's end-to-end test (tests/web-e2e.sh):
# headless Chromium driven by Selenium.
apt-get install -y --no-install-recommends \
	chromium chromium-driver python3-selenium
