"""Pretrained models in NumPy, run with the lesson's own ``attention``.

minilm        all-MiniLM-L6-v2 (a 6-layer BERT encoder): ``load_minilm``, the model and the
              trace of one sentence through it
minilm_files  its stored files (config, weights, tokenizer) read into float32 arrays
smollm        SmolLM2-135M-Instruct (a 30-block Llama decoder): ``load_smollm``, the causal
              mask, the KV cache, grouped-query attention and RoPE; ``run`` and ``generate``
smollm_files  its GGUF file converted once (by ``make``) into a cache of float32 arrays
bert_layer    one BERT encoder layer step by step (attention heads, residuals, layer norm,
              GELU feed-forward): the layer MiniLM runs six times and the block lab shows

The files are read with ``safetensors``, ``gguf`` and ``tokenizers``, imported when a model is
loaded.
"""

from attn_core.pretrained.minilm import MiniLM, ModelTrace, load_minilm
from attn_core.pretrained.smollm import DecoderTrace, Generation, SmolLM, load_smollm

__all__ = [
    "DecoderTrace",
    "Generation",
    "MiniLM",
    "ModelTrace",
    "SmolLM",
    "load_minilm",
    "load_smollm",
]
