"""The HTTP side every request of the Flask app shares: its hooks (`hooks`)."""
