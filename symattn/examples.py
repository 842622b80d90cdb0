"""Built-in examples.

:func:`reference` is the worked example that textbooks and blog posts copy:
three 2-dimensional tokens, identity projections and the 1/√2 scale, with the
softmax weights such documents *assume* and the outputs they derive from them
as claims to check.
"""

from __future__ import annotations

from symattn.spec import AttentionSpec

__all__ = ["reference"]


#: The built-in example's title in each language of the derivations.
TITLES = {
    "en": "Self-attention on three tokens (the textbook example)",
    "zh": "三个词元上的自注意力（教科书示例）",
}


def reference(lang: str = "en") -> AttentionSpec:
    """The reference example with its document's claims (titled in ``lang``, "en" or "zh").

    X = [[1,0],[0,1],[1,1]], W_Q = W_K = W_V = I, scale 1/√2; claimed weights
    [[0.4,0.2,0.4],[0.2,0.4,0.4],[0.3,0.3,0.4]] and outputs
    [[0.8,0.6],[0.6,0.8],[0.7,0.7]].

    >>> reference().run().weights[2, 2]
    exp(sqrt(2)/2)/(2 + exp(sqrt(2)/2))
    """
    identity = [[1, 0], [0, 1]]
    return AttentionSpec(
        title=TITLES.get(lang, TITLES["en"]),
        X=[[1, 0], [0, 1], [1, 1]],
        W_Q=identity,
        W_K=identity,
        W_V=identity,
        scale="sqrt_dk",
        labels=("x_1", "x_2", "x_3"),
        claims={
            "weights": [["0.4", "0.2", "0.4"], ["0.2", "0.4", "0.4"], ["0.3", "0.3", "0.4"]],
            "output": [["0.8", "0.6"], ["0.6", "0.8"], ["0.7", "0.7"]],
        },
        source=None,
    )
