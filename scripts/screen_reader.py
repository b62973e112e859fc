"""Listens to Parlour's pages through a real screen reader and writes down what it said.

It starts, each in a throwaway home (HOME and every XDG directory in one temporary folder,
so nothing is written to the real ~/.config or ~/.local): the Parlour server on 127.0.0.1
and a free port with a SQLite store in that folder; a virtual X screen (Xvfb) with openbox,
so that the browser's window can take the keyboard focus; a private D-Bus session with
AT-SPI, the accessibility bus; Orca, speaking through speech-dispatcher and espeak-ng, with
its debug log in a file; and Debian's chromium with its renderer's accessibility forced on,
as an app window (no address bar) on each page in turn. Keys are typed through X with
xdotool, as a player would: Tab through the home page; in each game the keys the page
names (Slapjack: F flips, Space slaps; Slabberjan: S swaps, T stands, D draws; Splunk:
1 to 4 play on a stack, C calls, Space slaps), pressed in answer to what Orca just said.

What Orca said is read back from its debug log (its ``SPEECH OUTPUT: '...'`` lines) and
written, page by page, to a transcript; with --wav, espeak-ng also reads the transcript
into a wav file. Every process it started is ended on the way out, whatever happens.

    .venv/bin/python scripts/screen_reader.py --wav   # every page, to /tmp/parlour-screen-reader
    .venv/bin/python scripts/screen_reader.py --pages slapjack --seconds 30

Needs what ``scripts/setup --screen-reader`` installs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
import urllib.request
import wave
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("home", "slapjack", "slabberjan", "splunk")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--disable-quic", "--force-renderer-accessibility",
                  "--no-default-browser-check", "--password-store=basic",
                  "--window-position=0,0", "--window-size=1280,900"]
SPOKEN = re.compile(r"SPEECH OUTPUT: '(.*)'(?:None|\{.*\})?$")
# the variable that marks every process of one run, so that the ones D-Bus or Orca started
# on their own (at-spi, dconf, speech-dispatcher) are found and ended too
MARK = "PARLOUR_SCREEN_READER_RUN"


@dataclass
class Run:
    """The temporary folder of one run, its environment and the processes it started."""

    folder: Path
    env: dict[str, str] = field(default_factory=dict)
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, args: list[str], log: str, **extra: str) -> subprocess.Popen[bytes]:
        out = open(self.folder / log, "ab")  # noqa: SIM115 - the child keeps it open
        proc = subprocess.Popen(args, env={**self.env, **extra}, stdout=out, stderr=out,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        self.started.append(proc)
        return proc

    def stop(self) -> list[str]:
        """Ends every process of the run, its own first, then any other that carries the
        run's mark; returns what was ended, for the record."""
        ended: list[str] = []
        for proc in reversed(self.started):
            if proc.poll() is None:
                ended.append(f"{proc.pid} {Path(str(proc.args[0])).name}")  # type: ignore[index]
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 5
        for proc in self.started:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
        for pid, name in marked(str(self.folder)):
            ended.append(f"{pid} {name} (started by D-Bus or Orca)")
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return ended


def marked(folder: str) -> list[tuple[int, str]]:
    """The processes whose environment carries this run's mark."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            name = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if f"{MARK}={folder}".encode() in environ.split(b"\0"):
            found.append((int(entry.name), name))
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for(check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise SystemExit(f"screen_reader: {what} did not come in {timeout:.0f} s")


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


def isolated_env(folder: Path) -> dict[str, str]:
    """The environment of every process: a home of its own, accessibility asked for."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("XDG_", "DBUS_", "DISPLAY", "WAYLAND", "AT_SPI"))}
    for name, sub in (("HOME", "home"), ("XDG_CONFIG_HOME", "config"),
                      ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
                      ("XDG_STATE_HOME", "state"), ("XDG_RUNTIME_DIR", "runtime")):
        (folder / sub).mkdir(mode=0o700, exist_ok=True)
        env[name] = str(folder / sub)
    # settings stay in memory: nothing goes to dconf, which is where the real user's
    # toolkit-accessibility would otherwise be switched on for good
    env.update({MARK: str(folder), "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "0",
                "GTK_MODULES": "gail:atk-bridge", "ACCESSIBILITY_ENABLED": "1",
                "GNOME_ACCESSIBILITY": "1", "LANG": "C.UTF-8"})
    return env


def orca_settings(folder: Path) -> Path:
    """Orca's preferences: speech through speech-dispatcher, no structural navigation (its
    one-letter keys, such as F for the next form field, would be taken from the page)."""
    prefs = folder / "orca"
    prefs.mkdir()
    general = {"speechServerFactory": "orca.speechdispatcherfactory", "enableSpeech": True,
               "structuralNavigationEnabled": False, "caretNavigationEnabled": False,
               "enableEchoByWord": False, "enableKeyEcho": False, "firstStart": False,
               "verbalizePunctuationStyle": 1,
               "profile": ["Default", "default"], "activeProfile": ["Default", "default"],
               "startingProfile": ["Default", "default"]}
    conf = {"general": general, "profiles": {"default": {**general}},
            "keybindings": {}, "pronunciations": {}}
    (prefs / "user-settings.conf").write_text(json.dumps(conf, indent=1))
    return prefs


def speech_settings(env: dict[str, str], folder: Path) -> Path:
    """speech-dispatcher's settings for the run: espeak-ng's voice goes through ALSA into a
    file (there is no sound card), kept as raw 16-bit samples; without a device that
    accepts it, speech-dispatcher waits for ever and Orca, waiting on it, hears nothing."""
    config = Path(env["XDG_CONFIG_HOME"]) / "speech-dispatcher"
    shutil.copytree("/etc/speech-dispatcher", config)
    conf = config / "speechd.conf"
    conf.write_text(conf.read_text() + '\nAudioOutputMethod "alsa"\n'
                    'AudioALSADevice "default"\nDefaultModule espeak-ng\n')
    raw = folder / "speech.raw"
    (Path(env["HOME"]) / ".asoundrc").write_text(
        f'pcm.!default {{\n type file\n slave.pcm "null"\n file "{raw}"\n format "raw"\n'
        ' truncate false\n}\n')
    return raw


class Ears:
    """What Orca has said so far, read from its debug log as it grows."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.offset = 0
        self.heard: list[tuple[float, str]] = []
        self.start = time.monotonic()

    def listen(self) -> list[str]:
        """The lines said since the last call."""
        if not self.log.exists():
            return []
        with open(self.log, "rb") as fh:
            fh.seek(self.offset)
            chunk = fh.read()
        cut = chunk.rfind(b"\n") + 1
        self.offset += cut
        new = [m.group(1) for line in chunk[:cut].decode("utf-8", "replace").splitlines()
               if (m := SPOKEN.search(line)) and m.group(1).strip()]
        now = time.monotonic() - self.start
        self.heard.extend((now, text) for text in new)
        return new


def line_by_line(log: Path) -> str:
    """A terminal whose output is copied to the log as it comes, to give Orca as its debug
    file: Orca does not flush that file, so a plain file holds its last lines back until
    it exits (Python buffers each line written to a terminal no longer than the line)."""
    master, slave = os.openpty()
    tty.setraw(slave)  # no carriage returns added to its lines

    def copy() -> None:
        with open(log, "ab") as out:
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                out.write(chunk)
                out.flush()

    threading.Thread(target=copy, daemon=True).start()
    return os.ttyname(slave)


def key(run: Run, window: str, *names: str) -> None:
    subprocess.run(["xdotool", "key", "--window", window, "--clearmodifiers", *names],
                   env=run.env, check=False)


def focus(run: Run, window: str) -> None:
    subprocess.run(["xdotool", "windowactivate", "--sync", window], env=run.env, check=False)
    subprocess.run(["xdotool", "windowfocus", "--sync", window], env=run.env, check=False)


def listen_for(ears: Ears, seconds: float) -> list[str]:
    heard: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        heard += ears.listen()
        time.sleep(0.2)
    return heard


def play(run: Run, window: str, ears: Ears, page: str, seconds: float) -> None:
    """Plays the page by keyboard for about that long, answering what was just said."""
    def press(*names: str) -> None:
        key(run, window, *names)
        ears.heard.append((time.monotonic() - ears.start, f"[pressed {' '.join(names)}]"))

    # the tour a first visit opens: a reader hears its first step, then closes it
    listen_for(ears, 6)
    if page == "home":
        for _ in range(14):
            press("Tab")
            listen_for(ears, 1.5)
        return
    press("Escape")
    listen_for(ears, 2)
    deadline = time.monotonic() + seconds
    stack = 0
    turn = ""  # what the page last said may be done
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        said = " ".join(listen_for(ears, 0.6)).lower()
        if said:
            quiet_since = time.monotonic()
        waited = time.monotonic() - quiet_since > 4
        if page == "slapjack":
            if re.search(r"flips? the jack|jack! slap", said):
                press("space")
            elif "your turn" in said or waited:
                press("f")
                quiet_since = time.monotonic()
        elif page == "slabberjan":
            if "your turn" in said:  # the bar says which keys may be pressed
                turn = said[said.rfind("your turn"):]
            elif "you may" in said:  # the answer to a key not allowed now
                turn = said[said.rfind("you may"):]
            if turn or waited:
                choice = ("s" if "swap" in turn and (stack % 2 == 0 or "stand" not in turn)
                          else "d" if "draw" in turn and stack % 3 == 0 else "t")
                press(choice if turn else "std"[stack % 3])
                stack += 1
                turn = ""
                quiet_since = time.monotonic()
        elif page == "splunk":
            if re.search(r"pair|sandwich|joker", said) and "slap" in said:
                press("space")
            elif "your turn" in said or waited:
                press(str(stack % 4 + 1))
                stack += 1
                quiet_since = time.monotonic()
        if re.search(r"you (won|win|lost|lose)|game over|wins the game", said):
            listen_for(ears, 3)
            return


def listen_to(run: Run, base: str, page: str, seconds: float, ears: Ears) -> None:
    """One chromium app window on the page, played, then closed."""
    url = base + "/" if page == "home" else f"{base}/{page}"
    profile = run.folder / f"chromium-{page}"
    browser = run.start(["/usr/bin/chromium", *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                         f"--app={url}"], f"chromium-{page}.log")
    windows: list[str] = []

    def shown() -> bool:
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "chromium"],
                               env=run.env, capture_output=True, text=True, check=False)
        windows[:] = found.stdout.split()
        return bool(windows)

    wait_for(shown, "chromium's window", 60)
    focus(run, windows[-1])
    play(run, windows[-1], ears, page, seconds)
    browser.terminate()
    try:
        browser.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(browser.pid, signal.SIGKILL)
    listen_for(ears, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", choices=PAGES, default=list(PAGES))
    parser.add_argument("--seconds", type=float, default=45,
                        help="how long to play each game (45)")
    parser.add_argument("--out", type=Path,
                        default=Path(tempfile.gettempdir()) / "parlour-screen-reader",
                        help="folder for transcript.txt, the Orca log and the wav")
    parser.add_argument("--wav", action="store_true",
                        help="also read the transcript into transcript.wav with espeak-ng "
                        "(orca-speech.wav always holds what speech-dispatcher played)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    for tool in ("Xvfb", "openbox", "dbus-daemon", "orca", "xdotool", "espeak-ng"):
        if not shutil.which(tool):
            return print(f"screen_reader: {tool} is missing: run scripts/setup "
                         "--screen-reader", file=sys.stderr) or 2
    args.out.mkdir(parents=True, exist_ok=True)
    run = Run(Path(tempfile.mkdtemp(prefix="parlour-sr-")))
    run.env = isolated_env(run.folder)
    transcript: list[str] = []
    try:
        port = free_port()
        run.start([str(ROOT / ".venv/bin/python"), "-m", "parlour", "serve", "--host",
                   "127.0.0.1", "--port", str(port), "--db", str(run.folder / "parlour.db")],
                  "server.log")
        base = f"http://127.0.0.1:{port}"
        wait_for(lambda: answers(base + "/"), "the server")

        read, write = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0",
                                 "1280x900x24", "-nolisten", "tcp"], env=run.env,
                                pass_fds=(write,), start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run.started.append(xvfb)
        os.close(write)
        with os.fdopen(read) as fh:
            run.env["DISPLAY"] = ":" + fh.readline().strip()
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1",
                                f"--address=unix:path={run.folder}/runtime/bus"],
                               env=run.env, stdout=subprocess.PIPE, start_new_session=True)
        run.started.append(bus)
        assert bus.stdout is not None
        run.env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().decode().strip()
        run.start(["openbox"], "openbox.log")
        run.start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], "at-spi.log")
        time.sleep(1)
        subprocess.run(["dbus-send", "--session", "--dest=org.a11y.Bus", "--print-reply",
                        "/org/a11y/bus", "org.freedesktop.DBus.Properties.Set",
                        "string:org.a11y.Status", "string:IsEnabled", "variant:boolean:true"],
                       env=run.env, capture_output=True, check=False)
        speech_settings(run.env, run.folder)
        orca_log = run.folder / "orca-debug.log"
        run.start(["orca", "--replace", "-u", str(orca_settings(run.folder)),
                   "--debug-file", line_by_line(orca_log)], "orca.log")
        ears = Ears(orca_log)
        wait_for(lambda: bool(ears.listen()) or orca_log.stat().st_size > 20000
                 if orca_log.exists() else False, "Orca", 30)
        listen_for(ears, 2)
        for page in args.pages:
            ears.heard.clear()
            listen_to(run, base, page, args.seconds, ears)
            transcript.append(f"== {page} ({base}/{'' if page == 'home' else page})")
            transcript += [f"{at:6.1f}s  {text}" for at, text in ears.heard]
        if args.wav:  # in the run's home too: espeak-ng's sound library leaves files there
            spoken = "\n".join(line.split("s  ", 1)[1] for line in transcript
                               if "s  " in line and "[pressed" not in line)
            subprocess.run(["espeak-ng", "-w", str(args.out / "transcript.wav"), spoken],
                           env=run.env, check=True)
    finally:
        ended = run.stop()
        for name in ("orca-debug.log", "server.log", "orca.log"):
            if (run.folder / name).exists():
                shutil.copy(run.folder / name, args.out / name)
        raw = run.folder / "speech.raw"
        if raw.exists():  # espeak-ng's own voice as Orca had it read: 16-bit, 22050 Hz, mono
            with wave.open(str(args.out / "orca-speech.wav"), "wb") as out:
                out.setnchannels(1)
                out.setsampwidth(2)
                out.setframerate(22050)
                out.writeframes(raw.read_bytes())
        if not args.keep:
            shutil.rmtree(run.folder, ignore_errors=True)
        (args.out / "transcript.txt").write_text("\n".join(transcript) + "\n")
        print("ended: " + ", ".join(ended), file=sys.stderr)
    print(f"transcript: {args.out / 'transcript.txt'}")
    if args.wav:
        print(f"wav: {args.out / 'transcript.wav'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
