"""The 玩法 page of each ruleset as data, in Chinese and English, for a table's options.

``rules_page(ruleset, options)`` gives ``{"ruleset", "title", "options", "items", "sections"}``:
``items`` is the scorers' own catalogue (``baida.scoring.catalogue``: every item they can
award, its id, names, meaning and value); ``sections`` are the page's headings and blocks, in
order. A block is one of

* ``{"type": "text", "text": T}``, ``{"type": "list", "items": [T, ...]}``;
* ``{"type": "items", "group": id}``: one group of ``items`` shown here;
* ``{"type": "hands", "hands": [...]}``: example hands, each scored by the scorer itself when
  the page is built (``legal``, the items it awards, the total), so an example cannot say
  what the rules do not;
* ``{"type": "tiles", "rows": [{"tiles": [faces], "caption": T}]}``;
* ``{"type": "table", "head": [T, ...], "rows": [[T, ...], ...]}``

where ``T`` is ``{"zh": ..., "en": ...}``. Numbers that a table's options or the engine fix
(the 三摊 threshold, the 黄牌 point, the shares...) come from them, never from the text.
"""

from .page import PAGES, UNITS, BookError, query_options, rules_page

__all__ = ["PAGES", "UNITS", "BookError", "query_options", "rules_page"]
