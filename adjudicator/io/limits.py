"""Size bounds on every file pbem reads, checked before anything is expanded.

A game directory may come from anyone (a copy to audit, a mail attachment), so every
number and every size it can hold is bounded; a file over a bound is refused with a
message naming the bound.  The orders-text bounds are in ``orders_text``.  Documented in
docs/turn-files.md ("Limits").
"""

from __future__ import annotations

MAX_JSON_BYTES = 8 * 1024 * 1024     # game.json or one turn file (the example's are 12-32 KB)
MAX_SIGNATURE_BYTES = 4096           # an armored SSHSIG is about 300 bytes
MAX_KEY_BYTES = 16 * 1024            # an OpenSSH key file or .pub
MAX_KNOWN_BYTES = 4 * 1024 * 1024    # a file of recorded turn digests (pbem verify --known)
MAX_JSON_NUMBER_CHARS = 18           # any number literal in a JSON file (fits in 64 bits)
MAX_JSON_DEPTH = 64                  # nesting of lists/objects in any JSON read (ours: < 12)
MAX_UNITS = 10_000                   # units in one game state, cargo included (1941: ~300)
MAX_IPCS = 1_000_000                 # a power's treasury, either sign
MAX_ROUND = 10_000
MAX_TURN_NUMBER = 1_000_000
MAX_PLAYERS = 64                     # entries of game.json's players
MAX_SHORT_TEXT = 1000                # ids, names, addresses, key lines, program strings
