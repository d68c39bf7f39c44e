"""A live table: ``state`` (its plain state), ``core`` (the pure rules of the house: each
command changes the state and returns ``effects``), ``view`` (what each viewer is told) and
``actor`` (the mailbox that writes before it tells). Import names from their module."""
