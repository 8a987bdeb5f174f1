"""What users run: the arena, cross-play, analyze, the terminal play screen, reports and the CLI."""
