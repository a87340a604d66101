"""The terminal game's pieces: string tables (``i18n``), tiles, the table and the settlement as
rich renderables (``tiles``, ``render``, ``settlement``), key mapping (``keys``), key input
(``keyboard``) and the match loop (``session``). Rendering is pure: view JSON in, renderables
out."""
