"""Wire and persisted shapes: pydantic models, the single source of truth for every boundary."""
