"""Game kinds behind one seam, found from the rule set."""
