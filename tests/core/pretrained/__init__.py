"""Tests of attn_core.pretrained. A package, so that its file names may repeat other folders'."""
