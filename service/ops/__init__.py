"""What an operator runs the service with: its settings, logs and metrics, the
background retention sweep, and the one way an app lets go of what it opened."""
