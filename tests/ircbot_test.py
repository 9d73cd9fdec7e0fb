#!/usr/bin/env python3
"""ircbot_test.py -- run by tests/ircbot-test.sh (see there): a real
ngircd, pbemd and contrib/ircbot/pbem-ircbot, two scripted players (alice
in English, bob in French) and an observer, a whole Ladder game played
through the bot; then pbemd is stopped and started again (the channel
hears it is away and back, commands say so meanwhile) and a second game
starts, one move played through the bot; then ngircd is stopped and
started again: the bot must come back to the channel by itself and tell
the player to act again, who plays two more moves through it."""
import argparse
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import types
import urllib.error
import urllib.request

CHANNEL = "#pbem"
BOTNICK = "pbembot"
failures = []

# What the bot tells each player, in their language.
SAYS = {
    "en": {"turn": r"your turn \(move (\d+)\).*Legal \(!move \d+ #K\): "
                   r"#1 (.*)$",
           "legal": "#K): ", "accepted": "accepted",
           "no_pick": r"no move #99 in the list",
           "in_channel": r"not played: a move can name a hidden card"},
    "fr": {"turn": r"à vous de jouer \(coup (\d+)\).*Coups \(!move \d+ "
                   r"#K\) : #1 (.*)$",
           "legal": "#K) : ", "accepted": "accepté",
           "no_pick": r"pas de coup n° 99 dans la liste",
           "in_channel": r"non joué : un coup peut nommer une carte cachée"},
}
LANG = {"alice": "en", "bob": "fr"}
AWAY = "the pbem server does not answer; I keep trying"
BACK = "the pbem server answers again"


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, seconds=20):
    until = time.time() + seconds
    while time.time() < until:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


class Client:
    """A scripted IRC user: every line it receives, in order."""

    def __init__(self, port, nick):
        self.nick = nick
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.lines = []
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.send("NICK %s" % nick)
        self.send("USER %s 0 * :%s" % (nick, nick))
        threading.Thread(target=self.read, daemon=True).start()

    def send(self, line):
        self.sock.sendall((line + "\r\n").encode())

    def read(self):
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(4096)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\r\n" in buffer:
                raw, buffer = buffer.split(b"\r\n", 1)
                line = raw.decode("utf-8", "replace")
                if line.startswith("PING"):
                    self.send("PONG" + line[4:])
                with self.changed:
                    self.lines.append(line)
                    self.changed.notify_all()

    def wait_for(self, pattern, start=0, seconds=30):
        """The first line from index start matching pattern, and the
        index after it; (None, start) on timeout."""
        regex = re.compile(pattern)
        until = time.time() + seconds
        with self.changed:
            while True:
                for i in range(start, len(self.lines)):
                    if regex.search(self.lines[i]):
                        return self.lines[i], i + 1
                start = max(start, len(self.lines))
                left = until - time.time()
                if left <= 0:
                    return None, start
                self.changed.wait(left)

    def said_by_bot(self, target):
        """What the bot sent to target (a nick or the channel)."""
        prefix = ":%s!" % BOTNICK
        mark = " PRIVMSG %s :" % target
        with self.lock:
            return [l.split(mark, 1)[1] for l in self.lines
                    if l.startswith(prefix) and mark in l]


def http(url, method="GET", body=None):
    request = urllib.request.Request(url, data=body, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def check_say_splits(bot_path):
    """The bot's say() keeps every PRIVMSG within IRC's line: a long
    move list goes out in pieces broken at spaces, nothing lost."""
    loader = importlib.machinery.SourceFileLoader("pbem_ircbot", bot_path)
    spec = importlib.util.spec_from_loader("pbem_ircbot", loader)
    bot = importlib.util.module_from_spec(spec)
    loader.exec_module(bot)
    sent = []
    fake = types.SimpleNamespace(SAY_BYTES=bot.Bot.SAY_BYTES,
                                 send=sent.append)
    text = " | ".join("#%d prendre Alerte intrus (M%02d), défausser "
                      "Ambassadeur Sarek (G02)" % (i, i) for i in range(40))
    bot.Bot.say(fake, "alice", text + "\nsecond line")
    bodies = [line.split(" :", 1)[1] for line in sent]
    # 512 bytes with CRLF, less a relaying server's ":nick!user@host "
    check(len(sent) > 2 and all(len(line.encode()) + 2 + 105 <= 512
                                for line in sent),
          "a long message goes out in lines IRC takes")
    check(" ".join(bodies[:-1]) == text and bodies[-1] == "second line",
          "nothing of it is lost")


def main():
    parser = argparse.ArgumentParser()
    for option in ("--ngircd", "--bin", "--templates", "--bot"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    check_say_splits(args.bot)
    work = tempfile.mkdtemp(prefix="pbem-ircbot-")
    procs = []
    try:
        run(args, work, procs)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        if failures:
            for name in ("pbemd.log", "bot.log", "ngircd.log"):
                path = os.path.join(work, name)
                if os.path.exists(path):
                    print("---", name, file=sys.stderr)
                    print(open(path).read()[-3000:], file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
    print("ircbot-test: %d failed" % len(failures))
    sys.exit(1 if failures else 0)


def play(observer, players, game, limit):
    """Whoever the bot tells it is their turn answers with the first legal
    move, privately: picked by its number (#1) on every other move, typed
    (the label: Ladder's name no card, so it is the text in the player's
    language) on the others; until the game is over (or limit moves, if
    not 0).  The number of moves played."""
    cursor = {name: 0 for name in players}
    moves = 0
    until = time.time() + 240
    while time.time() < until and (limit == 0 or moves < limit):
        over, _ = observer.wait_for(r"\[game %d\] .*(game over|partie "
                                    r"termin)" % game, seconds=0)
        if over:
            break
        for name, client in players.items():
            if limit and moves >= limit:
                break
            says = SAYS[LANG[name]]
            line, cursor[name] = client.wait_for(
                r"(game|partie) %d, " % game + says["turn"], cursor[name],
                seconds=1)
            if line is None:
                continue
            legal = line.split(says["legal"], 1)[1].split(" | ")[0]
            # "#1 play 5": the number, or the words after it
            legal = "#1" if moves % 2 == 0 else legal.split(" ", 1)[1]
            if moves == 0 and limit == 0:
                # In the channel: refused privately, not played.
                client.send("PRIVMSG %s :!move %d %s" % (CHANNEL, game,
                                                         legal))
                refusal, cursor[name] = client.wait_for(
                    says["in_channel"], cursor[name])
                check(refusal is not None, "a move said in the channel is "
                      "refused privately")
            if moves < 2 and limit == 0:
                # A number the list does not have: told, nothing played.
                client.send("PRIVMSG %s :!move %d #99" % (BOTNICK, game))
                refusal, cursor[name] = client.wait_for(
                    says["no_pick"], cursor[name])
                check(refusal is not None, "%s's !move #99 is refused "
                      "with the reason" % name)
            client.send("PRIVMSG %s :!move %d %s" % (BOTNICK, game, legal))
            answer, cursor[name] = client.wait_for(
                r"(game|partie) %d ?: (.*)" % game, cursor[name])
            check(answer is not None and says["accepted"] in answer,
                  "%s's move through the bot: %s" % (name, answer))
            moves += 1
    return moves


def run(args, work, procs):
    pbem = os.path.join(args.bin, "pbem")
    irc_port, http_port = free_port(), free_port()
    url = "http://127.0.0.1:%d" % http_port
    with open(os.path.join(work, "ngircd.conf"), "w") as conf:
        conf.write("[Global]\nName = irc.pbem.test\nInfo = pbem test\n"
                   "Listen = 127.0.0.1\nPorts = %d\n"
                   "[Limits]\nMaxNickLength = 30\n"
                   "[Options]\nDNS = no\nIdent = no\nPAM = no\n"
                   "[Channel]\nName = %s\nModes = +t\n" % (irc_port, CHANNEL))
    def start_ngircd():
        procs.append(subprocess.Popen(
            [args.ngircd, "-n", "-f", os.path.join(work, "ngircd.conf")],
            stdout=open(os.path.join(work, "ngircd.log"), "a"),
            stderr=subprocess.STDOUT))
        return procs[-1]

    def start_pbemd():
        procs.append(subprocess.Popen(
            [os.path.join(args.bin, "pbemd"), "-d", os.path.join(work, "db"),
             "-p", str(http_port), "-t", args.templates, "-o",
             "rate_per_address=0", "-o", "rate_per_key=0"],
            stderr=open(os.path.join(work, "pbemd.log"), "a")))
        return procs[-1]

    def stop(proc):
        proc.terminate()
        proc.wait(timeout=20)
        procs.remove(proc)

    ngircd = start_ngircd()
    pbemd = start_pbemd()
    check(wait_port(irc_port), "ngircd answers")
    check(wait_port(http_port), "pbemd answers")
    if failures:
        return

    def pbem_run(*argv, stdin=None):
        done = subprocess.run([pbem] + list(argv), cwd=work, input=stdin,
                              capture_output=True)
        return done.returncode, done.stdout.decode() + done.stderr.decode()

    # The players and the bot, each with a key of its own.
    for name in ("alice", "bob", "ircbot"):
        pbem_run("keygen", "-o", name + ".key")
        key = open(os.path.join(work, name + ".key.pub")).read().strip()
        status, _ = http(url + "/v1/players", "POST", json.dumps(
            {"name": name, "key": key,
             "lang": LANG.get(name, "en")}).encode())
        check(status == 201, "register " + name)
    procs.append(subprocess.Popen(
        [sys.executable, args.bot, "--irc", "127.0.0.1:%d" % irc_port,
         "--channel", CHANNEL, "--nick", BOTNICK, "--network", "testnet",
         "--url", url, "--player", "ircbot", "--key",
         os.path.join(work, "ircbot.key"), "--pbem", pbem,
         "--max-backoff", "2"],
        stderr=open(os.path.join(work, "bot.log"), "w")))

    def connect_clients():
        observer = Client(irc_port, "watcher")
        players = {name: Client(irc_port, name) for name in ("alice", "bob")}
        for client in [observer] + list(players.values()):
            client.wait_for(r" 001 ")
            client.send("JOIN " + CHANNEL)
            client.wait_for(r" 366 ")
        return observer, players

    observer, players = connect_clients()
    line, _ = observer.wait_for(r"^:%s!.* JOIN " % BOTNICK, seconds=30)
    check(line is not None, "the bot joins the channel")

    # Each player links their nick: a code by private message, returned
    # with a request signed by their own key.
    for name, client in players.items():
        client.send("PRIVMSG %s :!link" % BOTNICK)
        line, _ = client.wait_for(r"link code is ([a-z0-9]+)")
        check(line is not None, name + " gets a link code")
        if line is None:
            return
        code = re.search(r"link code is ([a-z0-9]+)", line).group(1)
        rc, out = pbem_run("request", "-u", url, "-k", name + ".key", "-p",
                           name, "POST", "/v1/chat/links", "-",
                           stdin=json.dumps({"code": code}).encode())
        check(rc == 0 and '"nick": "%s"' % name in out,
              name + " links the nick: " + out)

    # A Ladder game between them, then each delegates to the bot's key.
    with open(os.path.join(work, "new.json"), "w") as new:
        new.write('{"ruleset": "template", "seats": 2}')
    rc, out = pbem_run("request", "-u", url, "-k", "alice.key", "-p",
                       "alice", "POST", "/v1/games", "new.json")
    check(rc == 0, "alice creates a game: " + out)
    game = json.loads(out)["id"]
    rc, out = pbem_run("request", "-u", url, "-k", "bob.key", "-p", "bob",
                       "POST", "/v1/games/%d/join" % game)
    check(rc == 0, "bob joins: " + out)
    players["alice"].send("PRIVMSG %s :!games" % CHANNEL)
    line, _ = observer.wait_for(r"game %d \(template" % game)
    check(line is not None, "!games answers in the channel")
    for name in players:
        rc, out = pbem_run("delegate", "-u", url, "-k", name + ".key", "-p",
                           name, "-b", "ircbot.key.pub", "-e", "2099-12-31")
        check(rc == 0 and '"created": true' in out, name + " delegates")

    moves = play(observer, players, game, 0)
    over, _ = observer.wait_for(r"game over|partie termin", seconds=10)
    check(over is not None, "the game ends, announced in the channel")
    check(moves >= 6, "the game was played through the bot (%d moves)" % moves)
    players["bob"].send("PRIVMSG %s :!show %d" % (CHANNEL, game))
    line, _ = observer.wait_for(r"game %d \(template\): alice, bob" % game)
    check(line is not None, "!show answers in the channel")

    # Nothing private reached the channel: every line the bot posted
    # there is an event summary or a public answer, none is a line it
    # sent a player privately, and no hand or link code is in it.
    channel = observer.said_by_bot(CHANNEL)
    private = set()
    for name, client in players.items():
        private.update(client.said_by_bot(name))
    check(len(channel) > moves, "the channel got the summaries")
    for text in channel:
        check(text not in private, "a private line in the channel: " + text)
        check(re.match(r"^(\[game \d+\] |game \d+ \()", text) is not None,
              "an unexpected channel line: " + text)
        check("Hand" not in text and "Legal" not in text and
              "code" not in text, "private words in the channel: " + text)
    done = subprocess.run(
        [os.path.join(args.bin, "pbemctl"), "-d", os.path.join(work, "db"),
         "audit", str(game)], capture_output=True, text=True)
    check(done.returncode == 0, "the audit checks the game")
    check("%d moves signed by a bot's key" % moves in done.stdout,
          "the audit counts the bot's moves: " + done.stdout)
    print("ircbot-test: %d moves through the bot, %d lines in the channel:"
          % (moves, len(channel)))
    for text in channel:
        print("  " + text)

    # The pbem server goes away: the channel hears it once, commands say
    # so; it comes back: the channel hears it, commands work again.
    stop(pbemd)
    line, _ = observer.wait_for(re.escape(AWAY), seconds=60)
    check(line is not None, "the channel hears the pbem server is away")
    players["bob"].send("PRIVMSG %s :!games" % CHANNEL)
    line, _ = observer.wait_for(r"does not answer; try again later")
    check(line is not None, "!games says the pbem server is away")
    pbemd = start_pbemd()
    check(wait_port(http_port), "pbemd answers again")
    line, _ = observer.wait_for(re.escape(BACK), seconds=60)
    check(line is not None, "the channel hears the pbem server is back")

    # A second game after the restart: the certificates for all games
    # are recorded when it starts, and the bot plays it.
    rc, out = pbem_run("request", "-u", url, "-k", "bob.key", "-p", "bob",
                       "POST", "/v1/games", "new.json")
    check(rc == 0, "bob creates a second game: " + out)
    second = json.loads(out)["id"]
    rc, out = pbem_run("request", "-u", url, "-k", "alice.key", "-p",
                       "alice", "POST", "/v1/games/%d/join" % second)
    check(rc == 0, "alice joins the second game: " + out)
    more = play(observer, players, second, 1)
    check(more == 1, "a move through the bot after pbemd restarted")
    time.sleep(3)       # the turn that follows is told before IRC goes

    # The IRC server goes away and comes back: the bot connects again by
    # itself (backoff up to 2 s here), is back in the channel, and tells
    # the player whose turn it is again (no event happened since).
    stop(ngircd)
    time.sleep(3)
    ngircd = start_ngircd()
    check(wait_port(irc_port), "ngircd answers again")
    observer, players = connect_clients()
    line, _ = observer.wait_for(r"^:%s!.* JOIN " % BOTNICK, seconds=60)
    check(line is not None, "the bot comes back to the channel after "
          "ngircd restarted")
    players["alice"].send("PRIVMSG %s :!show %d" % (CHANNEL, game))
    line, _ = observer.wait_for(r"game %d \(template\): alice, bob" % game)
    check(line is not None, "!show answers after ngircd restarted")
    more = play(observer, players, second, 2)
    check(more == 2, "the turn is told again after the reconnect, and "
          "played: %d moves" % more)
    channel = observer.said_by_bot(CHANNEL)
    check(all(re.match(r"^(\[game \d+\] |game \d+ \()", t) is not None
              or t in (AWAY, BACK) or "does not answer" in t
              for t in channel),
          "an unexpected channel line after the restarts: %r" % channel)


if __name__ == "__main__":
    main()
