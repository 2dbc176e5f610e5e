"""What every fixture script does as a child of the tests: it ends when its launcher goes away."""
import os
import threading


def when_stdin_closes(action):
    """Runs `action` (stop the server, exit) on a daemon thread once stdin closes: the launcher, which
    holds the other end of the pipe, went away (`--exit-on-stdin-eof`)."""

    def watch():
        # os.read, not sys.stdin: a daemon thread parked in a buffered read holds its lock, and the
        # interpreter aborts at exit when it cannot take that lock.
        while os.read(0, 4096):
            pass
        action()

    threading.Thread(target=watch, daemon=True).start()
