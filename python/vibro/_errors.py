"""The package's exceptions (the extension raises InputError too, with the command line's message)."""


class InputError(ValueError):
    """Bad input (unknown model, key or value out of range): the message `vibro` prints after
    "vibro: error: ", raised before any case runs."""


class FileError(OSError):
    """A file that is not a readable vibro sweep or branch file; the message names the file."""
