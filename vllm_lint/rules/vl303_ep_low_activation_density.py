"""## What it does
Finds expert parallelism (`--enable-expert-parallel`, `-ep`, `enable_expert_parallel=True`) on a
MoE model whose routed activation density (experts per token / routed experts) is below a
threshold (default 2%, setting `ep-min-activation-density`). In the shipped model table only
Llama-4-Maverick is below it: 1 of 128 routed experts = 0.78% (MoE in every second layer, plus a
shared expert).

## Why is this bad?
With EP, every MoE layer exchanges tokens between GPUs with an all-to-all; with TP only, the
experts are sharded and the layer ends in one all-reduce. When each token uses a tiny fraction of
the experts, an EP rank holds many experts that few tokens reach, and the all-to-all traffic is
less likely to be repaid by the better expert-weight locality. This is a reasoned expectation,
not a measurement: a third-party guide says EP slows Maverick by 7-12% and proposes the 2% rule,
but no public upstream benchmark, issue or documentation backs either number. Hence a warning,
with the threshold configurable, and a fix that applies only with `--unsafe-fixes`.

## Example
```bash
vllm serve meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8 -tp 8 --enable-expert-parallel
```

## Fix safety
Unsafe (`--unsafe-fixes`): removes `--enable-expert-parallel` and keeps the TP size. Benchmark
both layouts on your workload before and after; EP can still win at high concurrency or when it
is needed to fit the model.

## Evidence
`docs/antipatterns.md` (d): density arithmetic confirmed from the model configs in
`vllm_lint/data/models.tsv` (Maverick `num_local_experts` 128, `num_experts_per_tok` 1,
`interleave_moe_layer_step` 2); the performance claim and the 2% rule are unverified (the only
related upstream change is HabanaAI/vllm-fork#1528 on Gaudi for Llama-4-Scout). Unknown models or
models without an experts-per-token fact: silent.
"""

from ..knowledge.layout import fmt_ratio, layout, model_facts
from ._status import delete_edits
from .base import Fix, LintContext, Rule, RuleSetting

RULE = Rule(code="VL303", name="ep-low-activation-density",
            summary="expert parallelism on a MoE model that activates very few of its experts per token",
            severity="warning", fix="unsafe",
            settings=(RuleSetting("ep-min-activation-density", "number", 0.02,
                                  "lowest share of experts active per token.", 0.0, 1.0),),
            triggers=frozenset(("enable_expert_parallel",)))


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    lay = layout(ctx)
    ep = lay.ep
    if not (ep.present and ep.known and ep.value is True):
        return
    facts, _ = model_facts(ctx, RULE)
    if facts is None:
        return
    density = facts.activation_density
    if density is None:
        ctx.skip(RULE, f"{facts.model}: experts per token unknown")
        return
    threshold = float(ctx.settings.ep_min_activation_density)
    if density >= threshold:
        return
    msg = (f"expert parallelism on {facts.model}, which routes each token to {facts.experts_per_token} of "
           f"{facts.routed_experts} experts (activation density {fmt_ratio(density)}, below {fmt_ratio(threshold)}): "
           f"the per-layer all-to-all is unlikely to pay off when so few experts are active; benchmark against "
           f"TP only (a guide's 7-12% slowdown figure has no public upstream evidence)")
    fix = None
    if ep.arg is not None and not ep.arg.value_opaque:
        edits = delete_edits(ctx, ep.arg)
        if edits:
            fix = Fix(edits, "unsafe", "Remove --enable-expert-parallel (keep the TP size)")
    yield ctx.diag(RULE, msg, ep.span, fix=fix, option="--enable-expert-parallel")
