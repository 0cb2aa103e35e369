"""The arguments of each training algorithm (a training config's ``args``): one dataclass an
algorithm, with its defaults and checks. They live apart from the learners so that a config
can be read, scaled and checked without loading torch (``cardsim train`` says its plan first).
"""
from __future__ import annotations

from dataclasses import dataclass

from cardsim.errors import InvalidConfigError


@dataclass
class DMCArgs:
    """Arguments of DMC (config key ``args``)."""

    learning_rate: float = 0.0003   # Adam step size
    batch_size: int = 4096          # samples per gradient step
    epsilon: float = 0.05           # share of decisions taken uniformly at random (exploration)
    max_grad_norm: float = 40.0     # gradient norm clip (DouZero's value)
    epochs: int = 1                 # passes over each iteration's samples (1: as they arrive)

    MAX_EPOCHS = 64

    def check(self) -> None:
        """Raise ``InvalidConfigError`` naming the argument unless ``learning_rate`` > 0,
        ``batch_size`` >= 1, ``epsilon`` in [0, 1], ``max_grad_norm`` > 0 and ``epochs`` a
        whole number in 1..``MAX_EPOCHS``."""
        epochs = self.epochs
        if isinstance(epochs, bool) or not isinstance(epochs, int) \
                or not 1 <= epochs <= self.MAX_EPOCHS:
            raise InvalidConfigError(f"epochs must be a whole number in 1..{self.MAX_EPOCHS}, "
                                     f"got {epochs!r}")
        if not self.learning_rate > 0:
            raise InvalidConfigError(f"learning_rate must be > 0, got {self.learning_rate}")
        if self.batch_size < 1:
            raise InvalidConfigError(f"batch_size must be >= 1, got {self.batch_size}")
        if not 0 <= self.epsilon <= 1:
            raise InvalidConfigError(f"epsilon must be in [0, 1], got {self.epsilon}")
        if not self.max_grad_norm > 0:
            raise InvalidConfigError(f"max_grad_norm must be > 0, got {self.max_grad_norm}")


@dataclass
class PPOArgs:
    """Arguments of PPO (config key ``args``)."""

    learning_rate: float = 0.0003   # Adam step size
    epochs: int = 2                 # passes over each iteration's samples
    minibatch_size: int = 8192      # samples per gradient step
    clip: float = 0.2               # ratio clip of the surrogate objective
    value_coef: float = 0.5         # weight of the value loss
    entropy_coef: float = 0.01      # weight of the entropy bonus
    max_grad_norm: float = 0.5      # gradient norm clip

    def check(self) -> None:
        """Raise ``InvalidConfigError`` naming the argument unless ``learning_rate``, ``clip`` and
        ``max_grad_norm`` are > 0, ``epochs`` and ``minibatch_size`` >= 1, and ``value_coef`` and
        ``entropy_coef`` >= 0."""
        for key in ("learning_rate", "clip", "max_grad_norm"):
            if not getattr(self, key) > 0:
                raise InvalidConfigError(f"{key} must be > 0, got {getattr(self, key)}")
        for key in ("epochs", "minibatch_size"):
            if getattr(self, key) < 1:
                raise InvalidConfigError(f"{key} must be >= 1, got {getattr(self, key)}")
        for key in ("value_coef", "entropy_coef"):
            if getattr(self, key) < 0:
                raise InvalidConfigError(f"{key} must be >= 0, got {getattr(self, key)}")


@dataclass
class DistillArgs(DMCArgs):
    """Arguments of distill (config key ``args``): DMC's, and the solver's."""

    samples: int = 0      # 0: label with the actual deal; k: mean over k deals drawn as pimc
    search: str = ""      # options of the pimc agent whose solver labels ("nodes=20000")
    rollouts: int = 0     # k > 0: other decisions' options valued by k heuristic play-outs
    level_weight: float = 1.0  # weight of a labelled decision's level error (see learn)
    playouts: str = "heuristic"  # "network", "network-all": see labels_nb
    prior_margin: float = -1.0  # >= 0: network play-outs over the heuristic (points)
    drawn_contracts: str = ""  # "no_tricks,domino": their early tricks, Domino's cards
                               # labelled as pimc values them
    drawn_rollouts: int = 0    # ... by this many heuristic play-outs of drawn deals
    drawn_phases: str = "play"  # ... those of these phases (play, double, trump, start_rank)
    drawn_weight: float = 1.0  # weight of those contracts' labelled decisions in the loss
    other_weight: float = 1.0  # weight of every other decision (0: those alone are learnt)

    PLAYOUTS = ("heuristic", "network", "network-all")

    def check(self) -> None:
        """DMC's checks, ``samples`` and ``rollouts`` within 0..4096, ``level_weight``
        within [0, 1], ``playouts`` one of ``PLAYOUTS`` (the network's only with
        ``samples`` 0); raises ``InvalidConfigError`` naming the argument."""
        super().check()
        if self.playouts not in self.PLAYOUTS:
            raise InvalidConfigError(f"playouts must be one of {', '.join(self.PLAYOUTS)}, "
                                     f"got {self.playouts!r}")
        if self.playouts != "heuristic" and self.samples != 0:
            raise InvalidConfigError(f"playouts: {self.playouts} plays out the actual deal: "
                                     f"it needs samples: 0, got {self.samples}")
        for key in ("samples", "rollouts"):
            if not 0 <= getattr(self, key) <= 4096:
                raise InvalidConfigError(f"{key} must be in 0..4096, got "
                                         f"{getattr(self, key)}")
        margin = self.prior_margin
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) \
                or not margin < float("inf"):
            raise InvalidConfigError(f"prior_margin must be a number of points, got "
                                     f"{margin!r}")
        if margin >= 0 and self.playouts == "heuristic":
            raise InvalidConfigError(f"prior_margin {margin} sets the network's play-outs over "
                                     f"the heuristic: it needs playouts: network or "
                                     f"network-all")
        if bool(self.contracts()) != (self.drawn_rollouts > 0) \
                or not 0 <= self.drawn_rollouts <= 4096:
            raise InvalidConfigError(
                f"drawn_contracts (contract names, comma-separated) and drawn_rollouts (1..4096) "
                f"go together; got {self.drawn_contracts!r} and {self.drawn_rollouts}")
        from agents.pimc_nb import phase_indices

        try:
            phase_indices(self.phases())
        except ValueError as e:
            raise InvalidConfigError(f"distill argument drawn_phases: {e}") from None
        if not self.phases() or (self.phases() != ("play",) and not self.contracts()):
            raise InvalidConfigError(f"drawn_phases names the phases (comma-separated) that "
                                     f"drawn_contracts labels by drawn deals; got "
                                     f"{self.drawn_phases!r} with drawn_contracts "
                                     f"{self.drawn_contracts!r}")
        if not 0.0 < self.drawn_weight <= 1000.0 or (self.drawn_weight != 1.0
                                                      and not self.contracts()):
            raise InvalidConfigError(f"drawn_weight must be in (0, 1000] and weighs the "
                                     f"decisions of drawn_contracts (none given); got "
                                     f"{self.drawn_weight}")
        if not 0.0 <= self.other_weight <= 1.0 or (self.other_weight != 1.0
                                                    and not self.contracts()):
            raise InvalidConfigError(f"other_weight must be in [0, 1] and weighs the "
                                     f"decisions other than drawn_contracts' labelled ones "
                                     f"(none given); got "
                                     f"{self.other_weight}")
        if not 0.0 <= self.level_weight <= 1.0:
            raise InvalidConfigError(f"level_weight must be in [0, 1], got "
                                     f"{self.level_weight}")


    def contracts(self) -> tuple[str, ...]:
        """The names of ``drawn_contracts``."""
        return comma_names(self.drawn_contracts)

    def phases(self) -> tuple[str, ...]:
        """The names of ``drawn_phases``."""
        return comma_names(self.drawn_phases)


def comma_names(text: str) -> tuple[str, ...]:
    """The names of a comma-separated list, blanks dropped."""
    return tuple(filter(None, (c.strip() for c in text.split(","))))


PRIORS = ("none", "sampler")


@dataclass
class BeliefArgs:
    """Arguments of beliefs (config key ``args``)."""

    learning_rate: float = 0.001    # Adam step size
    batch_size: int = 512           # positions per gradient step
    behaviour: str = "heuristic"    # the compiled agent playing the learner's seats
    max_grad_norm: float = 40.0     # gradient norm clip
    prior: str = "none"             # "sampler": learn over the sampler's own chances
    prior_draws: int = 64           # deals drawn per position for those chances

    def check(self) -> None:
        """Refuse values out of range, naming the argument and what is allowed."""
        if not self.learning_rate > 0:
            raise InvalidConfigError(f"learning_rate must be > 0, got {self.learning_rate}")
        if self.batch_size < 1:
            raise InvalidConfigError(f"batch_size must be >= 1, got {self.batch_size}")
        if not self.max_grad_norm > 0:
            raise InvalidConfigError(f"max_grad_norm must be > 0, got {self.max_grad_norm}")
        if self.prior not in PRIORS:
            raise InvalidConfigError(f"prior must be one of {', '.join(PRIORS)}, got "
                                     f"{self.prior!r}")
        if not 8 <= self.prior_draws <= 4096:
            raise InvalidConfigError(f"prior_draws must be 8..4096, got {self.prior_draws}")
        if not isinstance(self.behaviour, str) or not self.behaviour:
            raise InvalidConfigError("behaviour must be a compiled agent spec, e.g. "
                                     "heuristic or pimc:samples=4")
