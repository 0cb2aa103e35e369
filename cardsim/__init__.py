"""cardsim: fast self-play simulation and AI training for Debertz and Barbu."""

__version__ = "0.1.0"
