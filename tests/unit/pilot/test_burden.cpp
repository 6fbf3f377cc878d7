// The compile-burden estimate: distinct input shapes per epoch from the shape sources the rules
// found, the assumptions it states, and the buckets it proposes. Findings are built directly (the
// rules that produce them have their own fixtures); settings come from real training code.
#include <catch2/catch.hpp>

#include "pilot/burden.hpp"
#include "unit/pilot/pilot_test_support.hpp"

using namespace tr2audit;
using pilot::ShapeBound;
using testing::finding;
using testing::pilot_of;

namespace {

constexpr std::string_view k_data = R"PY(from transformers import DataCollatorWithPadding

max_length = 1024

def collator(tokenizer):
    return DataCollatorWithPadding(tokenizer, pad_to_multiple_of=64)
)PY";

}  // namespace

TEST_CASE("compile burden: dynamic padding rounded to a multiple, with a max length", "[pilot][burden]") {
  const auto facts = pilot_of({{{"data.py", std::string(k_data)}},
                               {},
                               {},
                               {finding("dynamic-shape.data-collator-dynamic-padding", "data.py", 6),
                                finding("dynamic-shape.small-pad-multiple", "data.py", 6),
                                finding("dynamic-shape.dataloader-without-drop-last", "train.py", 20)}});
  const auto& b = facts.burden;
  CHECK(b.bound == ShapeBound::bucketed);
  CHECK(b.max_length == 1024u);
  CHECK(b.pad_multiple == 64u);
  CHECK(b.sequence_shapes == 16);  // 1024 / 64
  CHECK(b.batch_shapes == 2);      // the ragged last batch
  CHECK(b.graphs == 32);
  CHECK(b.proposed_buckets == std::vector<std::uint32_t>{128, 256, 384, 512, 640, 768, 896, 1024});
  CHECK(b.sources.size() == 3);
  CHECK(b.sources.front() == "dynamic-shape.data-collator-dynamic-padding at data.py:6");
  CHECK_THAT(b.summary, Catch::Contains("up to 32 graph compilations") && Catch::Contains("caps it at 16"));
}

TEST_CASE("compile burden: pad to the longest sample without a multiple is bounded by max_length", "[pilot][burden]") {
  const auto facts = pilot_of({{{"t.py", "max_seq_len = 4096\n"}},
                               {},
                               {},
                               {finding("dynamic-shape.tokenizer-dynamic-padding", "t.py", 1),
                                finding("neuron-ready.drop-last-loader", "t.py", 1)}});
  const auto& b = facts.burden;
  CHECK(b.bound == ShapeBound::bounded);
  CHECK(b.sequence_shapes == 4096);
  CHECK(b.batch_shapes == 1);
  // More than 8 multiples of 128: powers of two from 128, then max_length.
  CHECK(b.proposed_buckets == std::vector<std::uint32_t>{128, 256, 512, 1024, 2048, 4096});
  CHECK_THAT(b.assumptions.front(), Catch::Contains("any length from 1 to 4096"));
}

TEST_CASE("compile burden: fixed padding is one shape; no bucket proposal", "[pilot][burden]") {
  const auto facts =
      pilot_of({{{"t.py", "max_length = 2048\n"}}, {}, {}, {finding("neuron-ready.fixed-length-padding", "t.py", 1)}});
  CHECK(facts.burden.bound == ShapeBound::fixed);
  CHECK(facts.burden.graphs == 1);
  CHECK(facts.burden.proposed_buckets.empty());
}

TEST_CASE("compile burden: no maximum length or random sizes are unbounded, said plainly", "[pilot][burden]") {
  const auto dynamic = pilot_of({{{"t.py", "x = 1\n"}}, {}, {}, {finding("dynamic-shape.pad-sequence", "t.py", 1)}});
  CHECK(dynamic.burden.bound == ShapeBound::unbounded);
  CHECK(dynamic.burden.graphs == 0);
  CHECK_THAT(dynamic.burden.summary, Catch::StartsWith("unbounded"));
  const auto random =
      pilot_of({{{"t.py", "max_length = 512\n"}}, {}, {}, {finding("dynamic-shape.random-input-size", "t.py", 1)}});
  CHECK(random.burden.bound == ShapeBound::unbounded);
}

TEST_CASE("compile burden: nothing found is unknown, and suppressed or test findings do not count", "[pilot][burden]") {
  rules::Finding suppressed = finding("dynamic-shape.pad-sequence", "t.py", 1);
  suppressed.suppressed = rules::Suppression{"reviewed", ""};
  rules::Finding in_test = finding("dynamic-shape.pad-sequence", "tests/t.py", 1);
  in_test.region = facts::Region::test;
  const auto facts = pilot_of({{{"t.py", "x = 1\n"}}, {}, {}, {suppressed, in_test}});
  CHECK(facts.burden.bound == ShapeBound::unknown);
  CHECK(facts.burden.sources.empty());
}

TEST_CASE("compile burden: bucket proposals", "[pilot][burden]") {
  using pilot::detail::propose_buckets;
  CHECK(propose_buckets(100) == std::vector<std::uint32_t>{100});
  CHECK(propose_buckets(128) == std::vector<std::uint32_t>{128});
  CHECK(propose_buckets(300) == std::vector<std::uint32_t>{128, 256, 300});
  CHECK(propose_buckets(1024).size() == 8);
  CHECK(propose_buckets(1025) == std::vector<std::uint32_t>{128, 256, 512, 1024, 1025});
}
