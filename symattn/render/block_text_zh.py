"""Transformer 块推导中的全部中文文字（注意力部分的文字在 text_zh 中）。

模板中的 ``{name}`` 字段由 :func:`symattn.render.blocks.fill` 填入文字或行内公式。
"""

TEXT: dict[str, str] = {
    "block_title": "Transformer 块：逐步推导",
    # sections
    "section_block_setup": "设定与约定",
    "section_positional": "位置编码",
    "section_norm": "层归一化 {N}",
    "section_attention": "多头自注意力",
    "section_self_attention": "带掩码（因果）的自注意力",
    "section_cross_attention": "对编码器输出的交叉注意力",
    "section_residual": "残差连接 {R}",
    "section_ffn": "前馈网络",
    "section_unembed": "最后的线性层与 Softmax",
    "section_block_output": "块的输出",
    "section_layer": "第 {k} 层：{title}",
    # setup
    "block_setup_x": "输入 {X} 有 {n} 个词元嵌入（行），每个是 {d} 维向量：",
    "block_setup_memory": "编码器输出 {M} 有 {n} 个 {d} 维词元，交叉注意力从中取键和值：",
    "block_setup_positional": "先把正弦位置编码加到嵌入上：{E}。",
    "block_setup_learned": "先把学习得到的位置编码（以矩阵给出）加到嵌入上：{E}。",
    "block_setup_unembed": "最后一层之后，线性层 {L} 给出 logits，再由 Softmax 变成概率。",
    "block_layer_lead": "第 {k} 层：",
    "block_encoder_post": "后归一化（post-norm，原始 Transformer 的做法）的编码器层：每个子层的输出加到它的输入上，再对和做归一化。",
    "block_encoder_pre": "前归一化（pre-norm）的编码器层：每个子层读取残差流归一化后的副本，它的输出不经归一化直接加回残差流。",
    "block_decoder_post": "后归一化的解码器层：依次是带掩码的自注意力、对编码器输出的交叉注意力和前馈网络，每个都加到输入上再归一化。",
    "block_decoder_pre": "前归一化的解码器层：依次是带掩码的自注意力、对编码器输出的交叉注意力和前馈网络，每个都读取残差流归一化后的副本。",
    "block_layer_norm": (
        "层归一化对每个词元（行）单独归一化，使用总体方差（偏差平方的平均），{eps} 放在平方根内；"
        "没有给出增益和偏移时 gamma = 1、beta = 0："
    ),
    "block_rms_norm": "RMSNorm 把每个词元除以它的均方根，{eps} 放在平方根内：",
    "block_ffn_relu": "前馈网络对每个词元单独作用，中间是 ReLU：",
    "block_ffn_gelu": "前馈网络对每个词元单独作用，中间是精确（erf 形式）的 GELU：",
    "block_ffn_gelu_tanh": "前馈网络对每个词元单独作用，中间是 GELU 的 tanh 近似：",
    "block_ffn_silu": "前馈网络对每个词元单独作用，中间是 SiLU：",
    "block_ffn_swiglu": "前馈网络是 SwiGLU（W_1、W_3、W_2 沿用 LLaMA 的命名）：",
    "block_gqa": "分组查询注意力（GQA）：{n} 个查询头共享 {kv} 个键/值头，每个键/值头由 {size} 个相邻的查询头共享。",
    "block_rope_interleaved": (
        "旋转位置编码（RoPE，底数 {base}，位置从 {start} 开始）：在每个头中，位置 m 的词元的查询和键，"
        "每一对列 (2i+1, 2i+2) 都旋转角度 m 乘以 {theta}："
    ),
    "block_rope_concatenated": (
        "旋转位置编码（RoPE，底数 {base}，位置从 {start} 开始，rotate-half 排列）：在每个头中，"
        "位置 m 的词元的查询和键，第 i 列与第 i + d_k/2 列一起旋转角度 m 乘以 {theta}："
    ),
    "block_decoder_masks": "解码器的自注意力是因果的：当 {cond} 时，查询 i 对键 j 的分数为 {inf}。",
    # positions
    "positional_learned": "位置编码是学习得到的，这里以矩阵给出：",
    "positional_intro": "底数为 {base}、宽度为 {d} 的正弦位置编码（Vaswani 等，2017）：",
    "positional_rows": "位置从 {first} 编号到 {last}；位置 pos 的词元是第 {row} 行。",
    "positional_frequencies": "频率，每对列一个（下标 {i}）：",
    "positional_position": "位置 {pos}（第 {row} 行）：角度及其正弦、余弦：",
    "positional_matrix": "完整的位置编码 {P}：",
    "positional_embedded": "把它加到嵌入上，{E}：",
    # norms
    "norm_rms": "{N} 是 {R} 每一行的 RMSNorm：",
    "norm_intro": "{N}：{R} 的每一行（长度 {d}）单独归一化。",
    "norm_gain": "增益和偏移：",
    "norm_row": "第 {i} 个词元：这一行的均值、总体方差、平方根，以及归一化后的行 (x - mu) / sqrt(sigma^2 + eps)：",
    "norm_row_affine": "再乘以增益、加上偏移：{n}。",
    "norm_matrix": "所有行，{N}：",
    # attention
    "attention_intro": "多头自注意力读取 {source}：下面注意力各步中的输入 {X} 就是 {source}。",
    "attention_intro_x": "多头自注意力读取这一层的输入 {X}。",
    "attention_self_x": "带掩码的自注意力读取这一层的输入 {X}。",
    "attention_heads": "它有 {n} 个头。",
    "attention_one_head": "它有一个头。",
    "attention_self": "带掩码的自注意力读取 {source}：下面注意力各步中的输入 {X} 就是 {source}。",
    "attention_cross": "交叉注意力的查询来自 {source}，键和值来自编码器输出 {M}：下面注意力各步中的 {X} 就是 {source}。",
    "attention_groups": "{n} 个查询头共享 {kv} 个键/值头：",
    "attention_group": "第 {h} 个查询头使用第 {g} 个键/值头",
    "attention_rope": "RoPE 在投影之后旋转查询和键，所以下面的 {Q} 和 {K} 先是投影结果，旋转之后就换成旋转后的矩阵。",
    "attention_heads_together": "各头合并",
    "attention_long": "{source} 的闭式表达式很长，所以注意力逐头给出可靠的小数（各步与单独的注意力推导相同）。",
    "attention_long_output": "各头的输出并排拼接：",
    "attention_long_output_o": "各头的输出并排拼接，再乘以 {W_O}：",
    "rope_intro": "{d} 时 RoPE 的频率 {theta}：",
    "rope_angles": "第 m 行是位置 {m} 的词元；它的角度 {phi} 及其余弦和正弦：",
    "rope_rotated": "{q} 和 {k} 的每一对 (a, b) 变为 (a cos - b sin, a sin + b cos)（取该对的角度）；从这里起 {Q} 和 {K} 指旋转后的矩阵：",
    # residuals
    "residual_intro": "残差连接把子层的输出 {right} 逐元素加到它的输入 {left} 上：",
    # feed-forward
    "ffn_intro": "前馈网络把 {x} 的每一行映射到宽度为 {d} 的隐藏层，再映射回来：",
    "ffn_pre": "隐藏层的预激活 {Z}：{x} 的每一行乘以 {W} 再加 {b}：",
    "ffn_gate": "SwiGLU 的线性部分 {G}：{x} 的每一行乘以 {W} 再加 {b}：",
    "ffn_swiglu": "门控后的隐藏层 {U}：",
    "ffn_activated": "逐元素激活，{U}：",
    "ffn_zeroed": "ReLU 把（共 {n} 个预激活中的）{k} 个负值置为 0：",
    "ffn_zeroed_one": "ReLU 把（共 {n} 个预激活中的）1 个负值置为 0：",
    "ffn_zeroed_item": "第 {i} 个词元，第 {j} 个隐藏单元：{z}",
    "ffn_zeroed_none": "没有负的预激活，所以 ReLU 不改变任何值。",
    "ffn_undecided": "{cells} 的符号在精度上限内无法确定；它们保持为精确的 max(0, z)。",
    "ffn_relu": "其余单元保持不变：{U}：",
    "ffn_output": "映射回模型宽度，{F}：{U} 的每一行乘以 {W} 再加 {b}：",
    # final
    "unembed_intro": "最后的线性层给出 logits {L}：{Y} 的每一行乘以 {W} 再加 {b}：",
    "unembed_softmax": "每一行的 Softmax 给出下一个词元的概率，{P}：",
    "block_output": "块的输出是 {Y}：",
    # claims: the stages by their entry symbols (registry.BLOCK)
    "stage_p": "位置编码",
    "stage_e": "加上位置编码的嵌入",
    "stage_n": "归一化后的行",
    "stage_h": "注意力输出",
    "stage_r": "残差和",
    "stage_z": "隐藏层预激活",
    "stage_g": "门控",
    "stage_u": "隐藏层激活值",
    "stage_f": "前馈网络输出",
    "stage_l": "logits",
    "stage_P": "概率",
    "stage_y": "输出",
}
