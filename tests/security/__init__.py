"""Attacks from outside, over real sockets against a real ``ludoteca serve`` (issue 23)."""
