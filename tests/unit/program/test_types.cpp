// Reach through values of no static type (src/program/types.cpp, call_graph.cpp) and wrappers of
// data-dependent ops (src/program/wrappers.cpp), on detection-style training code: registries, heads
// handed to constructors by `from_config` and builders, a @torch.no_grad matcher, methods reached by
// name when few classes define them, and `nonzero_tuple`-style wrappers.
#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"
#include "tr2audit/program/program.hpp"

using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

program::LockinKnowledge knowledge() {
  program::LockinKnowledge out;
  out.wrapped_op = [](const facts::CallFact& call) {
    return (call.callee.empty() && call.method == "nonzero") || call.callee.dotted() == "torch.unique";
  };
  return out;
}

program::Program repo(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<facts::FileFacts> facts;
  for (auto& [path, code] : files) facts.push_back(facts_of(code, path, false));
  return program::Program::build(std::move(facts), false, knowledge());
}

program::RoleSet roles(const program::Program& p, std::string_view path, std::string_view qualname) {
  const auto file = p.find_file(path);
  REQUIRE(file);
  const auto& functions = p.file(*file).functions;
  for (std::size_t i = 0; i < functions.size(); ++i) {
    if (functions[i].qualname == qualname) return p.roles(program::FunctionId{*file, static_cast<std::int32_t>(i)});
  }
  FAIL("no function " << qualname << " in " << path);
  return {};
}

bool training(const program::Program& p, std::string_view path, std::string_view qualname) {
  return (roles(p, path, qualname) & program::training_roles()).any();
}

const char* const k_registry = R"PY(class Registry:
    def __init__(self, name):
        self._table = {}

    def register(self):
        def deco(obj):
            self._table[obj.__name__] = obj
            return obj
        return deco

    def get(self, name):
        return self._table[name]


HEADS = Registry("HEADS")
SAMPLERS = Registry("SAMPLERS")
)PY";

const char* const k_heads = R"PY(import torch
from torch import nn

from det.registry import HEADS, SAMPLERS
from det.layers import nonzero_tuple


@SAMPLERS.register()
class LabelSampler:
    def __init__(self, cfg):
        self.fraction = cfg.fraction

    def __call__(self, labels):
        return nonzero_tuple(labels > 0)[0]


class Matcher:
    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, quality):
        return quality.max(dim=0)


class Predictor(nn.Module):
    def forward(self, x):
        return x

    def losses(self, logits, labels):
        return logits.sum()


class OtherPredictor(nn.Module):
    def losses(self, logits, labels):
        return logits.mean()


class ThirdPredictor(nn.Module):
    def losses(self, logits, labels):
        return logits.max()


class FourthPredictor(nn.Module):
    def losses(self, logits, labels):
        return logits.min()


@HEADS.register()
class RoIHeads(nn.Module):
    def __init__(self, predictor, proposal_matcher, cfg):
        super().__init__()
        self.predictor = predictor
        self.proposal_matcher = proposal_matcher
        self.sampler = SAMPLERS.get(cfg.sampler)(cfg)

    @classmethod
    def from_config(cls, cfg):
        ret = {"proposal_matcher": Matcher(cfg.iou)}
        ret.update(cls._init_predictor(cfg))
        return ret

    @classmethod
    def _init_predictor(cls, cfg):
        predictor = Predictor()
        return {"predictor": predictor}

    @torch.no_grad()
    def label_proposals(self, quality, labels):
        self.proposal_matcher(quality)
        return self.sampler(labels)

    def forward(self, x, quality, labels):
        self.label_proposals(quality, labels)
        return self.predictor.losses(self.predictor(x), labels)


def build_heads(cfg):
    return HEADS.get(cfg.name)(**RoIHeads.from_config(cfg))
)PY";

const char* const k_layers = R"PY(import torch


def nonzero_tuple(x):
    if torch.jit.is_scripting():
        return x.nonzero().unbind(1)
    return x.nonzero(as_tuple=True)


def first_foreground(labels):
    return nonzero_tuple(labels > 0)[0]


def unique_labels(labels):
    classes = torch.unique(labels)
    return classes.numel()
)PY";

const char* const k_train = R"PY(import torch

from det.heads import build_heads
from det.layers import first_foreground


class Detector(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.heads = build_heads(cfg)

    def forward(self, x, quality, labels):
        first_foreground(labels)
        return self.heads(x, quality, labels)


def score(criterion, logits, labels):
    return criterion.losses(logits, labels)


def main(cfg, loader):
    model = Detector(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, quality, labels in loader:
        loss = model(x, quality, labels)
        score(model, x, labels)
        loss.backward()
        optimizer.step()
)PY";

program::Program detection_repo() {
  return repo({{"det/__init__.py", ""},
               {"det/registry.py", k_registry},
               {"det/heads.py", k_heads},
               {"det/layers.py", k_layers},
               {"train.py", k_train}});
}

}  // namespace

TEST_CASE("types: registries, constructor parameters and builders reach the methods a training forward calls",
          "[program][types]") {
  const auto p = detection_repo();
  // `self.sampler = SAMPLERS.get(name)(cfg)`: a callable built from a registry runs its __call__.
  CHECK(training(p, "det/heads.py", "LabelSampler.__call__"));
  // `from_config` hands `Matcher(...)` and `Predictor()` to the constructor under the parameters' names.
  CHECK(training(p, "det/heads.py", "Matcher.__call__"));
  CHECK(training(p, "det/heads.py", "Predictor.losses"));
  // Four classes define `losses`: a receiver of unknown type is not linked to any of them by name.
  CHECK_FALSE(training(p, "det/heads.py", "OtherPredictor.losses"));
  CHECK_FALSE(training(p, "det/heads.py", "FourthPredictor.losses"));
  const auto notes = p.type_notes(*p.find_file("det/heads.py"));
  CHECK(std::find(notes.begin(), notes.end(), "HEADS.register: RoIHeads") != notes.end());
  CHECK(std::find(notes.begin(), notes.end(), "RoIHeads.predictor: Predictor") != notes.end());
  CHECK(std::find(notes.begin(), notes.end(), "RoIHeads.proposal_matcher: Matcher") != notes.end());
  CHECK(std::find(notes.begin(), notes.end(), "RoIHeads.sampler: LabelSampler") != notes.end());
}

TEST_CASE("types: a @torch.no_grad label-assignment helper called from a training forward is forward code",
          "[program][types]") {
  const auto p = detection_repo();
  const auto file = *p.find_file("det/heads.py");
  const auto& functions = p.file(file).functions;
  for (std::size_t i = 0; i < functions.size(); ++i) {
    if (functions[i].qualname != "RoIHeads.label_proposals") continue;
    facts::Context ctx;
    ctx.function = static_cast<std::int32_t>(i);
    ctx.klass = functions[i].klass;
    ctx.guards = facts::guard_bit(facts::Guard::no_grad);
    CHECK(p.region_at(file, ctx) == facts::Region::forward);
  }
}

TEST_CASE("wrappers: calls of repo wrappers around data-dependent ops are patterns with the chain",
          "[program][wrappers]") {
  const auto p = detection_repo();
  std::vector<std::pair<std::uint32_t, std::string>> train, heads, layers;
  for (const auto& pattern : p.patterns(*p.find_file("train.py")))
    if (pattern.kind == "wrapped-op-call") train.emplace_back(pattern.at.line, pattern.detail);
  for (const auto& pattern : p.patterns(*p.find_file("det/heads.py")))
    if (pattern.kind == "wrapped-op-call") heads.emplace_back(pattern.at.line, pattern.detail);
  for (const auto& pattern : p.patterns(*p.find_file("det/layers.py")))
    if (pattern.kind == "wrapped-op-call") layers.emplace_back(pattern.at.line, pattern.detail);
  CHECK(train ==
        std::vector<std::pair<std::uint32_t, std::string>>{{13, "first_foreground → nonzero_tuple → x.nonzero()"}});
  CHECK(heads == std::vector<std::pair<std::uint32_t, std::string>>{{14, "nonzero_tuple → x.nonzero()"}});
  // The op itself is in the last wrapper's body: its own finding is there (score counts them as one kind).
  CHECK(program::wrapper_of_chain(train.at(0).second) == "nonzero_tuple");
  CHECK(program::wrapper_of_chain(heads.at(0).second) == "nonzero_tuple");
  CHECK(program::wrapper_of_chain("x.nonzero()").empty());
  // The wrapper of a wrapper is reported at its callers; a function that uses the op's value without
  // returning it (unique_labels returns a count) is no wrapper.
  CHECK(layers.empty());
  const auto notes = p.type_notes(*p.find_file("det/layers.py"));
  CHECK(notes == std::vector<std::string>{"first_foreground wraps x.nonzero()", "nonzero_tuple wraps x.nonzero()"});
}
