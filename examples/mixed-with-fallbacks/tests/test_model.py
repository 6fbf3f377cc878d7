import pytest
import torch
from transformers import AutoModelForSequenceClassification, ModernBertConfig

from reviewclf.evaluate import compute_eval_metrics
from reviewclf.model import LABELS

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")


def tiny_model():
    config = ModernBertConfig(
        vocab_size=512,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        cls_token_id=1,
        sep_token_id=2,
        num_labels=len(LABELS),
    )
    return AutoModelForSequenceClassification.from_config(config, attn_implementation="sdpa")


@requires_cuda
def test_forward_shapes_and_finite_loss():
    torch.manual_seed(0)
    model = tiny_model().cuda()
    input_ids = torch.randint(3, 512, (4, 37)).cuda()
    attention_mask = torch.ones_like(input_ids)
    attention_mask[2, 20:] = 0
    labels = torch.tensor([0, 1, 3, 4]).cuda()
    out = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
    assert out.logits.shape == (4, len(LABELS))
    assert torch.isfinite(out.loss).item()


@requires_cuda
def test_padding_does_not_change_logits():
    torch.manual_seed(0)
    model = tiny_model().cuda().eval()
    ids = torch.randint(3, 512, (1, 12)).cuda()
    padded = torch.cat([ids, torch.zeros(1, 8, dtype=torch.long).cuda()], dim=1)
    mask = torch.cat([torch.ones(1, 12), torch.zeros(1, 8)], dim=1).long().cuda()
    with torch.no_grad():
        plain = model(input_ids=ids).logits
        with_padding = model(input_ids=padded, attention_mask=mask).logits
    assert (plain - with_padding).abs().max().item() < 1e-4


def test_metrics_on_known_predictions():
    golds = torch.tensor([0, 0, 1, 2, 4, 4])
    preds = torch.tensor([0, 1, 1, 2, 3, 4])
    metrics = compute_eval_metrics(preds, golds)
    assert metrics["accuracy"] == pytest.approx(4 / 6)
    assert metrics["macro_f1"] == pytest.approx(0.75, abs=1e-4)
    assert metrics["within_one_star"] == pytest.approx(1.0)
    assert metrics["recall_by_class"] == {"1 star": 0.5, "2 stars": 1.0, "3 stars": 1.0, "5 stars": 0.5}
    assert metrics["most_predicted_when_wrong"] == "2 stars"
