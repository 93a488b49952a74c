"""The `squares` admin command line."""
