"""One observation encoder per game (``ludoteca.rl.encode``); each game's registry entry
names its ``Encoder`` class. Seats are listed relative to the observer: slot 0 is the observer,
slot 1 the next seat in seat order, and so on (sides likewise), so one policy serves every
seat."""
