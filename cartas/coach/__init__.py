"""The coach: odds-backed advice with its reason and numbers, for truco and for 21.

`cartas.coach.truco.advise(spot)` / `advise_truco(spot)` and
`cartas.coach.vinte_e_um.advise_player(...)` / `advise_banker(...)`. Imports nothing from
Jupyter; every answer is deterministic for its inputs (truco's Monte Carlo is seeded).
"""
