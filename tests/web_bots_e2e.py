#!/usr/bin/python3
"""web_bots_e2e.py -- the seat page's "Bots" part in a real browser
(tests/web-bots-e2e.sh; docs/WEB.md "Bots").

Starts pbemd on a free loopback port (web_e2e.py's Server) with three
Ladder games: two English players whose keys the server holds, two
French ones, and two players with keys of their own made by `pbem
keygen`.  In headless Chromium, the acting player of each game signs in
from their your-turn mail and, only by typing and clicking:

  - pastes something that is not a key: refused in their language, and
    no certificate is kept;
  - authorizes a bot key (made by `pbem keygen`) -- the hosted players'
    certificates are signed by the server, the own-key player's by
    play.js with WebCrypto Ed25519 once the key file is loaded (before
    that the page says to load it, and nothing is sent);
  - sees the certificate listed; then the bot, with its own key only,
    reads the player's seat view (`pbem request -p PLAYER` signed with
    the bot's key): 200; the game's log holds the delegation record
    (kind 10) and `pbemctl audit` passes;
  - revokes it with its button: the list is empty again, the bot's
    request is refused, and the log holds the revocation (kind 11).

With plain HTTP: a bots form from another site, or without the
session's CSRF token, is 403 and keeps nothing.

Arguments: BUILD_DIR SRC_DIR ARTIFACTS_DIR.  Exit 0 pass, 1 fail.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import web_e2e
from web_e2e import (Browser, Player, Server, click_and_wait, http, ok,
                     sign_in)

BUILD = web_e2e.BUILD
KIND_DELEGATION, KIND_REVOCATION = 10, 11    # docs/LOG.md
PBEM = os.path.join(BUILD, "daemon", "pbem")


def keygen(path):
    r = subprocess.run([PBEM, "keygen", "-o", path], capture_output=True,
                       text=True)
    ok(r.returncode == 0, "pbem keygen: %s" % r.stderr)
    with open(path + ".pub") as f:
        return f.read().strip()


def bot_reads_seat(srv, bot_key, player, game, seat):
    """The HTTP status of the seat view the bot asks for player, signed
    with the bot's own key."""
    r = subprocess.run([PBEM, "request", "-k", bot_key, "-p", player.name,
                        "-u", srv.base, "GET",
                        "/v1/games/%d/seats/%d" % (game, seat)],
                       capture_output=True, text=True, timeout=30)
    return r.returncode, r.stdout + r.stderr


def log_kinds(srv, game):
    """The kinds of game's log entries (GET /v1/games/N/log)."""
    status, _, body = http("GET", "%s/v1/games/%d/log" % (srv.base, game))
    ok(status == 200, "GET /v1/games/%d/log: %d" % (game, status))
    entries = json.loads(body)
    if isinstance(entries, dict):
        entries = entries.get("entries", [])
    return [e["kind"] for e in entries]


def listed(d):
    """The certificate ids the page lists."""
    return [r.get_attribute("data-id")
            for r in d.find_elements(By.CSS_SELECTOR, "tr.bot")]


def text_of(d, element_id):
    found = d.find_elements(By.ID, element_id)
    return found[0].text if found else ""


def submit_bot_form(d, key_text, views=False, all_games=False):
    field = d.find_element(By.ID, "bot-key")
    field.clear()
    field.send_keys(key_text)
    form = d.find_element(By.ID, "bot-add")
    if views:
        form.find_element(By.CSS_SELECTOR,
                          "input[name=scope][value=views]").click()
    if all_games:
        form.find_element(By.CSS_SELECTOR,
                          "input[name=cover][value=all]").click()
    click_and_wait(d, d.find_element(By.ID, "bot-submit"))


def delegate_and_revoke(srv, br, work, p, game, words):
    """The whole round for the acting player p of game (hosted)."""
    d = br.driver
    seat = srv.public(game)["to_act"][0]
    sign_in(srv, br, p, game)
    ok(d.find_element(By.ID, "bots").is_displayed(), "no bots part")
    ok(words["none"] in text_of(d, "bot-none"),
       "%s: the page does not say no bot acts: %r" % (p.name,
                                                       text_of(d, "bots")))
    # Not a key: refused in the player's language, nothing kept.
    submit_bot_form(d, "ed25519:not-a-key")
    ok(words["notdone"] in text_of(d, "bots-refusal") and
       words["badkey"] in text_of(d, "bots-refusal"),
       "%s: a bad key's refusal: %r" % (p.name, text_of(d, "bots-refusal")))
    ok(listed(d) == [], "a bad key was kept")
    br.shot("%s-bad-key" % p.name)
    bot_key = os.path.join(work, "bot-%s.key" % p.name)
    bot_pub = keygen(bot_key)
    code, out = bot_reads_seat(srv, bot_key, p, game, seat)
    ok(code != 0, "the bot reads %s's seat before any certificate: %s" % (
        p.name, out[:200]))
    submit_bot_form(d, "  " + bot_pub + " ", views=True)
    ids = listed(d)
    ok(len(ids) == 1, "%s: %d certificates listed after the form" % (
        p.name, len(ids)))
    row = d.find_element(By.CSS_SELECTOR, "tr.bot").text
    ok(words["views"] in row and words["game"] % game in row,
       "%s: the row says %r" % (p.name, row))
    ok(bot_pub in d.page_source, "the bot's key is not on the page")
    br.shot("%s-delegated" % p.name)
    code, out = bot_reads_seat(srv, bot_key, p, game, seat)
    ok(code == 0 and '"seat"' in out,
       "the bot cannot read %s's seat under the certificate: %s" % (
           p.name, out[:300]))
    ok(KIND_DELEGATION in log_kinds(srv, game),
       "the log of game %d has no delegation record" % game)
    srv.ctl("audit", str(game))
    # Revoke with the row's button.
    click_and_wait(d, d.find_element(By.CSS_SELECTOR,
                                     "form.bot-revoke button"))
    ok(listed(d) == [], "%s: still listed after Revoke" % p.name)
    code, out = bot_reads_seat(srv, bot_key, p, game, seat)
    ok(code != 0, "the bot reads %s's seat after the revocation: %s" % (
        p.name, out[:200]))
    ok(KIND_REVOCATION in log_kinds(srv, game),
       "the log of game %d has no revocation record" % game)
    srv.ctl("audit", str(game))
    return seat


def own_key_round(srv, br, work, p, game):
    """The acting player p of game has a key of their own: play.js signs
    the certificate once the key file is loaded."""
    d = br.driver
    seat = srv.public(game)["to_act"][0]
    sign_in(srv, br, p, game)
    d.execute_script("window.sessionStorage.clear();")
    d.refresh()
    ok(d.find_element(By.ID, "bot-keyload").is_displayed(),
       "no key loader in the bots part of %s's page" % p.name)
    bot_key = os.path.join(work, "bot-%s.key" % p.name)
    bot_pub = keygen(bot_key)
    # Without the key file: the page says so and sends nothing.
    d.find_element(By.ID, "bot-key").send_keys(bot_pub)
    d.find_element(By.ID, "bot-submit").click()
    WebDriverWait(d, 10).until(
        lambda _: "Load your key file first" in text_of(d, "bots-refusal"))
    ok(listed(d) == [], "a certificate was kept without the key")
    # With it: signed in the browser, kept, listed.
    with open(p.key_file + ".pub") as f:
        pub = f.read().strip()
    d.find_element(By.ID, "bot-keyfile").send_keys(p.key_file)
    WebDriverWait(d, 10).until(
        lambda _: pub in text_of(d, "bot-keystate"))
    d.find_element(By.CSS_SELECTOR,
                   "#bot-add input[name=cover][value=all]").click()
    click_and_wait(d, d.find_element(By.ID, "bot-submit"))
    ids = listed(d)
    ok(len(ids) == 1, "own key: %d certificates listed (refusal %r)" % (
        len(ids), text_of(d, "bots-refusal")))
    row = d.find_element(By.CSS_SELECTOR, "tr.bot").text
    ok("all your games" in row and "move" in row, "own key row: %r" % row)
    with open(p.key_file) as f:
        secret = f.read().strip().split(":", 1)[1]
    ok(secret not in d.page_source, "the secret key is in the page")
    br.shot("%s-own-key-delegated" % p.name)
    code, out = bot_reads_seat(srv, bot_key, p, game, seat)
    ok(code == 0, "the bot cannot read %s's seat: %s" % (p.name, out[:300]))
    ok(KIND_DELEGATION in log_kinds(srv, game),
       "the log of game %d has no delegation record" % game)
    srv.ctl("audit", str(game))
    click_and_wait(d, d.find_element(By.CSS_SELECTOR,
                                     "form.bot-revoke button"))
    ok(listed(d) == [], "own key: still listed after Revoke")
    code, out = bot_reads_seat(srv, bot_key, p, game, seat)
    ok(code != 0, "the bot reads the seat after the revocation: %s" %
       out[:200])


def http_rules(srv, p, game):
    """Forms from another site or without the CSRF token keep nothing."""
    cookie = p.cookie[game]
    pub = keygen(os.path.join(srv.work, "bot-http.key"))
    form = "bot=%s&cover=all&scope=moves&expires=2099-01-01&csrf=x" % (
        pub.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"))
    for headers in ({"Sec-Fetch-Site": "cross-site"},
                    {"Origin": "http://evil.example"}, {}):
        status, _, body = http("POST", "%s/play/games/%d/bots" % (
            srv.base, game), form, cookie=cookie, headers=headers)
        ok(status == 403, "a bots form %r: %d" % (headers, status))
    status, _, body = http("GET", "%s/play/games/%d" % (srv.base, game),
                           cookie=cookie)
    ok(status == 200 and 'class="bot"' not in body,
       "a forged form kept a certificate")


def main():
    work = tempfile.mkdtemp(prefix="pbem-web-bots.")
    artifacts = web_e2e.ARTIFACTS
    os.makedirs(artifacts, exist_ok=True)
    srv = Server(work)
    br = None
    started = time.time()
    try:
        srv.ctl("init")
        en = (Player("ann", "en"), Player("amos", "en"))
        fr = (Player("bea", "fr"), Player("basile", "fr"))
        for p in en + fr:
            srv.ctl("player", "add", p.name, "--email", p.email, "--hosted",
                    "--lang", p.lang)
        own = (Player("gus", "en", os.path.join(work, "gus.key")),
               Player("gwen", "en", os.path.join(work, "gwen.key")))
        for p in own:
            keygen(p.key_file)
            srv.ctl("player", "add", p.name, "--key-file",
                    p.key_file + ".pub", "--email", p.email)
        srv.ctl("game", "create", "template", "ann,amos")
        srv.ctl("game", "create", "template", "bea,basile")
        srv.ctl("game", "create", "template", "gus,gwen")
        srv.start()
        br = Browser(work)
        first = en[srv.public(1)["to_act"][0]]
        delegate_and_revoke(srv, br, work, first, 1, {
            "none": "No bot may act for you", "notdone": "Not done:",
            "badkey": "is not a public key", "views": "see your hand only",
            "game": "game %d"})
        print("ok: English hosted player delegated and revoked", flush=True)
        http_rules(srv, first, 1)
        print("ok: forged bots forms refused", flush=True)
        delegate_and_revoke(srv, br, work, fr[srv.public(2)["to_act"][0]],
                            2, {"none": "Aucun robot ne peut agir",
                                "notdone": "Non fait :",
                                "badkey": "n'est pas une clé publique",
                                "views": "voir votre main seulement",
                                "game": "partie %d"})
        print("ok: French hosted player delegated and revoked", flush=True)
        own_key_round(srv, br, work, own[srv.public(3)["to_act"][0]], 3)
        print("ok: own key signed in the browser, delegated and revoked")
        print("ok: %d checks in %.0f s; screenshots in %s" % (
            web_e2e.CHECKS, time.time() - started, artifacts))
    finally:
        web_e2e.tear_down(br, srv, work)


if __name__ == "__main__":
    main()
