from .modeling import BertForQuestionAnswering, BertForTokenClassification, BertModel
