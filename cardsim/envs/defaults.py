"""Defaults shared by every environment of the package, so that the single-seat envs, the
batched self-play and its VectorEnv give the same numbers for the same arguments."""

# Rewards are recorded points (Debertz D9) or deal scores (Barbu B7.3) times this: a
# typical deal is then worth a few units, a scale that suits value networks.
REWARD_SCALE = 0.01

# Gymnasium's default autoreset mode: the step that ends an episode returns its final
# observation, and the next step starts the next episode (ignoring that env's action).
AUTORESET = "next_step"
