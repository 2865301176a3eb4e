"""The yard game (docs/rules/reference.md §1): 36 cards, four in hand refilled from the stock, sets
led and beaten one to one, the molodka; a series to 12 loss points.

Its rule set for :mod:`core.ruleset` is :data:`core.yard.ruleset.YARD`.
"""
