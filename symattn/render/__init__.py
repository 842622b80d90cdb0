"""Renderers of derivations: words, formulas and the Markdown / LaTeX writers.

    steps.py     the records a derivation is made of (exact values, decimals)
    compose.py   steps -> blocks, one function per step type
    text_en.py   every English word;  text_zh.py  every Chinese word
    mathtex.py   LaTeX of exact values, matrices and wide layouts
    blocks.py    the small document model
    markdown.py, latex.py   blocks -> text

Nothing here computes a value: numbers come from the engine via
:mod:`symattn.derivation`.
"""
