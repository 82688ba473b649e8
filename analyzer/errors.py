"""The one exception type users see: bad input, explained in one line."""


class WantitError(ValueError):
    """Bad input or an impossible request; the message says what and why."""
