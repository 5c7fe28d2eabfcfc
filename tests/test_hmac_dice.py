"""HMAC dice: the test vectors published in docs/dice-spec.md, and a sanity check of the
distribution.  The vectors are hard-coded here AND in the spec: if this test fails, the
implementation no longer matches the published specification."""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from collections import Counter
from pathlib import Path

import pytest

from adjudicator.model.errors import PbemError
from adjudicator.io.hmac_dice import (
    ALGORITHM, HmacDice, commitment, message_prefix, new_seed, orders_digest, stream,
)
from adjudicator.io.orders_text import canonical_digest

SPEC = Path(__file__).resolve().parent.parent / "docs" / "dice-spec.md"

# (algorithm, seed hex, game id, turn number, orders digest hex, first faces, first block hex)
VECTORS = [
    (
        "pbem-dice-v2",
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "demo-1941",
        1,
        "0f09e97f3690add5a321ac79d0c97e7a0a9456e4dad523c4592ab8eac6b1109f",
        [6, 1, 3, 4, 1, 5, 3, 6, 6, 3, 4, 6, 2, 3, 1, 3, 2, 6, 4, 2],
        "298450272abe32bf9b2c57a1f7141886076b3fa959a4a730465d490eeab6530a",
    ),
    (
        "pbem-dice-v2",
        "65e0abacdbba524d2beaa70fd2af3f4d60ae08fdcb02a0a0c2a6e68306c044ca",
        "Ligue d'été ♞ 1941",
        7,
        "bac982337e1c208a60bfbe26da1c52df28f54054d647ccf359dfb97eaf2e2647",
        [5, 5, 6, 2, 3, 4, 3, 3, 2, 1, 2, 2, 2, 4, 5, 3, 3, 3, 2, 5],
        "8e22fbffb5383fe032f74849f131454050fdb0024340eccab58385f401749d2d",
    ),
    (
        "pbem-dice-v2",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "",
        1099511627779,
        "0000000000000000000000000000000000000000000000000000000000000000",
        [6, 5, 1, 2, 1, 1, 6, 6, 5, 2, 3, 4, 4, 4, 3, 1, 1, 5, 6, 5],
        "2fe296afba54fe653b341f32c945876eba5ac4b9acc90f608c8a4359141db19b",
    ),
    # pbem-dice-v1 (schema 1 games): the digest is of the orders file's exact bytes
    (
        "pbem-dice-v1",
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "demo-1941",
        1,
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        [6, 5, 3, 4, 6, 3, 3, 3, 6, 5, 4, 3, 5, 3, 4, 5, 5, 5, 5, 1],
        "29eeec2d7dc26e68e3582d86e214930464827c9c59cc5545b72ed8805666a4ca",
    ),
    (
        "pbem-dice-v1",
        "65e0abacdbba524d2beaa70fd2af3f4d60ae08fdcb02a0a0c2a6e68306c044ca",
        "Ligue d'été ♞ 1941",
        7,
        "391e14c403138d6926966c47c78d0132040dee73e888ec66ea58439053dec200",
        [6, 5, 1, 3, 6, 2, 6, 3, 1, 3, 1, 3, 2, 4, 4, 4, 3, 5, 1, 2],
        "7de860f2651fc59e9c3edea4cdab0fc9b6ca008591f5473a44c97f7fb1942360",
    ),
    (
        "pbem-dice-v1",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "",
        1099511627779,
        "0000000000000000000000000000000000000000000000000000000000000000",
        [1, 4, 4, 4, 5, 3, 1, 4, 5, 1, 2, 2, 5, 5, 6, 4, 3, 2, 1, 4],
        "06c3bd03b8daa8fd5d5e4861eb9aa01d0998a3cc1bfc9575714bae6ba66dbc16",
    ),
    # pbem-dice-v3 (games with dice keepers): v2 vector 1's canonical digest bound to a
    # 64-byte signature 40 41 ... 7f (V3_SIGNATURE); the digest is bound_digest's
    (
        "pbem-dice-v3",
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "demo-1941",
        1,
        "b8a99ed7242487f67458da73e343d60df010e909fe05e75e806bd150de97335a",
        [3, 2, 6, 2, 1, 6, 4, 6, 4, 2, 1, 3, 6, 1, 6, 5, 3, 6, 3, 5],
        "1adfef190cc5abb951311e7a9b90fb0432c5cefaf02af229e0804e8b4ef647ea",
    ),
]

V3_SIGNATURE = bytes(range(64, 128))
V3_PREFIX = ("7062656d2d646963652d7633000000000964656d6f2d313934310000000000000001"
             "b8a99ed7242487f67458da73e343d60df010e909fe05e75e806bd150de97335a")

# The canonical orders texts whose digests are the v2 vectors 1 and 2.
CANONICAL_TEXTS = {
    "power: Germany\nbuy 2 Infantry, 1 Tank\n":
        "0f09e97f3690add5a321ac79d0c97e7a0a9456e4dad523c4592ab8eac6b1109f",
    "power: Japan\n": "bac982337e1c208a60bfbe26da1c52df28f54054d647ccf359dfb97eaf2e2647",
}

# v2 vector 1, 40 faces: crosses from block 0 into block 1; its message prefix; d20.
VECTOR1_40 = [6, 1, 3, 4, 1, 5, 3, 6, 6, 3, 4, 6, 2, 3, 1, 3, 2, 6, 4, 2,
              6, 3, 6, 1, 5, 4, 2, 3, 1, 3, 6, 5, 5, 4, 6, 4, 3, 5, 6, 4]
VECTOR1_PREFIX = ("7062656d2d646963652d7632000000000964656d6f2d313934310000000000000001"
                  "0f09e97f3690add5a321ac79d0c97e7a0a9456e4dad523c4592ab8eac6b1109f")
VECTOR1_D20 = [2, 13, 1, 20, 3, 11, 11, 12, 16, 5, 8, 2, 1, 5, 15, 8, 8, 4, 10, 10]
# v1 vector 1, the same details.
V1_VECTOR1_40 = [6, 5, 3, 4, 6, 3, 3, 3, 6, 5, 4, 3, 5, 3, 4, 5, 5, 5, 5, 1,
                 6, 1, 2, 4, 4, 5, 1, 3, 3, 1, 3, 5, 5, 3, 6, 4, 2, 4, 4, 5]
V1_VECTOR1_PREFIX = ("7062656d2d646963652d7631000000000964656d6f2d313934310000000000000001"
                     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
V1_VECTOR1_D20 = [2, 19, 17, 6, 6, 15, 11, 5, 8, 9, 6, 15, 7, 1, 8, 5, 1, 11, 5, 17]


@pytest.mark.parametrize("algorithm, seed, game_id, turn, digest, faces, block0", VECTORS)
def test_vectors(algorithm, seed, game_id, turn, digest, faces, block0):
    dice = HmacDice(bytes.fromhex(seed), game_id, turn, bytes.fromhex(digest),
                    algorithm=algorithm)
    assert dice.block(0).hex() == block0
    assert dice.roll(20, "vector") == faces
    # the digest may also be given as "sha256:<hex>", the seed as hex
    assert stream(seed, game_id, turn, "sha256:" + digest, 20, algorithm=algorithm) == faces


def test_new_games_use_v2():
    assert ALGORITHM == "pbem-dice-v2"
    _, seed, game_id, turn, digest, faces, _ = VECTORS[0]
    assert stream(seed, game_id, turn, digest, 20) == faces


def test_canonical_texts_give_the_vector_digests():
    for text, digest in CANONICAL_TEXTS.items():
        assert canonical_digest(text) == "sha256:" + digest


def test_vectors_are_in_the_spec():
    """The spec must show the same numbers the implementation produces."""
    text = SPEC.read_text(encoding="utf-8")
    flat = re.sub(r"\s+", " ", text)
    for algorithm, seed, game_id, turn, digest, faces, block0 in VECTORS:
        assert seed in text and digest in text and block0 in text
        assert str(turn) in text and (game_id in text)
        assert ", ".join(map(str, faces)) in flat
    for faces in (VECTOR1_40, VECTOR1_D20, V1_VECTOR1_40, V1_VECTOR1_D20):
        assert ", ".join(map(str, faces)) in flat
    assert VECTOR1_PREFIX in text and V1_VECTOR1_PREFIX in text and V3_PREFIX in text
    assert V3_SIGNATURE.hex() in flat.replace(" ", "")
    for canonical in CANONICAL_TEXTS:
        assert canonical.replace("\n", "\\n") in text


def test_v3_binds_the_canonical_digest_and_the_signature():
    from adjudicator.io.hmac_dice import ALGORITHM_V3, bound_digest
    v2, v3 = VECTORS[0], VECTORS[-1]
    bound = bound_digest("sha256:" + v2[4], V3_SIGNATURE)
    assert bound == "sha256:" + v3[4]
    assert bound == "sha256:" + hashlib.sha256(bytes.fromhex(v2[4]) + V3_SIGNATURE).hexdigest()
    assert message_prefix("demo-1941", 1, bound, ALGORITHM_V3).hex() == V3_PREFIX
    with pytest.raises(PbemError, match="64 bytes"):
        bound_digest(bound, V3_SIGNATURE[:63])


def test_vector1_details():
    for algorithm, prefix, forty, d20, vector in (
            ("pbem-dice-v2", VECTOR1_PREFIX, VECTOR1_40, VECTOR1_D20, VECTORS[0]),
            ("pbem-dice-v1", V1_VECTOR1_PREFIX, V1_VECTOR1_40, V1_VECTOR1_D20, VECTORS[3])):
        _, seed, game_id, turn, digest, _, _ = vector
        assert message_prefix(game_id, turn, bytes.fromhex(digest), algorithm).hex() == prefix
        dice = HmacDice(seed, game_id, turn, digest, algorithm=algorithm)
        assert dice.roll(7, "a") + dice.roll(0, "b") + dice.roll(33, "c") == forty
        assert dice.log == [("a", forty[:7]), ("b", []), ("c", forty[7:])]
        assert dice.dice_rolled == 40
        assert stream(seed, game_id, turn, digest, 20, sides=20, algorithm=algorithm) == d20


def test_reference_reimplementation():
    """A direct transcription of the spec's algorithm gives the same faces."""
    for algorithm, seed_hex, game_id, turn, digest_hex, _, _ in VECTORS:
        seed, digest = bytes.fromhex(seed_hex), bytes.fromhex(digest_hex)
        gid = game_id.encode("utf-8")
        faces, counter = [], 0
        while len(faces) < 300:
            msg = (algorithm.encode() + b"\x00" + struct.pack(">I", len(gid)) + gid
                   + struct.pack(">Q", turn) + digest + struct.pack(">Q", counter))
            for b in hmac.new(seed, msg, hashlib.sha256).digest():
                if b < 252:
                    faces.append(b % 6 + 1)
            counter += 1
        assert stream(seed, game_id, turn, digest, 300, algorithm=algorithm) == faces[:300]


def test_unknown_algorithm_refused():
    with pytest.raises(PbemError, match="unknown dice algorithm"):
        HmacDice(bytes(32), "g", 1, bytes(32), algorithm="pbem-dice-v9")


def test_purpose_does_not_change_faces():
    a = HmacDice(bytes(32), "g", 3, bytes(32))
    b = HmacDice(bytes(32), "g", 3, bytes(32))
    assert a.roll(10, "karelia attacker") + a.roll(5, "x") == b.roll(15, "something else")


def test_every_input_changes_the_dice():
    base = stream(bytes(32), "g", 3, bytes(32), 40)
    assert stream(b"\x01" + bytes(31), "g", 3, bytes(32), 40) != base
    assert stream(bytes(32), "h", 3, bytes(32), 40) != base
    assert stream(bytes(32), "g", 4, bytes(32), 40) != base
    assert stream(bytes(32), "g", 3, b"\x01" + bytes(31), 40) != base


def test_game_id_is_length_prefixed():
    # Without the length prefix, ("ab", turn) and ("a", ...) could collide; check that the
    # messages differ in layout.
    p1 = message_prefix("ab", 1, bytes(32))
    p2 = message_prefix("a", 1, bytes(32))
    assert p1[13:17] == b"\x00\x00\x00\x02" and p2[13:17] == b"\x00\x00\x00\x01"


def test_rejection_sampling_unbiased_limit():
    for sides in (2, 3, 6, 7, 10, 12, 20, 100, 256):
        dice = HmacDice(bytes(32), "g", 1, bytes(32), sides=sides)
        faces = dice.faces(2000)
        assert min(faces) >= 1 and max(faces) <= sides
    with pytest.raises(PbemError):
        HmacDice(bytes(32), "g", 1, bytes(32), sides=1)
    with pytest.raises(PbemError):
        HmacDice(bytes(32), "g", 1, bytes(32), sides=257)


def test_chi_square_60000_rolls():
    dice = HmacDice(bytes.fromhex(VECTORS[0][1]), "chi-square", 1, bytes(32))
    faces = []
    for _ in range(600):
        faces += dice.roll(100, "chi")
    counts = Counter(faces)
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    expected = len(faces) / 6
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert len(faces) == 60_000
    assert chi2 < 25, (chi2, counts)           # df=5; p(chi2 > 25) ~ 0.00014


def test_commitment_and_helpers():
    seed = new_seed()
    assert len(seed) == 32 and new_seed() != seed
    assert commitment(seed) == "sha256:" + hashlib.sha256(seed).hexdigest()
    assert commitment(bytes(range(32))) == (
        "sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd")
    assert orders_digest(b"") == bytes.fromhex(VECTORS[3][4])
    with pytest.raises(TypeError):
        orders_digest("text")


def test_bad_inputs():
    with pytest.raises(PbemError, match="32 bytes"):
        HmacDice(b"short", "g", 1, bytes(32))
    with pytest.raises(PbemError, match="digest"):
        HmacDice(bytes(32), "g", 1, b"short")
    with pytest.raises(PbemError):
        HmacDice(bytes(32), "g", 1, "sha256:zz")
    with pytest.raises(PbemError, match="turn number"):
        HmacDice(bytes(32), "g", -1, bytes(32))
    with pytest.raises(ValueError):
        HmacDice(bytes(32), "g", 1, bytes(32)).roll(-1, "x")
