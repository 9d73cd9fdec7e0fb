# tests/: whole-system tests (engine, random play, tampering, CLI).
