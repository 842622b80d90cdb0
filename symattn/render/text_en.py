"""Every English word of a derivation, in one place.

Templates use ``{name}`` fields that :func:`symattn.render.blocks.fill` fills
with text or inline math.  Keep the text ASCII: pdflatex reads it as is.
"""

TEXT: dict[str, str] = {
    "title": "Scaled dot-product attention, step by step",
    "intro": (
        "Every value below is exact. Decimals are rounded to {digits} places"
        " (half away from zero) from certified enclosures, so every printed digit is correct."
    ),
    "head": "Head {k}",
    "comma": ", ",
    "and": " and ",
    # sections, numbered by compose: "{n}. {title}"
    "section": "{n}. {title}",
    "section_setup": "Setup",
    "section_projections": "Queries, keys and values",
    "section_scores": "Scores",
    "section_softmax": "Softmax, row by row",
    "section_output": "Output: weighted sums of the values",
    "section_analysis": "What each output vector is made of",
    "section_claims": "Checking the claimed numbers",
    "section_concat": "Concatenating the heads",
    "section_projection_o": "Output projection",
    "column": "Column {first} of {total} of {name}:",
    "columns": "Columns {first} to {last} of {total} of {name}:",
    # 1. setup
    "setup_x": "The input {X} has {n} tokens (rows), each a vector of dimension {d}:",
    "setup_x_one": "The input {X} has 1 token (one row), a vector of dimension {d}:",
    "setup_x_kv_one": (
        "Keys and values come from a second sequence {X_kv} (cross-attention), with 1 token of dimension {d}:"
    ),
    "setup_x_kv": (
        "Keys and values come from a second sequence {X_kv} (cross-attention),"
        " with {n} tokens of dimension {d}:"
    ),
    "setup_same_x": "The input {X} is the one above.",
    "setup_weights": "The projection matrices {W_Q}, {W_K} and {W_V} are:",
    "setup_dk": "The queries and keys have dimension {d_k}, so the scores are scaled by {factor}.",
    "setup_dk_custom": "The queries and keys have dimension {d_k}; the scores are multiplied by {factor}.",
    "setup_causal": (
        "A causal mask applies: a token attends only to itself and to earlier tokens,"
        " so the score of key j for query i is set to {inf} when {cond}."
    ),
    "setup_mask": "A mask applies: masked scores are set to {inf} and get weight 0.",
    "setup_symbolic": (
        "The inputs contain symbols, so every result is given in closed form only; no decimals are printed."
    ),
    # 2. projections
    "projection_intro": "Each token is projected to a query, a key and a value: {Q}, {K} and {V}.",
    # 3. scores
    "scores_intro": "The score of query i against key j is their dot product, so {S} is {Q} times the transpose of {K}:",
    "scores_dots": "Entry by entry, each score is the dot product of query row {q} and key row {k}:",
    "scaled_intro": "Scaling by {factor} (exact):",
    "scaled_intro_custom": "Scaling by {factor} (exact):",
    "scaled_masked": "The mask {M} adds 0 where a query may look and {inf} where it may not:",
    # 4. softmax
    "softmax_intro": "Each row of the scaled scores becomes a probability distribution: {formula}.",
    "softmax_row": "Row {i}. The exponentials of the scaled scores:",
    "softmax_row_labelled": "Row {i} (query {label}). The exponentials of the scaled scores:",
    "softmax_shift": (
        "Dividing every numerator and the denominator by {e}, the smallest exponential,"
        " leaves the weights unchanged and gives their simplest closed form:"
    ),
    "softmax_sum": (
        "The weights of row {i} share the denominator {D}, and their numerators add up to it,"
        " so the row sums to exactly 1:"
    ),
    "softmax_sum_unverified": "The closed forms of row {i} could not be shown to add up to 1 structurally.",
    "softmax_matrix": "All the attention weights {A}:",
    "softmax_named_intro": (
        "The exponents here are long fractions, so each distinct exponential is named once,"
        " as {t}, with its certified decimal, and each row's shared denominator once, as {D}."
        " In each row the exponentials are divided by the row's smallest one, which leaves"
        " the weights unchanged."
    ),
    "softmax_named_row": "Row {i}. The exponentials of the scaled scores, divided by the smallest, {e}:",
    "softmax_named_row_labelled": (
        "Row {i} (query {label}). The exponentials of the scaled scores, divided by the smallest, {e}:"
    ),
    "softmax_named_new": "The new names:",
    "softmax_named_sum": (
        "The weights of row {i} share the denominator {D}, the sum of these terms,"
        " so they add up to exactly 1:"
    ),
    # 5. output
    "output_intro": "Output row i is the weighted sum {formula} of the value vectors {v}, the rows of {V}.",
    "output_row": "Output row {i}, term by term:",
    "output_row_labelled": "Output row {i} (query {label}), term by term:",
    "output_matrix": "The whole output {O}:",
    # 6. analysis
    "analysis_intro": (
        "Each output vector is a mix of the value vectors: the weight says how much of each"
        " input token it takes, the contribution is that share of the token's value."
    ),
    "analysis_row": "{o} is made of:",
    "analysis_row_labelled": "{o}, the new vector of {label}, is made of:",
    "analysis_item": "{key}: weight {weight}, contribution {term}",
    "analysis_dominant": "The largest share comes from {key}, with weight {weight}.",
    "analysis_tie": "The largest share, weight {weight}, is shared exactly by {keys}.",
    "analysis_undecided": "Which token gets the largest weight depends on the values of the symbols.",
    "key": "token {j}",
    "key_labelled": "token {j} ({label})",
    # 7. importance
    "left_out_importance_tokens": "The section 'How important is each token?' is left out, as the example has more than 3 tokens; symattn derive --sections all (or sections = [\"all\"] in the spec) includes it.",
    "left_out_importance_heads": "The sections 'What each output vector is made of' and 'How important is each token?' are left out, as the example has more than one head; symattn derive --sections all (or sections = [\"all\"] in the spec) includes them.",
    "section_importance": "How important is each token?",
    "importance_intro": (
        "Three measures of how much token j matters for output i, side by side: the attention weight {a};"
        " the norm-based contribution {n}, the length of what token j adds to the output"
        " (Kobayashi et al., 2020), where {r} is the length of its value vector; and the Jacobian norm {g},"
        " how much the output moves when the input token moves, through the query, the key and the value."
        " A tie below is exact: the exact values are proved equal, not only their roundings."
    ),
    "importance_cross": "In cross-attention {x} is a row of the second sequence, which feeds the keys and values.",
    "importance_lengths": "The lengths of the value vectors:",
    "importance_symbolic": (
        "The inputs contain symbols, so which token matters most depends on their values;"
        " the norm-based contributions are the weights times these lengths."
    ),
    "importance_no_jacobian": (
        "The Jacobian norms are left out: they need {entries} exact derivatives, more than the {limit}"
        " a derivation builds (symattn importance computes them)."
    ),
    "importance_row": "Output {o}:",
    "importance_row_labelled": "Output {o} (query {label}):",
    "importance_same_order": "All three measures rank the tokens the same way: {order}.",
    "importance_same_order_two": "Both measures rank the tokens the same way: {order}.",
    "importance_order": "by {measure}: {order}",
    "importance_orders": "The measures rank the tokens differently: {orders}.",
    "semicolon": "; ",
    "sentence_gap": " ",
    "measure_weights": "weight",
    "measure_norm": "norm-based contribution",
    "measure_jacobian": "Jacobian norm",
    "measures_weights": "the weights",
    "measures_norm": "the norm-based contributions",
    "measures_jacobian": "the Jacobian norms",
    "then": ", then ",
    "tied_exactly": " (tied exactly)",
    "larger_than": "{x} is larger than {y}",
    "importance_tie": (
        "{keys} tie exactly in {measures}: {equalities} hold for the exact values, not only for their roundings."
    ),
    "importance_tie_one": (
        "{keys} tie exactly in {measures}: {equalities} holds for the exact values, not only for their roundings."
    ),
    "importance_more_one": (
        "{key} matters more than its weight suggests, because its value vector is longer: {r} is more than"
        " the weight-averaged length {m}, so its share of the norm-based contributions, {share}, is larger"
        " than its weight {a}."
    ),
    "importance_more": (
        "{keys} matter more than their weights suggest, because their value vectors are longer"
        " than the weight-averaged length {m}."
    ),
    "importance_less_one": (
        "{key} matters less than its weight suggests: its value vector ({lengths}) is shorter than that."
    ),
    "importance_less": "{keys} matter less than their weights suggest: their value vectors are shorter.",
    "importance_same_length": (
        "The value vectors have the same length here, so the norm-based contributions order the tokens"
        " as the weights do."
    ),
    "importance_reorder_length": (
        "Against the order of the weights, {relations}: the norm also counts the length of each value vector."
    ),
    "importance_reorder_path": (
        "Against the order of the norm-based contributions, {relations}: the Jacobian also follows the path"
        " through the query and the key, which the norm leaves out (moving a token moves its key, and with it"
        " its score)."
    ),
    "importance_reorder_own": "Here {key} is the query's own token, so moving it also moves {q} and every score of this row.",
    "and_more": " and {k} more",
    "importance_masked_one": "The masked {keys} gets 0 in every measure.",
    "importance_masked": "The masked {keys} get 0 in every measure.",
    # 8. claims
    "claims_table": "The claimed {name} against the true values:",
    "stage_of_head": "{stage} of head {k}",
    "stage_weights": "attention weights",
    "stage_output": "output",
    "stage_scores": "scores",
    "stage_scaled": "scaled scores",
    "stage_concat": "concatenation",
    "col_entry": "Entry",
    "col_claimed": "Claimed",
    "col_exact": "True value (exact)",
    "col_decimal": "True value (decimal)",
    "col_verdict": "Verdict",
    "verdict_ok": "correct rounding",
    "verdict_exact": "exact",
    "verdict_wrong": "wrong",
    "verdict_note_rounding": " (truncated instead of rounded)",
    "verdict_note_carried": " (follows from the claimed weights)",
    "claims_wrong": "{k} of the {n} claimed entries are wrong: {entries}.",
    "claims_wrong_one": "1 of the {n} claimed entries is wrong: {entries}.",
    "claims_wrong_some_ok": "{k} of the {n} claimed entries are wrong: {entries}; the other {ok} are correct roundings.",
    "claims_wrong_one_some_ok": "1 of the {n} claimed entries is wrong: {entries}; the other {ok} {hold}.",
    "claims_wrong_some_ok_exact": "{k} of the {n} claimed entries are wrong: {entries}; the other {ok} {hold}.",
    "claims_all_ok": "All {n} claimed entries are correct roundings of the true values.",
    "claims_all_ok_exact": "All {n} claimed entries hold: each is the exact value or its correct rounding.",
    "claims_hold_roundings": "are correct roundings",
    "claims_hold_rounding": "is a correct rounding",
    "claims_hold_exact": "hold (exact values or correct roundings)",
    "recomputed_intro": "The output recomputed from the claimed weights {A}:",
    "col_row": "Row",
    "col_claimed_output": "Claimed output",
    "col_true_output": "True output",
    "recomputed_consistent_wrong": (
        "The claimed output follows from the claimed weights {A}, but those weights are not"
        " the softmax of the scores, so the output is wrong too; the true output is {O}."
    ),
    "recomputed_consistent_ok": "The claimed output follows from the claimed weights {A}, and both are correct.",
    "recomputed_inconsistent": (
        "The claimed output does not even follow from the claimed weights {A}; the true output is {O}."
    ),
    # pictures (SVG next to the Markdown, shaded tables in LaTeX)
    "picture_caption": "The weights, the norm-based contributions and the Jacobian norms as heatmaps",
    "picture_caption_head": "Head {k}: the weights, the norm-based contributions and the Jacobian norms as heatmaps",
    "picture_weights": "weight a_ij",
    "picture_norm": "norm n_ij",
    "picture_jacobian": "Jacobian g_ij",
    "picture_rows": "output i",
    "picture_columns": "token j",
    "picture_claims_caption": "The claimed {name} against the true values",
    "picture_claims_title": "{name}: true value (shade) and claim",
    "picture_claims_rows": "row",
    "picture_claims_columns": "column",
    "picture_claimed": "claimed {claim} {verdict}",
    # multi-head
    "concat_intro": "The outputs of the {n} heads are placed side by side:",
    "concat_intro_one": "The output of the single head is the concatenation:",
    "projection_o_intro": "The concatenation is projected by {W_O}:",
}
