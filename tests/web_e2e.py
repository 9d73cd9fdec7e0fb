#!/usr/bin/python3
"""web_e2e.py -- the player's web page in a real browser (tests/web-e2e.sh).

Starts pbemd on a free loopback port with a temporary database and the
Maildir outbox, registers players whose keys the server holds, and plays
whole games of Ladder (template), Star Trek Missions (stmissions) and
Enterprise vs Excelsior (eve), and a whole Missions game where one player
has a key of their own loaded into the page, only by clicking in headless
Chromium: each move starts from the sign-in link of the seat's latest
your-turn mail (mail/out/new), presses Continue, and -- for most moves --
clicks the cards the move uses, checks that the moves left all use them,
and presses the move's button.  After every move it checks that no card
the seat may not see is in the page (DOM text and source) or in the
public answers, using the seat's own view and the full state from
pbemctl, and that the last moves show the move as the button did (in the
player's language).  It also checks the HTTP rules of the sign-in and the
forms with plain requests: GET spends nothing, a link works once, the
cookie's flags, a form without the right CSRF token, a POST from another
site (Sec-Fetch-Site, Origin), a session of another game, no session.
PBEM_WEB_SAMPLE=1 plays only a few moves of the Missions, eve and own-key
games.

Arguments: BUILD_DIR SRC_DIR ARTIFACTS_DIR.  Exit 0 pass, 1 fail.
"""
import email
import email.policy
import html
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

BUILD, SRC, ARTIFACTS = sys.argv[1], sys.argv[2], sys.argv[3]
PBEMD = os.path.join(BUILD, "daemon", "pbemd")
PBEMCTL = os.path.join(BUILD, "daemon", "pbemctl")
CHECKS = 0


def fail(msg):
    print("FAIL: " + msg, flush=True)
    raise SystemExit(1)


def ok(cond, msg):
    global CHECKS
    CHECKS += 1
    if not cond:
        fail(msg)


def tear_down(br, srv, work):
    """Quit the browser (br may be None), stop pbemd and remove the work
    folder, unless PBEM_KEEP_E2E=1 asks to keep it."""
    if br is not None:
        br.driver.quit()
    srv.stop()
    if os.environ.get("PBEM_KEEP_E2E") == "1":
        print("kept " + work)
    else:
        shutil.rmtree(work, ignore_errors=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def http(method, url, data=None, cookie=None, headers=None):
    """(status, headers, body text) without following redirects."""
    req = urllib.request.Request(url, method=method,
                                 data=data.encode() if data is not None
                                 else None)
    if cookie:
        req.add_header("Cookie", "pbem_session=" + cookie)
    for name, value in (headers or {}).items():
        req.add_header(name, value)
    try:
        with OPENER.open(req, timeout=30) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


class Server:
    def __init__(self, work):
        self.work = work
        self.db = os.path.join(work, "pbem.db")
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.outbox = os.path.join(work, "mail", "out", "new")
        self.parsed = {}    # mail file name -> (To, Subject, sign-in link)
        self.proc = None

    def ctl(self, *args):
        r = subprocess.run([PBEMCTL, "-d", self.db] + list(args),
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            fail("pbemctl %s: %s" % (" ".join(args), r.stderr.strip()))
        return r.stdout

    def start(self):
        conf = os.path.join(self.work, "pbemd.conf")
        with open(conf, "w") as f:
            f.write("database = %s\nlog = %s\n" % (
                self.db, os.path.join(self.work, "pbemd.log")))
            f.write("mail_maildir_out = %s\n" % os.path.join(
                self.work, "mail", "out"))
            f.write("mail_maildir_in = %s\n" % os.path.join(
                self.work, "mail", "in"))
            f.write("mail_send_interval_ms = 100\n")
            f.write("public_base_url = %s\n" % self.base)
        env = dict(os.environ, PBEM_TEMPLATES=os.path.join(SRC, "templates"))
        self.proc = subprocess.Popen([PBEMD, "-c", conf, "-p",
                                      str(self.port)], env=env,
                                     stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(
                                         self.work, "pbemd.err"), "w"))
        for _ in range(200):
            try:
                if http("GET", self.base + "/v1/health")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        fail("pbemd does not answer on %s" % self.base)

    def stop(self):
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def view(self, game, seat=None):
        args = ["view", str(game)]
        args += ["--full"] if seat is None else ["--seat", str(seat)]
        return json.loads(self.ctl(*args))

    def public(self, game):
        status, _, body = http("GET", "%s/v1/games/%d" % (self.base, game))
        ok(status == 200, "GET /v1/games/%d: %d" % (game, status))
        return json.loads(body)

    def links(self, address, game):
        """The sign-in links of the your-turn mails to address about
        game, oldest first."""
        found = []
        if not os.path.isdir(self.outbox):
            return found
        def rowid(name):
            m = re.match(r"pbem-out-(\d+)", name)
            return int(m.group(1)) if m else 0
        for name in sorted(os.listdir(self.outbox), key=rowid):
            # A delivered mail never changes: each is parsed once.
            if name not in self.parsed:
                with open(os.path.join(self.outbox, name), "rb") as f:
                    msg = email.message_from_binary_file(
                        f, policy=email.policy.default)
                body = msg.get_body(("plain",)).get_content()
                m = re.search(re.escape(self.base) +
                              r"/play/[0-9a-f]{32}", body)
                self.parsed[name] = (str(msg["To"]), str(msg["Subject"]),
                                     m.group(0) if m else None)
            to, subject, link = self.parsed[name]
            if address not in to or ("[pbem #%d]" % game) not in subject:
                continue
            if link:
                found.append(link)
        return found


class Player:
    def __init__(self, name, lang, key_file=None):
        self.key_file = key_file    # a key of their own, or hosted
        self.name = name
        self.email = name + "@pbem.test"
        self.lang = lang
        self.used = set()
        self.cookie = {}    # game -> session cookie value


def names_in(value, out):
    """Every name_en / name_fr string and plain string of a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("name_en", "name_fr") and isinstance(v, str):
                out.add(v)
            names_in(v, out)
    elif isinstance(value, list):
        for v in value:
            names_in(v, out)
    elif isinstance(value, str):
        out.add(value)
    return out


def find_key(value, key):
    """The non-null values of key anywhere in a JSON value."""
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key and v is not None:
                found.append(v)
            found.extend(find_key(v, key))
    elif isinstance(value, list):
        for v in value:
            found.extend(find_key(v, key))
    return found


def hidden_names(full, own, seat):
    """Names the seat may not see: in the other seats' hands and in the
    decks' order of the full state, and nowhere in the seat's view."""
    secret = set()
    hands = full.get("hands")
    if isinstance(hands, list):
        for s, hand in enumerate(hands):
            if s != seat:
                names_in(hand, secret)
    for key in ("galaxy_order", "mission_order", "deck", "travel_deck"):
        names_in(full.get(key), secret)
    for s in full.get("seats", []):
        if isinstance(s, dict) and s.get("seat") != seat:
            names_in(s.get("hand"), secret)
            names_in(s.get("hand_cards"), secret)
            names_in(s.get("deck"), secret)
    # A name the seat's own view holds anywhere (its cards, the discard
    # area, a bonus naming another card) may be shown.
    visible = json.dumps(own, ensure_ascii=False)
    # Short words (numbers, kinds) stand in many places: only names.
    return {n for n in secret if len(n) >= 6 and n not in visible}


# game -> the card names its public view has ever shown (the discard
# area): a card taken from there into a hand was seen by the whole
# table, and the one-line summaries say so ("bruno took Distress Call
# from the discard area"), as issue 13 asks.
SEEN_PUBLIC = {}


def check_secrets(srv, game, seat, texts, where, views=None):
    """views: (full, own) already read for this state, or None."""
    full, own = views if views else (srv.view(game), srv.view(game, seat))
    seen = SEEN_PUBLIC.setdefault(game, set())
    public = srv.public(game)
    names_in(public, seen)
    # Once a Star Trek: Missions game has ended, its public view names
    # the holder of Meddlesome Q (q_seat), who makes the final draw
    # (docs/stmissions.md section 5): that card's name is public then.
    if find_key(public, "q_seat"):
        seen.update(("Meddlesome Q", "Q l'importun"))
    for name in hidden_names(full, own, seat) - seen:
        # A public name that contains this one ("Computer Virus" holds
        # "Computer") does not name it.
        longer = sorted((n for n in seen if name in n and n != name),
                        key=len, reverse=True)
        for t in texts:
            for n in longer:
                t = t.replace(n, "#")
            at = t.find(name)
            ok(at < 0, "%s: hidden card %r of game %d shown to seat %d: "
               "...%s..." % (where, name, game, seat,
                             t[max(0, at - 60):at + 60]))
    return full, own


def hand_drawn(driver):
    return driver.execute_script("""
        return Array.from(document.querySelectorAll(
            "section.hand svg.card")).map(function (svg) {
            return Array.from(svg.querySelectorAll("text.card-name"))
                .map(function (t) { return t.textContent; }).join(" ")
                .replace(/- /g, "-");
        });""")


def own_hand_names(own, seat, lang):
    if isinstance(own.get("hand"), list):
        return [c["name_" + lang] for c in own["hand"]]
    for s in own.get("seats", []):
        if s.get("seat") == seat:
            if "hand_cards" in s:
                return [c["name_" + lang] for c in s["hand_cards"]]
            return [str(c) for c in s.get("hand", [])]
    return []


class Browser:
    def __init__(self, work):
        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
                  "--disable-dev-shm-usage", "--window-size=1200,1400",
                  "--user-data-dir=" + os.path.join(work, "chromium")):
            opts.add_argument(a)
        self.driver = webdriver.Chrome(
            service=Service("/usr/bin/chromedriver"), options=opts)
        self.driver.set_page_load_timeout(30)
        self.shots = 0

    def shot(self, label):
        self.shots += 1
        self.driver.save_screenshot(os.path.join(
            ARTIFACTS, "%03d-%s.png" % (self.shots, label)))


def click_and_wait(driver, element):
    """Click element and wait until the page it leads to is in."""
    def gone(_):
        # Stale, or caught mid-navigation (Chromium then answers "node
        # does not belong to the document"): the old page is gone.
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True

    element.click()
    WebDriverWait(driver, 30).until(gone)
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script("return document.readyState") ==
        "complete")


def sign_in(srv, br, p, game, wait=2.0):
    """Sign p in to game with the newest unused link of their mail, or
    put back their session of that game if no new link comes (a seat
    that acts twice in a row gets no new your-turn mail)."""
    d = br.driver
    deadline = time.time() + wait
    link = None
    while time.time() < deadline:
        fresh = [l for l in srv.links(p.email, game) if l not in p.used]
        if fresh:
            link = fresh[-1]
            break
        time.sleep(0.1)
    if link is None:
        ok(game in p.cookie, "no your-turn mail with a link for %s in game "
           "%d" % (p.name, game))
        d.get(srv.base + "/play/static/play.css")
        d.delete_all_cookies()
        d.add_cookie({"name": "pbem_session", "value": p.cookie[game],
                      "path": "/play/", "httpOnly": True})
        d.get("%s/play/games/%d" % (srv.base, game))
        return
    p.used.add(link)
    d.delete_all_cookies()
    d.get(link)
    ok(d.find_element(By.ID, "continue") is not None, "no Continue button")
    click_and_wait(d, d.find_element(By.ID, "continue"))
    ok(d.current_url.endswith("/play/games/%d" % game),
       "after Continue: at %s" % d.current_url)
    c = d.get_cookie("pbem_session")
    ok(c is not None and c.get("httpOnly") and c.get("sameSite") == "Strict"
       and c.get("path") == "/play/", "session cookie flags: %r" % (c,))
    p.cookie[game] = c["value"]


def load_key(d, p):
    """Load p's own key file into the seat page, unless this tab holds
    it already (play.js keeps it in sessionStorage)."""
    state = d.find_element(By.ID, "keystate")
    ok(d.find_element(By.ID, "keyload").is_displayed(),
       "no key loader on the page of %s, who has a key of their own" %
       p.name)
    with open(p.key_file + ".pub") as f:
        pub = f.read().strip()
    if pub not in state.text:
        d.find_element(By.ID, "keyfile").send_keys(p.key_file)
        WebDriverWait(d, 10).until(lambda _: pub in state.text)
    with open(p.key_file) as f:
        secret = f.read().strip().split(":", 1)[1]
    ok(secret not in d.page_source, "the secret key is in the page")


# Every move button of the page in one call (each WebDriver call is a
# round trip, and a Missions page has dozens of buttons): its label, the
# move text its form posts, the cards it involves as the server marked
# them, and whether the card choice still offers it.
MOVES_JS = """
    return Array.from(document.querySelectorAll("form.move")).map(
        function (f) {
        var c = f.getAttribute("data-cards");
        return { label: f.querySelector("button").textContent,
                 text: f.elements.move.value,
                 cards: c ? c.split("|") : [], shown: !f.hidden };
    });"""


def moves_of(d):
    return d.execute_script(MOVES_JS)


# The keyword of the first word of a move, in English and French, for
# the modules whose every move starts with one (Ladder: "play 5" is
# "jouer 5").
KEYWORDS = {"play": "jouer"}


def cards_by_id(own):
    """The cards of the seat's view that have an id (Missions: its hand
    and the discard area), by id."""
    cards = {}
    for key in ("hand", "discard"):
        for c in own.get(key) or []:
            if isinstance(c, dict) and "id" in c and "name_en" in c:
                cards[c["id"]] = c
    return cards


def check_labels(moves, p, game, seat, own):
    """Buttons name the cards of their move by name, in the player's
    language, with the id beside it ("take Computer (G12)"); English
    players' buttons of moves naming no such card show the legal move
    texts; French players' show them translated: at least one differs on
    each page, and a move starting with a known English keyword starts
    with its French one."""
    pairs = [(m["label"], m["text"]) for m in moves]
    cards = cards_by_id(own)
    named = 0
    for label, text in pairs:
        ids = [i for i in cards if re.search(r"\b%s\b" % re.escape(i),
                                              text)]
        for i in ids:
            want = "%s (%s)" % (cards[i]["name_" + p.lang], i)
            ok(want in label,
               "game %d seat %d: button %r for %r does not say %r" % (
                   game, seat, label, text, want))
            named += 1
        if p.lang == "en" and not ids:
            ok(label == text,
               "game %d seat %d (English): button %r for %r" % (
                   game, seat, label, text))
    if cards:
        ok(named > 0, "game %d seat %d: no button names a card: %r" % (
            game, seat, pairs))
    if p.lang == "en":
        return
    ok(any(label != text for label, text in pairs),
       "game %d seat %d (French): buttons not translated: %r" % (
           game, seat, pairs))
    for label, text in pairs:
        word = text.split(" ", 1)[0]
        if word in KEYWORDS:
            ok(label.startswith(KEYWORDS[word] + " "),
               "game %d seat %d (French): button %r for %r" % (
                   game, seat, label, text))


def pick_cards(d, moves, index, game, seat, keyboard):
    """Build move number index of the page (moves: moves_of()) by
    clicking its cards: after each click, every move still offered
    involves every chosen card, the chosen move is among them, and the
    cards are marked chosen.  With keyboard, the cards are chosen with
    the keyboard (Enter, Space) instead, and the clear button is tried
    first.  Returns the number of moves left offered."""
    cards = moves[index]["cards"]
    ok(d.find_element(By.ID, "pick").is_displayed(),
       "game %d seat %d: no card-picking help on the page" % (game, seat))
    def slot_of(ref):
        # The first card of that ref (two cards of one type share it).
        return d.find_element(By.CSS_SELECTOR, '.card-slot[data-card="%s"]'
                              % ref.replace('"', '\\"'))

    if keyboard:
        slot = slot_of(cards[0])
        slot.send_keys(Keys.ENTER)
        ok(slot.get_attribute("aria-pressed") == "true",
           "game %d: Enter did not choose card %s" % (game, cards[0]))
        d.find_element(By.ID, "pick-clear").click()
        ok(slot.get_attribute("aria-pressed") == "false" and
           all(m["shown"] for m in moves_of(d)),
           "game %d: clearing the choice did not bring every move back" %
           game)
    chosen = []
    for ref in cards:
        slot = slot_of(ref)
        ok(slot.get_attribute("tabindex") == "0" and
           slot.get_attribute("role") == "button",
           "game %d: card %s cannot be reached by keyboard" % (game, ref))
        if keyboard:
            slot.send_keys(Keys.SPACE)
        else:
            slot.click()
        chosen.append(ref)
        ok(slot.get_attribute("aria-pressed") == "true",
           "game %d: card %s not marked chosen" % (game, ref))
        now = moves_of(d)
        ok(now[index]["shown"], "game %d seat %d: the move %r is gone after "
           "choosing %r" % (game, seat, now[index]["text"], chosen))
        for m in now:
            ok(m["shown"] == all(c in m["cards"] for c in chosen),
               "game %d seat %d: move %r %s after choosing %r" % (
                   game, seat, m["text"], "offered" if m["shown"] else
                   "hidden", chosen))
    state = d.find_element(By.ID, "pick-state").text
    ok(all(c in state for c in chosen), "game %d: the choice says %r, "
       "not %r" % (game, state, chosen))
    return sum(1 for m in moves_of(d) if m["shown"])


def play_game(srv, br, players, game, max_moves, rng, label, picks=None,
              prefer=None):
    """Click moves until the game is over (or max_moves).  A move that
    involves cards is built by clicking them first (pick_cards()); picks
    (a dict) counts those moves and the moves offered afterwards.
    prefer (a test on a move text): nine moves in ten are chosen among
    the moves it accepts, when there are any, so that a long game ends."""
    d = br.driver
    moves = 0
    last = None
    if picks is None:
        picks = {}
    while moves < max_moves:
        pub = srv.public(game)
        if pub.get("over") or not pub.get("to_act"):
            break
        seat = pub["to_act"][0]
        p = players[seat]
        # A seat that acts again at once gets no new your-turn mail.
        sign_in(srv, br, p, game, 0.5 if seat == last else 3.0)
        last = seat
        src = d.page_source
        full, own = check_secrets(srv, game, seat, [
            src, html.unescape(src),
            d.find_element(By.TAG_NAME, "body").text],
            "seat page before move %d" % (moves + 1))
        drawn = hand_drawn(d)
        want = own_hand_names(own, seat, p.lang)
        ok(sorted(" ".join(w.split()) for w in drawn) ==
           sorted(" ".join(w.split()) for w in want) or not want,
           "game %d seat %d: hand drawn %r, view says %r" % (
               game, seat, drawn, want))
        # Missions cards carry the id the move buttons name them by.
        ids = d.execute_script("""return Array.from(document
            .querySelectorAll("section.hand svg.card text.card-id"))
            .map(function (t) { return t.textContent; });""")
        want_ids = [c["id"] for c in own.get("hand", [])
                    if isinstance(c, dict) and "id" in c]
        ok(sorted(ids) == sorted(want_ids),
           "game %d seat %d: card ids drawn %r, view says %r" % (
               game, seat, ids, want_ids))
        moves_here = moves_of(d)
        ok(len(moves_here) > 0, "game %d seat %d: no move button" % (
            game, seat))
        if p.key_file is not None:
            load_key(d, p)
        if moves < 2:
            br.shot("%s-seat%d-move%d" % (label, seat, moves + 1))
        check_labels(moves_here, p, game, seat, own)
        # Moves with cards first, so that most moves are built by
        # clicking cards.
        pool = list(range(len(moves_here)))
        if prefer is not None:
            liked = [i for i in pool if prefer(moves_here[i]["text"])]
            if liked and rng.random() < 0.9:
                pool = liked
        with_cards = [i for i in pool if moves_here[i]["cards"]]
        index = rng.choice(with_cards if with_cards and rng.random() < 0.8
                           else pool)
        # The button shows the move in the player's language; the form
        # posts the legal move text, and the last moves show it as the
        # button did.
        text, shown = moves_here[index]["text"], moves_here[index]["label"]
        if moves_here[index]["cards"]:
            left = pick_cards(d, moves_here, index, game, seat,
                              picks.get("moves", 0) == 0)
            picks["moves"] = picks.get("moves", 0) + 1
            picks["left"] = picks.get("left", 0) + left
            picks["offered"] = picks.get("offered", 0) + len(moves_here)
            if picks["moves"] <= 2:
                br.shot("%s-seat%d-picked%d" % (label, seat, picks["moves"]))
        choice = d.find_elements(By.CSS_SELECTOR,
                                 "button.move-button")[index]
        click_and_wait(d, choice)
        ok(d.current_url.endswith("/play/games/%d" % game),
           "after a move: at %s" % d.current_url)
        ok(not d.find_elements(By.ID, "refusal"),
           "game %d: move %r refused: %s" % (game, text, d.page_source[:400]))
        items = d.find_elements(By.CSS_SELECTOR, "section.last li")
        ok(items and p.name in items[0].text and shown in items[0].text,
           "game %d: the last moves do not start with %s's %r: %r" % (
               game, p.name, shown, [li.text for li in items[:2]]))
        if shown != text:
            picks["translated"] = picks.get("translated", 0) + 1
        if not srv.public(game).get("over"):
            for li in items:
                mine = re.match(r"\S+ \d+ ?: %s( |$)" % p.name, li.text)
                ok(mine or "\u2014" not in li.text,
                   "game %d: another seat's move text shown to %s: %r" % (
                       game, p.name, li.text))
        src = d.page_source
        status, _, body = http("GET", "%s/v1/games/%d/events?after=0" % (
            srv.base, game))
        check_secrets(srv, game, seat, [src, html.unescape(src), body],
                      "seat page and events after move %r" % text)
        moves += 1
    br.shot("%s-end" % label)
    return moves


def http_rules(srv, players, game):
    """The sign-in and the forms with plain requests."""
    a = players[srv.public(game)["to_act"][0]]
    for _ in range(100):
        links = [l for l in srv.links(a.email, game) if l not in a.used]
        if links:
            break
        time.sleep(0.1)
    ok(links, "no fresh link for %s" % a.name)
    link = links[-1]
    a.used.add(link)
    for _ in range(2):
        status, hdr, body = http("GET", link)
        ok(status == 200 and 'method="post"' in body,
           "GET of a sign-in link: %d" % status)
        ok("script-src 'self'" in hdr.get("Content-Security-Policy", "") and
           "frame-ancestors 'none'" in hdr["Content-Security-Policy"],
           "CSP: %r" % hdr.get("Content-Security-Policy"))
    # Login CSRF: another site's form posting the link is refused and
    # spends nothing (the link still works below).
    for name, value in (("Sec-Fetch-Site", "cross-site"),
                        ("Sec-Fetch-Site", "same-site"),
                        ("Origin", "http://evil.example"),
                        ("Origin", "null")):
        status, hdr, body = http("POST", link, "", headers={name: value})
        ok(status == 403 and "another web site" in body and
           "autre site web" in body and "Set-Cookie" not in hdr,
           "a sign-in POST with %s: %s: %d %s" % (name, value, status,
                                                   body[:200]))
    status, hdr, body = http("POST", link, "", headers={
        "Origin": srv.base, "Sec-Fetch-Site": "same-origin"})
    ok(status == 303, "POST of a sign-in link: %d" % status)
    cookie = hdr.get("Set-Cookie", "")
    ok(re.match(r"pbem_session=[0-9a-f]{64}; ", cookie) and "HttpOnly" in
       cookie and "SameSite=Strict" in cookie and "Path=/play/" in cookie
       and "Secure" not in cookie, "Set-Cookie: %r" % cookie)
    session = cookie.split(";")[0].split("=")[1]
    status, _, body = http("POST", link, "")
    ok(status == 410 and ("used already" in body or "déjà servi" in body),
       "a link used twice: %d %s" % (status, body[:300]))
    status, _, body = http("POST", srv.base + "/play/" + "0" * 32, "")
    ok(status == 404 and ("not known" in body or "inconnu" in body),
       "an unknown link: %d" % status)
    status, _, body = http("GET", "%s/play/games/%d" % (srv.base, game))
    ok(status == 401, "the seat page without a session: %d" % status)
    status, _, body = http("GET", "%s/play/games/%d" % (srv.base, game + 1),
                           cookie=session)
    ok(status == 403, "a session of another game: %d" % status)
    status, _, body = http("POST", "%s/play/games/%d/move" % (
        srv.base, game + 1), "move=x&seq=1&csrf=" + "0" * 32, session)
    ok(status == 403, "a move with a session of another game: %d" % status)
    status, _, page = http("GET", "%s/play/games/%d" % (srv.base, game),
                           cookie=session)
    ok(status == 200, "the seat page: %d" % status)
    m = re.search(r'name="csrf" value="([0-9a-f]{32})"', page)
    ok(m is not None, "no CSRF token in the seat page")
    seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
    move = html.unescape(re.search(r'name="move" value="([^"]*)"',
                                   page).group(1))
    before = srv.public(game)["next_seq"]
    status, _, body = http("POST", "%s/play/games/%d/move" % (srv.base, game),
                           "move=%s&seq=%s&csrf=%s" % (
                               urllib.parse.quote(move), seq, "1" * 32),
                           session)
    ok(status == 403, "a move with a bad CSRF token: %d" % status)
    status, _, body = http("POST", "%s/play/games/%d/move" % (srv.base, game),
                           "move=%s&seq=%s" % (urllib.parse.quote(move),
                                               seq), session)
    ok(status == 403, "a move without a CSRF token: %d" % status)
    for name, value in (("Sec-Fetch-Site", "cross-site"),
                        ("Origin", "http://127.0.0.1:1")):
        status, _, body = http("POST", "%s/play/games/%d/move" % (
            srv.base, game), "move=%s&seq=%s&csrf=%s" % (
                urllib.parse.quote(move), seq, m.group(1)), session,
            headers={name: value})
        ok(status == 403 and "another web site" in body,
           "a cross-site move (%s: %s): %d" % (name, value, status))
    status, _, body = http("POST", "%s/play/games/%d/move" % (srv.base, game),
                           "move=fly+away&seq=%s&csrf=%s" % (seq, m.group(1)),
                           session)
    ok(status in (409, 422) and 'id="refusal"' in body,
       "an illegal move: %d" % status)
    ok(srv.public(game)["next_seq"] == before,
       "refused moves changed the game")
    a.cookie[game] = session


def http_sign_in(srv, link, game):
    """Sign in with link by plain HTTP: (session cookie, CSRF token,
    first move text, seq) of the seat page."""
    status, hdr, _ = http("POST", link, "")
    ok(status == 303, "sign-in for game %d: %d" % (game, status))
    session = hdr["Set-Cookie"].split(";")[0].split("=")[1]
    status, _, page = http("GET", "%s/play/games/%d" % (srv.base, game),
                           cookie=session)
    csrf = re.search(r'name="csrf" value="([0-9a-f]{32})"', page).group(1)
    move = html.unescape(re.search(r'name="move" value="([^"]*)"',
                                   page).group(1))
    seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
    return session, csrf, move, seq


def replaced_seat(srv, ivan, kate, game):
    """A session whose seat has since gone to another player can neither
    see the seat nor move for it."""
    seat = srv.public(game)["to_act"][0]
    for _ in range(100):
        links = [l for l in srv.links(ivan.email, game) if l not in ivan.used]
        if links:
            break
        time.sleep(0.1)
    ok(links, "no link for %s in game %d" % (ivan.name, game))
    session, csrf, move, _ = http_sign_in(srv, links[-1], game)
    srv.ctl("replace", str(game), str(seat), kate.name)
    status, _, body = http("GET", "%s/play/games/%d" % (srv.base, game),
                           cookie=session)
    ok(status == 403 and "no longer yours" in body,
       "the page of a seat given to another: %d" % status)
    before = srv.public(game)["next_seq"]
    status, _, body = http("POST", "%s/play/games/%d/move" % (srv.base, game),
                           "move=%s&seq=%d&csrf=%s" % (
                               urllib.parse.quote(move), before, csrf),
                           session)
    ok(status == 403 and srv.public(game)["next_seq"] == before,
       "a move for a seat given to another: %d" % status)


def fresh_link(srv, p, game):
    """The newest unused sign-in link of p's mail about game."""
    for _ in range(100):
        links = [l for l in srv.links(p.email, game) if l not in p.used]
        if links:
            p.used.add(links[-1])
            return links[-1]
        time.sleep(0.1)
    fail("no link for %s in game %d" % (p.name, game))


def live_update(srv, br, players, game):
    """With seat A's page open and waiting, seat B moves through plain
    HTTP (its own sign-in link and the move form): A's page reloads by
    itself (play.js's long-poll of the public events) within 30 s and
    shows A's turn."""
    d = br.driver
    a = players[srv.public(game)["to_act"][0]]
    b = players[1 - players.index(a)]
    sign_in(srv, br, a, game, 3.0)
    click_and_wait(d, d.find_elements(By.CSS_SELECTOR,
                                      "button.move-button")[0])
    ok(not d.find_elements(By.CSS_SELECTOR, "button.move-button"),
       "game %d: %s has move buttons after moving" % (game, a.name))
    seq = int(d.find_element(By.TAG_NAME, "body").get_attribute("data-seq"))
    # A mark that a reload of the page drops.
    d.execute_script("document.body.setAttribute('data-mark', '1');")
    session, csrf, move, bseq = http_sign_in(srv, fresh_link(srv, b, game),
                                             game)
    started = time.time()
    status, _, _ = http("POST", "%s/play/games/%d/move" % (srv.base, game),
                        "move=%s&seq=%s&csrf=%s" % (
                            urllib.parse.quote(move), bseq, csrf), session)
    ok(status == 303, "%s's move by HTTP: %d" % (b.name, status))

    def updated(drv):
        try:
            body = drv.find_element(By.TAG_NAME, "body")
            return body.get_attribute("data-mark") is None and \
                int(body.get_attribute("data-seq")) > seq and \
                drv.find_elements(By.CSS_SELECTOR, "button.move-button")
        except (WebDriverException, TypeError, ValueError):
            return False
    try:
        WebDriverWait(d, 30, poll_frequency=0.2).until(updated)
    except WebDriverException:
        fail("game %d: %s's page did not update by itself within 30 s of "
             "%s's move" % (game, a.name, b.name))
    items = d.find_elements(By.CSS_SELECTOR, "section.last li")
    ok(items and b.name in items[0].text,
       "game %d: after the update the last moves do not start with %s's: "
       "%r" % (game, b.name, [li.text for li in items[:2]]))
    print("ok: %s's page updated by itself %.1f s after %s's move" % (
        a.name, time.time() - started, b.name))


def main():
    work = tempfile.mkdtemp(prefix="pbem-web-e2e.")
    os.makedirs(ARTIFACTS, exist_ok=True)
    for f in os.listdir(ARTIFACTS):
        os.unlink(os.path.join(ARTIFACTS, f))
    srv = Server(work)
    br = None
    started = time.time()
    try:
        srv.ctl("init")
        alice, bob = Player("alice", "en"), Player("bob", "fr")
        carol, dave = Player("carol", "fr"), Player("dave", "en")
        erin, frank = Player("erin", "en"), Player("frank", "en")
        for p in (alice, bob, carol, dave, erin, frank):
            srv.ctl("player", "add", p.name, "--email", p.email, "--hosted",
                    "--lang", p.lang)
        srv.ctl("game", "create", "template", "alice,bob")
        srv.ctl("game", "create", "stmissions", "carol,dave")
        srv.ctl("game", "create", "eve", "erin,frank")
        gina = Player("gina", "en", os.path.join(work, "gina.key"))
        hank = Player("hank", "fr")
        r = subprocess.run([os.path.join(BUILD, "daemon", "pbem"), "keygen",
                            "-o", gina.key_file], capture_output=True,
                           text=True)
        ok(r.returncode == 0, "pbem keygen: %s" % r.stderr)
        srv.ctl("player", "add", "gina", "--key-file", gina.key_file + ".pub",
                "--email", gina.email)
        srv.ctl("player", "add", "hank", "--email", hank.email, "--hosted",
                "--lang", "fr")
        srv.ctl("game", "create", "stmissions", "gina,hank")
        for name in ("ivan", "judy", "kate"):
            srv.ctl("player", "add", name, "--email", name + "@pbem.test",
                    "--hosted")
        srv.ctl("game", "create", "template", "ivan,judy")
        lara, mike = Player("lara", "en"), Player("mike", "fr")
        for p in (lara, mike):
            srv.ctl("player", "add", p.name, "--email", p.email, "--hosted",
                    "--lang", p.lang)
        srv.ctl("game", "create", "template", "lara,mike")
        srv.start()
        http_rules(srv, (alice, bob), 1)
        ivan, judy = Player("ivan", "en"), Player("judy", "en")
        acting = (ivan, judy)[srv.public(5)["to_act"][0]]
        replaced_seat(srv, acting, Player("kate", "en"), 5)
        br = Browser(work)
        rng = random.Random(12)
        n = play_game(srv, br, (alice, bob), 1, 200, rng, "ladder")
        ok(srv.public(1).get("over"), "Ladder not over after %d moves" % n)
        print("ok: Ladder played to its end in %d clicked moves (%.0f s)" % (
            n, time.time() - started))
        # PBEM_WEB_SAMPLE=1 (run-all.sh's distcheck and sanitizer runs):
        # the first moves of the Missions, Enterprise vs Excelsior and
        # own-key games, not all of them -- the whole games are played by
        # the first run.
        sample = os.environ.get("PBEM_WEB_SAMPLE") == "1"
        picks = {}
        n = play_game(srv, br, (carol, dave), 2, 8 if sample else 400, rng,
                      "stmissions", picks)
        ok(sample or srv.public(2).get("over"),
           "Missions not over after %d moves" % n)
        # The card-picking: most Missions moves name cards, and choosing
        # them narrows the moves offered.
        ok(picks.get("moves", 0) >= min(3, n // 2) and
           picks.get("left", 0) < picks.get("offered", 0),
           "Missions: %r moves built by clicking cards" % (picks,))
        ok(picks.get("translated", 0) > 0, "Missions: carol (French) saw no "
           "move of hers in French in the last moves")
        print("ok: Star Trek Missions, %d clicked moves%s, %d built by "
              "clicking cards, %d buttons left of %d offered (%.0f s)" % (
                  n, " (a sample)" if sample else " to its end",
                  picks["moves"], picks["left"], picks["offered"],
                  time.time() - started))
        picks = {}
        # Random turns make an Enterprise vs Excelsior game very long
        # (extending the route, passing): most turns fly and do not
        # extend.
        n = play_game(srv, br, (erin, frank), 3, 6 if sample else 600, rng,
                      "eve", picks, lambda t: "fly" in t and
                      "extend" not in t)
        ok(sample or srv.public(3).get("over"),
           "Enterprise vs Excelsior not over after %d moves" % n)
        print("ok: Enterprise vs Excelsior, %d clicked moves%s, %d built "
              "by clicking cards (%.0f s)" % (
                  n, " (a sample)" if sample else " to its end",
                  picks.get("moves", 0), time.time() - started))
        picks = {}
        n = play_game(srv, br, (gina, hank), 4, 6 if sample else 400, rng,
                      "ownkey", picks)
        ok(sample or srv.public(4).get("over"),
           "game 4 not over after %d moves" % n)
        ok(picks.get("moves", 0) > 0, "game 4: no move built by clicking "
           "cards")
        audit = srv.ctl("audit", "4")
        ok("seat 1, web" in audit and "seat 0" not in audit.split(
            "hosted key:")[-1], "game 4: gina's moves are not her own "
           "key's: %s" % audit[-300:])
        print("ok: Star Trek Missions with a key of one's own in the page, "
              "%d clicked moves%s (%.0f s)" % (
                  n, " (a sample)" if sample else " to its end",
                  time.time() - started))
        live_update(srv, br, (lara, mike), 6)
        br.driver.get(srv.base + "/play/games/3/public")
        ok("Enterprise" in br.driver.page_source and
           br.driver.find_elements(By.CSS_SELECTOR, "svg.route"),
           "the public page of game 3 has no route")
        words = br.driver.find_element(By.TAG_NAME, "body").text
        ok("erin (seat" in words and "frank (seat" in words,
           "the public page's game in words does not name erin and frank: "
           "%r" % words[-600:])
        br.shot("eve-public")
        audit = srv.ctl("audit", "1")
        ok("web" in audit, "the audit of game 1 names no move by a web "
           "session: %s" % audit[-400:])
        print("ok: %d checks in %.0f s; screenshots in %s" % (
            CHECKS, time.time() - started, ARTIFACTS))
    finally:
        tear_down(br, srv, work)


if __name__ == "__main__":
    main()
