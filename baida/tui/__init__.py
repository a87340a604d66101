"""The terminal game's pieces: string tables (``i18n``), tiles and tables as rich renderables
(``tiles``, ``render``), key mapping (``keys``), key input (``keyboard``) and the match loop
(``session``). Rendering is pure: view JSON in, renderables out."""
