"""Every word an output says: the locale files, their words, and the phrases of the
check's reports and the extraction's notes, said again in any language."""
