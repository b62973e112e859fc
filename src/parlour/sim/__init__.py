"""Simulations: many seeded games between computer players and their statistics."""

from parlour.sim.simulate import SimConfig, play_one, simulate, summarize

__all__ = ["SimConfig", "play_one", "simulate", "summarize"]
