"""Another copy of the same model file, exported by its package."""
import torch
from torch import nn


class BertModel(nn.Module):
    def __init__(self, hidden=64, vocab=1000):
        super(BertModel, self).__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.layer = nn.TransformerEncoderLayer(hidden, 4, batch_first=True)

    def forward(self, input_ids):
        return self.layer(self.embed(input_ids))


class BertForTokenClassification(nn.Module):
    def __init__(self, num_labels=2, hidden=64):
        super(BertForTokenClassification, self).__init__()
        self.bert = BertModel(hidden)
        self.num_labels = num_labels
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids, attention_mask, labels):
        logits = self.classifier(self.bert(input_ids))
        active_loss = attention_mask.view(-1) == 1
        active_logits = logits.view(-1, self.num_labels)[active_loss]
        active_labels = labels.view(-1)[active_loss]
        return nn.functional.cross_entropy(active_logits, active_labels)


class BertForQuestionAnswering(nn.Module):
    def __init__(self, hidden=64):
        super(BertForQuestionAnswering, self).__init__()
        self.bert = BertModel(hidden)
        self.qa_outputs = nn.Linear(hidden, 2)

    def forward(self, input_ids, start_positions, end_positions):
        start, end = self.qa_outputs(self.bert(input_ids)).split(1, dim=-1)
        loss = nn.functional.cross_entropy(start.squeeze(-1), start_positions)
        return loss + nn.functional.cross_entropy(end.squeeze(-1), end_positions)
