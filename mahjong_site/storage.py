"""Static files with hashed names, whatever DEBUG says.

Django's manifest storage gives templates the plain names under DEBUG, so the browser
can't keep them and asks again on every page. `make run` (DEBUG, files collected) uses this
storage: every name carries its content's hash, WhiteNoise sends it cached for a year, and
an edited file gets a new name (docs/accessibility.md, "Compression"). With DEBUG off it is
the plain CompressedManifestStaticFilesStorage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # WhiteNoise ships no type information; its class is Django's, compressing
    from django.contrib.staticfiles.storage import ManifestStaticFilesStorage as Compressed
else:
    from whitenoise.storage import CompressedManifestStaticFilesStorage as Compressed


class HashedStaticFilesStorage(Compressed):
    def url(self, name: str | None, force: bool = False) -> str:
        return super().url(name or "", force=True)
