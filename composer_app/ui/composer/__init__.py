"""The composer: an editor whose context chips are inline text objects over the draft model."""
