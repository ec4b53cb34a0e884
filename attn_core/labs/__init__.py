"""The maths the labs show, and the close-ups beside the steps, one module per idea.

scaling        why divide by sqrt(d_k): spread of the scores, peakedness of the softmax,
               random q and k against the closed forms (Scaling step, Why-scale lab)
softmax_facts  one row of the softmax step by step, temperature, sigmoid, argmax
masking        the additive mask M, a mask ticked cell by cell, masking the wrong way
weighted_sum   a weighted sum split into its parts, row sums, the mean over heads
similarity     dot product against cosine; query, key and value as a search
additive       Bahdanau's additive attention (one query or a whole alignment) and its cost
cross          cross-attention: queries from one sequence, keys and values from another
local          attention within a window, and how many scores it saves
cost           time and memory against T and d, measured; an RNN's sequential steps
normalisation  layer norm against batch norm
decoder_heads  a trained head's habits: previous token, first token, weight on later keys
grouped_query  query heads sharing K/V heads (MHA, GQA, MQA) and the cache each keeps
rope           rotary positions: each pair's angle, and why only m - n matters
kv_cache       a decoder's KV cache: FLOPs and bytes of a step with and without it, measured

Each module is imported on its own (``from attn_core.labs import scaling``).
"""
