"""Play by email: a game master's inbox turned into checked, adjudicated, published turns,
and a player's side (send orders, fetch and verify results).

Modules: ``config`` (mail.toml), ``secrets`` (passwords), ``sources`` / ``imap`` /
``maildir`` (inboxes), ``senders`` / ``smtp`` (outgoing mail and the outbox), ``message``
(reading real-world mail), ``extract`` (orders and signatures in a mail), ``compose``
(mails pbem writes), ``journal`` (what happened to each message), ``players`` (who plays
which power, at which address), ``runner`` (the game master's pass), ``player`` (the
player's commands).  Mail content is data only: never a path, never a command.
"""
