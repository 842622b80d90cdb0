"""Every English word of a transformer-block derivation (the attention words are in text_en).

Templates use ``{name}`` fields that :func:`symattn.render.blocks.fill` fills with text or
inline math.  Keep the text ASCII: pdflatex reads it as is.
"""

TEXT: dict[str, str] = {
    "block_title": "A transformer block, step by step",
    # sections
    "section_block_setup": "Setup and conventions",
    "section_positional": "Positional encoding",
    "section_norm": "LayerNorm {N}",
    "section_attention": "Multi-head self-attention",
    "section_self_attention": "Masked (causal) self-attention",
    "section_cross_attention": "Cross-attention to the encoder output",
    "section_residual": "Residual connection {R}",
    "section_ffn": "Feed-forward network",
    "section_unembed": "Final linear layer and softmax",
    "section_block_output": "The output of the block",
    "section_layer": "Layer {k}: {title}",
    # setup
    "block_setup_x": "The input {X} holds {n} token embeddings (rows), each of dimension {d}:",
    "block_setup_memory": (
        "The encoder output {M}, from which cross-attention takes its keys and values, has {n} tokens"
        " of dimension {d}:"
    ),
    "block_setup_positional": ("Sinusoidal positional encodings are added to the embeddings first: {E}."),
    "block_setup_learned": "Learned positional encodings (given as a matrix) are added to the embeddings first: {E}.",
    "block_setup_unembed": "After the last layer a linear layer {L} gives the logits, and a softmax turns them into probabilities.",
    "block_layer_lead": "Layer {k}: ",
    "block_encoder_post": (
        "An encoder layer with post-norm (as in the original Transformer): each sublayer's output is added"
        " to its input, and the sum is normalised."
    ),
    "block_encoder_pre": (
        "An encoder layer with pre-norm: each sublayer reads a normalised copy of the stream, and its output"
        " is added to the stream unnormalised."
    ),
    "block_decoder_post": (
        "A decoder layer with post-norm: masked self-attention, cross-attention to the encoder output, then"
        " the feed-forward network, each added to its input and normalised."
    ),
    "block_decoder_pre": (
        "A decoder layer with pre-norm: masked self-attention, cross-attention to the encoder output, then"
        " the feed-forward network, each reading a normalised copy of the stream."
    ),
    "block_layer_norm": (
        "LayerNorm normalises each token (row) on its own, with the population variance (the mean of the"
        " squared deviations) and {eps} inside the square root; without gains, gamma = 1 and beta = 0:"
    ),
    "block_rms_norm": "RMSNorm divides each token by its root mean square, with {eps} inside the square root:",
    "block_ffn_relu": "The feed-forward network acts on each token separately, with a ReLU in between:",
    "block_ffn_gelu": "The feed-forward network acts on each token separately, with the exact (erf) GELU in between:",
    "block_ffn_gelu_tanh": (
        "The feed-forward network acts on each token separately, with the tanh approximation of GELU in between:"
    ),
    "block_ffn_silu": "The feed-forward network acts on each token separately, with a SiLU in between:",
    "block_ffn_swiglu": "The feed-forward network is SwiGLU (LLaMA's naming of W_1, W_3, W_2):",
    "block_gqa": (
        "Grouped-query attention: the {n} query heads share {kv} key/value heads, each shared by {size}"
        " consecutive query heads."
    ),
    "block_rope_interleaved": (
        "Rotary position embedding (RoPE, base {base}, positions from {start}): in every head, the query and"
        " the key of the token at position m have each pair of columns (2i+1, 2i+2) rotated by the angle"
        " m times {theta}:"
    ),
    "block_rope_concatenated": (
        "Rotary position embedding (RoPE, base {base}, positions from {start}, the rotate-half layout):"
        " in every head, the query and the key of the token at position m have columns i and i + d_k/2"
        " rotated together by the angle m times {theta}:"
    ),
    "block_decoder_masks": (
        "The decoder's self-attention is causal: the score of key j for query i is {inf} when {cond}."
    ),
    # positions
    "positional_learned": "The positional encodings are learned, given here as a matrix:",
    "positional_intro": "The sinusoidal encoding with base {base} and width {d} (Vaswani et al., 2017):",
    "positional_rows": "Positions are counted from {first} to {last}; the token at position pos is row {row}.",
    "positional_frequencies": "The frequencies, one per pair of columns (index {i}):",
    "positional_position": "Position {pos} (row {row}): the angles and their sines and cosines:",
    "positional_matrix": "The whole encoding {P}:",
    "positional_embedded": "Adding it to the embeddings, {E}:",
    # norms
    "norm_rms": "{N} is the RMSNorm of each row of {R}:",
    "norm_intro": "{N}: each of the rows of {R} (length {d}) is normalised on its own.",
    "norm_gain": "The gain and the shift:",
    "norm_row": (
        "Token {i}: the mean of its row, its population variance, the root and the normalised row"
        " (x - mu) / sqrt(sigma^2 + eps):"
    ),
    "norm_row_affine": "then with the gain and the shift, {n}.",
    "norm_matrix": "All the rows, {N}:",
    # attention
    "attention_intro": (
        "Multi-head self-attention reads {source}: in the attention steps below, the input {X} is {source}."
    ),
    "attention_intro_x": "Multi-head self-attention reads the layer's input {X}.",
    "attention_self_x": "Masked self-attention reads the layer's input {X}.",
    "attention_heads": "It has {n} heads.",
    "attention_one_head": "It has one head.",
    "attention_self": (
        "Masked self-attention reads {source}: in the attention steps below, the input {X} is {source}."
    ),
    "attention_cross": (
        "Cross-attention takes its queries from {source} and its keys and values from the encoder output"
        " {M}: in the attention steps below, {X} is {source}."
    ),
    "attention_groups": "The {n} query heads share {kv} key/value heads:",
    "attention_group": "query head {h} uses key/value head {g}",
    "attention_rope": (
        "RoPE rotates the queries and keys after their projections, so below {Q} and {K} are first the"
        " projections and then, once rotated, replaced by their rotations."
    ),
    "attention_heads_together": "The heads together",
    "attention_long": (
        "The closed forms of {source} are long, so the attention is given by its certified decimals,"
        " head by head (the steps are those of the attention sections of a single attention derivation)."
    ),
    "attention_long_output": "The heads' outputs side by side:",
    "attention_long_output_o": "The heads' outputs side by side, projected by {W_O}:",
    "rope_intro": "RoPE's frequencies for {d}, {theta}:",
    "rope_angles": "Row m is the token at position {m}; its angles {phi} and their cosines and sines:",
    "rope_rotated": (
        "Each pair (a, b) of {q} and of {k} becomes (a cos - b sin, a sin + b cos) of its angle;"
        " from here on {Q} and {K} are the rotated matrices:"
    ),
    # residuals
    "residual_intro": "The residual connection adds the sublayer's output {right} to its input {left}, entry by entry:",
    # feed-forward
    "ffn_intro": "The feed-forward network maps each row of {x} to a hidden layer of width {d} and back:",
    "ffn_pre": "The hidden pre-activations {Z}: each row of {x} times {W} plus {b}:",
    "ffn_gate": "The linear half of SwiGLU, {G}: each row of {x} times {W} plus {b}:",
    "ffn_swiglu": "The gated hidden layer, {U}:",
    "ffn_activated": "The activation, entry by entry, {U}:",
    "ffn_zeroed": "ReLU sets the {k} negative pre-activations (of the {n}) to 0:",
    "ffn_zeroed_one": "ReLU sets the one negative pre-activation (of the {n}) to 0:",
    "ffn_zeroed_item": "token {i}, hidden unit {j}: {z}",
    "ffn_zeroed_none": "No pre-activation is negative, so ReLU changes nothing.",
    "ffn_undecided": (
        "The sign of {cells} is not decided within the precision limit; they stay max(0, z), exact."
    ),
    "ffn_relu": "The other units pass unchanged: {U}:",
    "ffn_output": "Back to the model's width, {F}: each row of {U} times {W} plus {b}:",
    # final
    "unembed_intro": "The final linear layer gives the logits {L}: each row of {Y} times {W} plus {b}:",
    "unembed_softmax": "Each row's softmax gives the next-token probabilities, {P}:",
    "block_output": "The output of the block is {Y}:",
    # claims: the stages by their entry symbols (registry.BLOCK)
    "stage_p": "positional encodings",
    "stage_e": "embeddings plus positions",
    "stage_n": "normalised rows",
    "stage_h": "attention output",
    "stage_r": "residual sums",
    "stage_z": "hidden pre-activations",
    "stage_g": "gate",
    "stage_u": "hidden activations",
    "stage_f": "FFN output",
    "stage_l": "logits",
    "stage_P": "probabilities",
    "stage_y": "output",
}
