"""Running experiments: YAML configs and their checks, run directories (atomic files, resume),
executors (local threads, Ray), progress lines, simulations, seating agents, plots and summaries.
"""
