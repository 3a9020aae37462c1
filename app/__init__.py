"""Hearts in the browser: rules engine, computer players and web table."""
