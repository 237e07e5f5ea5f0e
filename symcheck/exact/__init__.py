"""Real arithmetic on expression trees: exact and ball evaluation, certified signs, proved root
sets, case splits of R, and the float64 evaluation of the same trees."""
