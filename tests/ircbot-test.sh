#!/bin/sh
# ircbot-test.sh -- the reference IRC bot (contrib/ircbot/pbem-ircbot,
# docs/BOTS.md section 9) against a real IRC server: starts ngircd on
# loopback, pbemd, the bot and scripted IRC clients
# (tests/ircbot_test.py), plays a whole Ladder game through the bot --
# each player links their nick, delegates to the bot's key, gets their
# hand and legal moves by private message and answers with !move -- and
# checks that nothing the bot said privately, nor any hand, ever reached
# the channel, and that the audit checks every move the bot signed; then
# stops and restarts pbemd and ngircd under the bot, which must say so in
# the channel, come back by itself and go on playing a second game.
# Skipped (77) with the reason when ngircd is not installed
# (contrib/install-deps.sh installs it).
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
bin="$(cd "$top_builddir" && pwd)/daemon"
. "$top_srcdir/tests/checks.sh"

ngircd=$(command -v ngircd || ls /usr/sbin/ngircd 2>/dev/null)
[ -n "$ngircd" ] || skip "ircbot-test: ngircd is not installed (contrib/install-deps.sh)"
command -v python3 >/dev/null || skip "ircbot-test: python3 is not installed"
exec python3 "$top_srcdir/tests/ircbot_test.py" --ngircd "$ngircd" \
    --bin "$bin" --templates "$top_srcdir/templates" \
    --bot "$top_srcdir/contrib/ircbot/pbem-ircbot"
