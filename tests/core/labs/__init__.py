"""Tests of attn_core.labs. A package, so that its file names may repeat other folders'."""
