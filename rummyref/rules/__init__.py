"""Rule sets as data: TOML -> RuleSet, the data files."""
