"""The outputs layer: validation, conversion, diagrams and the archive."""
