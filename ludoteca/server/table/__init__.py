"""A live table: ``core`` (the pure rules of the house), ``view`` (what each viewer is told)
and ``actor`` (the mailbox that writes before it tells). Import names from their module."""
