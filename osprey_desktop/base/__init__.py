"""Framework base types: planning structures, capabilities, errors and infrastructure nodes."""
