"""The clock window of a match: `launch.open_clock_window(ctx, match_id)` (RULES §7, §5)."""
