"""Computer players: Easy, Normal and Hard for each game, seeing only what a seat may see."""
