"""Tournaments and leagues on top of games: as auditable as the games themselves.

A tournament is a directory (``store``) with its settings (``config``: tournament.toml),
players (``players``), rounds of pairings (``pairing``: Swiss, round robin, ladder), sealed
bids and the bid phase (``bids``), a log of recorded orders (``logbook``), and one normal
signed game directory per game.  The pure core -- pairing, bids, deadlines, results,
standings, ratings -- takes the time as an argument; ``organiser`` is the shell that
reads and writes the files, plays NMR turns at missed deadlines (``tick``) and sends
notices (``notices``: the mail layer's outbox, or plain files); ``verify`` re-checks every
game and recomputes the standings from the games' own files.
"""
