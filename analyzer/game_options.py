"""Settings a game takes beside its rules options, each with a command-line flag of
its own (Selection's board and deck files).

Declared apart from the registry (``analyzer.variants``), which loads a game's
kernels when that game's entry is built: the command line builds its flags from this
table when it starts, so a command that plays no game (``wantit hand``) loads none.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class GameOption:
    """One game setting: ``name`` is the keyword of the game's driver and replay,
    ``flag`` the option of ``wantit simulate`` / ``deal``."""

    name: str
    flag: str
    help: str
    path: bool = False  # the value is a file


# The settings of each variant that takes any, by the variant's name.
GAME_OPTIONS = {
    "selection": (
        GameOption("board", "--board", "a board file (TOML); default: the PROVISIONAL board", path=True),
        GameOption("deck", "--deck", "standard52 (default), colours, or colours(K, RANKS, COPIES)"),
    ),
}
