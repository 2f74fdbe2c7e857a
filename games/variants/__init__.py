"""The variants: one module each (:mod:`~games.variants.jiaxing`,
:mod:`~games.variants.putian`, :mod:`~games.variants.sichuan`) with its scoring class and
its table class, the registry that names them (:mod:`~games.variants.registry`, the only
list of variants) and the position reader (:mod:`~games.variants.positions`: a position
names its variant).

Imports: :mod:`games.core`. A new variant is one module here and one line in the
registry (docs/variants.md).
"""

from games.variants.positions import read_position
from games.variants.registry import NAMES, VARIANTS, table_class, variant_named

__all__ = ["NAMES", "VARIANTS", "read_position", "table_class", "variant_named"]
