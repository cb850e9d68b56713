"""Pure codecs of the context contract: references, prompt helpers, ids, labels, projection,
legacy upgrade and clipboard (docs/contract.md)."""
