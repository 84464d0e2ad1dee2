// The agent's modes: one line per analysis.
