"""Paths that every file endpoint of the web app refuses."""


def paths_out_of_the_folder(outside: str, suffix: str, link_words: str) -> list:
    """(path, status, words of the error) for the paths a file endpoint refuses whatever the
    file: ``..`` up to the file ``outside`` beside the folder, an absolute path, a link
    (``link`` + ``suffix``) out of the folder, and a missing file."""
    return [(f"../{outside}", 400, "'..' is refused"),
            ("/etc/passwd", 400, "absolute path"),
            (f"link{suffix}", 400, link_words),
            (f"missing{suffix}", 404, "no such file")]
