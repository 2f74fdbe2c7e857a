"""The settings the test suite runs with: the site's own, with a SECRET_KEY of its own.

Without DEBUG the site refuses to start without SECRET_KEY (mahjong_site/settings.py); the
suite runs with DEBUG off, as production does, so it sets a key here, before the settings
are read. Processes the tests start inherit it through the environment.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-suite-key-never-used-outside-the-tests-0123456789")

from mahjong_site.settings import *  # noqa: E402,F403

# Rate limits are off for the suite (a test uploading many documents would hit them); the
# tests of the limits turn them on with a settings override (tests/test_quotas.py).
RATE_LIMITS_ENABLED = False

# The values pass plays hands out many times: tests that want it turn it on (or call it).
VALUES_AFTER_ANNOTATION = False
