#!/bin/sh
# web-bots-e2e.sh -- the seat page's "Bots" part (docs/WEB.md "Bots") in
# headless Chromium: hosted and own-key players authorize a bot key and
# revoke it, only by typing and clicking, and the bot's own signed
# request proves the certificate works, then that it no longer does
# (tests/web_bots_e2e.py says what it does).  About a minute; shares
# web_e2e.py's server and browser helpers.  Screenshots in
# tests/web-bots-e2e/ of the build folder.
#
# Needs chromium, chromium-driver and python3-selenium; without them it
# skips (exit 77) -- unless PBEM_REQUIRE_MAIL_E2E=1, as CI sets.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
PYTHON=/usr/bin/python3
. "$top_srcdir/tests/checks.sh"

[ -x /usr/bin/chromium ] || skip "chromium is not installed (contrib/install-deps.sh)"
[ -x /usr/bin/chromedriver ] || skip "chromium-driver is not installed (contrib/install-deps.sh)"
[ -x "$PYTHON" ] && "$PYTHON" -c "import selenium" 2>/dev/null ||
    skip "python3-selenium is not installed (contrib/install-deps.sh)"

exec "$PYTHON" "$top_srcdir/tests/web_bots_e2e.py" "$top_builddir" \
    "$top_srcdir" "$top_builddir/tests/web-bots-e2e"
