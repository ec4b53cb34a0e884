"""Tests of attn_core.by_hand. A package, so that its file names may repeat other folders'."""
