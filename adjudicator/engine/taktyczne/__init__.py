"""Taktyczne Starcie's main game, pure: object prices, the map's balance figures and the
setup drawn with the game's dice (the battle board is ``engine.tactical``)."""
