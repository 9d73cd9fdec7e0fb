#!/bin/sh
# web-e2e.sh -- the player's web page (/play/) in a real browser: headless
# Chromium driven by Selenium plays whole games by clicking, each move
# from the sign-in link of the seat's latest your-turn mail, and checks
# after every move that no hidden card reaches the page (tests/web_e2e.py
# says what it does).  Screenshots are kept in tests/web-e2e/ of the
# build folder.
#
# Needs chromium, chromium-driver and python3-selenium (see
# contrib/install-deps.sh).  Without them it skips (exit 77) -- unless
# PBEM_REQUIRE_MAIL_E2E=1, as CI sets, when it fails instead.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
PYTHON=/usr/bin/python3
. "$top_srcdir/tests/checks.sh"

[ -x /usr/bin/chromium ] || skip "chromium is not installed (contrib/install-deps.sh)"
[ -x /usr/bin/chromedriver ] || skip "chromium-driver is not installed (contrib/install-deps.sh)"
[ -x "$PYTHON" ] && "$PYTHON" -c "import selenium" 2>/dev/null ||
    skip "python3-selenium is not installed (contrib/install-deps.sh)"

exec "$PYTHON" "$top_srcdir/tests/web_e2e.py" "$top_builddir" "$top_srcdir" \
    "$top_builddir/tests/web-e2e"
