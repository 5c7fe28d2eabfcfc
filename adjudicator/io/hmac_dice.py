"""Verifiable dice: HMAC-SHA256 in counter mode, keyed by a committed-then-revealed seed.

The game master commits to a random 32-byte seed (publishing ``sha256(seed)``) *before*
the orders for a turn arrive.  The dice of the turn are then derived from that seed, the
game id, the turn number and a digest of the orders: in ``pbem-dice-v2`` the digest of the
canonical text of the parsed orders (so re-spacing or re-commenting the orders cannot
change the dice), in ``pbem-dice-v1`` (schema 1 games) the digest of the exact bytes, in
``pbem-dice-v3`` (games with dice keepers) the digest of the canonical orders digest and the
mover's Ed25519 signature of the orders (``bound_digest``), which the keeper of the seed
cannot compute in advance even for orders it can guess.
Once the seed is revealed in the turn file anyone can recompute every die offline.
Neither side can steer the dice: the game master is bound to the seed by the commitment,
the player does not know the seed when writing the orders.  The full specification, with
test vectors, is docs/dice-spec.md; keep the two in step.
"""

from __future__ import annotations

import hashlib
import hmac
import struct

from ..model.errors import PbemError

ALGORITHM_V1 = "pbem-dice-v1"    # schema 1 games: bound to the orders file's exact bytes
ALGORITHM_V2 = "pbem-dice-v2"    # bound to the canonical text of the parsed orders
ALGORITHM_V3 = "pbem-dice-v3"    # v2 plus the mover's signature (games with dice keepers)
ALGORITHM = ALGORITHM_V2         # the algorithm of new games with a game master
ALGORITHMS = (ALGORITHM_V1, ALGORITHM_V2, ALGORITHM_V3)
DOMAIN = ALGORITHM.encode("ascii") + b"\x00"
SEED_BYTES = 32
DIGEST_BYTES = 32


def new_seed() -> bytes:
    """32 fresh bytes from the operating system's CSPRNG."""
    import secrets            # only to make a seed (issue 24: start-up)
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The published commitment to ``seed``: ``"sha256:" + hex(sha256(seed))``."""
    return "sha256:" + hashlib.sha256(seed).hexdigest()


def orders_digest(text_bytes: bytes) -> bytes:
    """SHA-256 of the accepted orders file's exact bytes (32 bytes)."""
    if isinstance(text_bytes, str):
        raise TypeError("orders_digest wants the orders file's bytes, not str")
    return hashlib.sha256(text_bytes).digest()


def parse_digest(value: bytes | str) -> bytes:
    """A 32-byte digest from raw bytes, ``"sha256:<hex>"`` or bare hex."""
    if isinstance(value, (bytes, bytearray)):
        raw = bytes(value)
    elif isinstance(value, str):
        text = value[len("sha256:"):] if value.startswith("sha256:") else value
        try:
            raw = bytes.fromhex(text)
        except ValueError:
            raise PbemError(f"not a hex SHA-256 digest: {value!r}") from None
    else:
        raise TypeError(f"digest must be bytes or str, not {type(value).__name__}")
    if len(raw) != DIGEST_BYTES:
        raise PbemError(f"a SHA-256 digest has {DIGEST_BYTES} bytes, this one has {len(raw)}")
    return raw


def bound_digest(canonical_orders_digest: bytes | str, ed25519_signature: bytes) -> str:
    """pbem-dice-v3's orders digest, ``"sha256:<hex>"``: SHA-256 of the 32-byte canonical
    orders digest followed by the 64-byte Ed25519 signature (R || S) of the mover's
    signature of the orders file."""
    signature = bytes(ed25519_signature)
    if len(signature) != 64:
        raise PbemError(f"an Ed25519 signature has 64 bytes, this one has {len(signature)}")
    return "sha256:" + hashlib.sha256(parse_digest(canonical_orders_digest)
                                      + signature).hexdigest()


def parse_seed(value: bytes | str) -> bytes:
    """A seed from raw bytes or hex text; must be exactly 32 bytes."""
    if isinstance(value, str):
        try:
            value = bytes.fromhex(value.strip())
        except ValueError:
            raise PbemError("the seed is not valid hex") from None
    seed = bytes(value)
    if len(seed) != SEED_BYTES:
        raise PbemError(f"a dice seed has {SEED_BYTES} bytes, this one has {len(seed)}")
    return seed


def domain(algorithm: str) -> bytes:
    """The domain-separation label of ``algorithm``: its name and one zero byte."""
    if algorithm not in ALGORITHMS:
        raise PbemError(f"unknown dice algorithm {algorithm!r} (known: {', '.join(ALGORITHMS)})")
    return algorithm.encode("ascii") + b"\x00"


def demo_seed(game_id: str, turn_number: int) -> bytes:
    """The predictable seed of a demo game (SHA-256 of a label, the game id and the turn
    number).  Never for real games: anyone can compute it in advance -- which is also how
    the audit recognises a game played with demo seeds."""
    return hashlib.sha256(f"pbem-demo-seed|{game_id}|{turn_number}".encode()).digest()


def message_prefix(game_id: str, turn_number: int, orders_digest: bytes | str,
                   algorithm: str = ALGORITHM) -> bytes:
    """Every HMAC message except its trailing 8-byte block counter (see dice-spec.md).
    ``orders_digest``: for v2 the canonical orders digest, for v1 the orders file's."""
    gid = game_id.encode("utf-8")
    if len(gid) > 0xFFFFFFFF:
        raise PbemError("game id too long")
    if not 0 <= turn_number < 2 ** 64:
        raise PbemError(f"turn number out of range: {turn_number}")
    return (domain(algorithm) + struct.pack(">I", len(gid)) + gid + struct.pack(">Q", turn_number)
            + parse_digest(orders_digest))


class HmacDice:
    """A ``DiceSource`` whose faces are HMAC-SHA256(seed, prefix || counter) bytes,
    rejection-sampled: byte ``b`` is used only if ``b < 256 - 256 % sides`` and gives the
    face ``b % sides + 1``.  ``log`` records every roll as ``(purpose, faces)``."""

    def __init__(self, seed: bytes | str, game_id: str, turn_number: int,
                 orders_digest: bytes | str, sides: int = 6, algorithm: str = ALGORITHM):
        if not 2 <= sides <= 256:
            raise PbemError(f"dice must have 2..256 sides, not {sides}")
        self.sides = sides
        self.game_id = game_id
        self.turn_number = turn_number
        self._limit = 256 - 256 % sides
        self._mac = hmac.new(parse_seed(seed),
                             message_prefix(game_id, turn_number, orders_digest, algorithm),
                             hashlib.sha256)
        self._counter = 0
        self._pending: list[int] = []   # accepted faces not yet handed out, in stream order
        self.log: list[tuple[str, list[int]]] = []

    # ---------------------------------------------------------------- stream
    def block(self, counter: int) -> bytes:
        """The 32-byte block number ``counter`` of this turn's stream."""
        mac = self._mac.copy()
        mac.update(struct.pack(">Q", counter))
        return mac.digest()

    def _refill(self, wanted: int) -> None:
        limit, sides, pending = self._limit, self.sides, self._pending
        while len(pending) < wanted:
            block = self.block(self._counter)
            self._counter += 1
            pending.extend(b % sides + 1 for b in block if b < limit)

    def faces(self, count: int) -> list[int]:
        """The next ``count`` faces of the stream, without logging them."""
        if count < 0:
            raise ValueError("cannot roll a negative number of dice")
        if len(self._pending) < count:
            self._refill(count)
        out = self._pending[:count]
        del self._pending[:count]
        return out

    # ---------------------------------------------------------------- DiceSource
    def roll(self, count: int, purpose: str = "") -> list[int]:
        out = self.faces(count)
        self.log.append((purpose, list(out)))
        return out

    @property
    def dice_rolled(self) -> int:
        return sum(len(faces) for _, faces in self.log)


def stream(seed: bytes | str, game_id: str, turn_number: int, orders_digest: bytes | str,
           count: int, sides: int = 6, algorithm: str = ALGORITHM) -> list[int]:
    """The first ``count`` faces of a turn's stream (for audits and test vectors)."""
    return HmacDice(seed, game_id, turn_number, orders_digest, sides, algorithm).faces(count)
