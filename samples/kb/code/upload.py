"""Uploads with retries: a transient network error should not lose a file."""
import random
import time


class UploadError(Exception):
    """The server refused the upload for good."""


def retry_upload(send, payload, attempts=5, base_delay=0.5):
    """Send `payload`, retrying transient failures with exponential backoff and jitter.

    Each failed attempt waits twice as long as the one before it, plus a random jitter so
    that many clients do not retry in lockstep.
    """
    for attempt in range(attempts):
        try:
            return send(payload)
        except ConnectionError:
            if attempt == attempts - 1:
                raise UploadError("gave up after %d attempts" % attempts)
            time.sleep(base_delay * (2 ** attempt) + random.uniform(0, base_delay))
