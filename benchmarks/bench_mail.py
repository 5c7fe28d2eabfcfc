"""Mail throughput: one game master pass over a Maildir of check requests.

    python benchmarks/bench_mail.py [MESSAGES]      (default 1000; target > 50 messages/s)

Builds a fresh 1941 game and a Maildir holding MESSAGES check requests (the Soviet
Union's example orders, each asking for a check, so each is parsed, checked and its
battles' exact odds computed), then times ``GameMaster.run_pass``: reading, extracting,
checking, composing the reply, queuing it in the outbox, journaling (fsync) and filing
the message.  No mail is sent (outbox only).  A script, not a test.
"""

from __future__ import annotations

import email.message
import mailbox
import sys
import tempfile
import time
from pathlib import Path

from adjudicator.cli.mail_command import mail_renderers
from adjudicator.service.games import load_game
from adjudicator.io.paths import TURNS_DIR
from adjudicator.service import gamedir
from adjudicator.service.mail.config import load_config
from adjudicator.service.mail.runner import GameMaster

PLAYERS = {"ussr": "ivan", "germany": "hans", "uk": "tom", "japan": "taro", "usa": "sam"}


def main(count: int = 1000) -> None:
    orders = (TURNS_DIR / "aa1941-example" / "orders" / "01-ussr.txt").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-mail-") as tmp:
        tmp = Path(tmp)
        game_dir, inbox = tmp / "game", tmp / "inbox"
        gamedir.create_game(game_dir, load_game("aa1941"), "bench", created="2026-01-01")
        (game_dir / "mail.toml").write_text(
            'address = "gm@example.org"\n[players]\n'
            + "".join(f'{p} = "{n}@example.org"\n' for p, n in PLAYERS.items())
            + f'[inbox]\ntype = "maildir"\npath = "{inbox}"\n'
            + f"[limits]\nmax_messages_per_pass = {count}\n")
        box = mailbox.Maildir(inbox, create=True)
        for i in range(count):
            msg = email.message.EmailMessage()
            msg["From"] = "Ivan <ivan@example.org>"
            msg["To"] = "gm@example.org"
            msg["Subject"] = "[pbem bench] check please"
            msg["Message-ID"] = f"<check-{i}@example.org>"
            msg.set_content(orders)
            box.add(bytes(msg))
        gm = GameMaster(game_dir, load_config(game_dir),
                        renderers=mail_renderers())
        started = time.perf_counter()
        summary = gm.run_pass()
        elapsed = time.perf_counter() - started
    checked = summary.outcomes.get("checked", 0)
    print(f"{checked} of {count} check requests answered in {elapsed:.2f} s: "
          f"{checked / elapsed:.1f} messages/s (target > 50/s)")
    if checked != count:
        print(f"unexpected outcomes: {summary.line()}")
        sys.exit(1)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
