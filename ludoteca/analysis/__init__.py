"""Post-game analysis: each decision of a finished match valued from the deciding seat's
information with a fixed, seeded budget; judgements, accuracy and luck (docs/analysis.md)."""
