"""Statistics and charts computed from the record."""
