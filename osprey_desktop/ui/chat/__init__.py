"""Chat: transcript, input and the panel that holds them with Send and Stop."""
