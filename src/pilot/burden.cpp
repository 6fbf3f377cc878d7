// pilot/burden: how many distinct input shapes (and so graph compilations) one epoch of the training
// step produces, from the shape sources the rules found: dynamic padding, bucket/scale choices,
// pad_to_multiple_of, ragged last batches, group_by_length. Every number states its assumptions;
// a case with no bound says so.
#include "pilot/burden.hpp"

#include <algorithm>
#include <charconv>

#include "tr2audit/core/text.hpp"

namespace tr2audit::pilot::detail {
namespace {

constexpr std::uint32_t k_bucket = 128;
constexpr std::size_t k_max_sources = 8;

enum class ShapeSource : std::uint8_t {
  dynamic_padding,
  fixed_padding,
  pad_multiple,
  random_size,
  dynamic_compile,
  ragged_batch,
  fixed_batch,
  grouped
};

struct RuleSource {
  std::string_view rule;
  ShapeSource source;
};
constexpr RuleSource k_rules[] = {
    {"dynamic-shape.tokenizer-dynamic-padding", ShapeSource::dynamic_padding},
    {"dynamic-shape.data-collator-dynamic-padding", ShapeSource::dynamic_padding},
    {"dynamic-shape.pad-sequence", ShapeSource::dynamic_padding},
    {"dynamic-shape.pad-to-batch-max", ShapeSource::dynamic_padding},
    {"dynamic-shape.padding-free-packing", ShapeSource::dynamic_padding},
    {"dynamic-shape.small-pad-multiple", ShapeSource::pad_multiple},
    {"neuron-ready.pad-to-multiple-of", ShapeSource::pad_multiple},
    {"neuron-ready.fixed-length-padding", ShapeSource::fixed_padding},
    {"dynamic-shape.random-input-size", ShapeSource::random_size},
    {"dynamic-shape.compile-dynamic", ShapeSource::dynamic_compile},
    {"dynamic-shape.mark-dynamic", ShapeSource::dynamic_compile},
    {"dynamic-shape.dataloader-without-drop-last", ShapeSource::ragged_batch},
    {"neuron-ready.drop-last-loader", ShapeSource::fixed_batch},
    {"dynamic-shape.group-by-length", ShapeSource::grouped},
};

std::optional<std::uint32_t> number(std::string_view text) {
  text = trim(text);
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value == 0) return std::nullopt;
  return value;
}

/// The first integer value of the keys, names resolved.
std::optional<std::uint32_t> first_number(const SettingTable& table, std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    for (const auto& setting : table.settings) {
      if (setting.key != key) continue;
      if (auto value = number(setting.value)) return value;
      if (setting.kind != facts::LiteralKind::name) continue;
      if (const Setting* literal = resolve_name(table, setting.value)) {
        if (auto value = number(literal->value)) return value;
      }
    }
  }
  return std::nullopt;
}

struct Seen {
  bool any[8] = {};
  bool has(ShapeSource s) const { return any[static_cast<int>(s)]; }
};

Seen collect_sources(const std::vector<rules::Finding>& findings, CompileBurden& out) {
  Seen seen;
  for (const auto& finding : findings) {
    if (finding.suppressed || finding.off_training_path || finding.region == facts::Region::test) continue;
    if (finding.snippet.find("resize_token_embeddings") != std::string::npos) continue;  // the vocabulary, not inputs
    for (const auto& rule : k_rules) {
      if (finding.rule_id != rule.rule) continue;
      seen.any[static_cast<int>(rule.source)] = true;
      if (out.sources.size() < k_max_sources)
        out.sources.push_back(finding.rule_id + " at " + finding.path + ":" + std::to_string(finding.at.line));
    }
  }
  return seen;
}

void sequence_shapes(const Seen& seen, CompileBurden& out) {
  const bool dynamic = seen.has(ShapeSource::dynamic_padding) || seen.has(ShapeSource::pad_multiple);
  if (seen.has(ShapeSource::random_size) || seen.has(ShapeSource::dynamic_compile)) {
    out.bound = ShapeBound::unbounded;
    out.assumptions.push_back(
        "input sizes are drawn at random per step or compiled as dynamic: every size seen is "
        "a new graph, and the code sets no bound the estimate can count");
  } else if (dynamic && out.pad_multiple && out.max_length) {
    out.bound = ShapeBound::bucketed;
    out.sequence_shapes = (*out.max_length + *out.pad_multiple - 1) / *out.pad_multiple;
    out.assumptions.push_back("batches are padded to their longest sample rounded up to " +
                              std::to_string(*out.pad_multiple) + ", and lengths are truncated at " +
                              std::to_string(*out.max_length));
  } else if (dynamic && out.max_length) {
    out.bound = ShapeBound::bounded;
    out.sequence_shapes = *out.max_length;
    out.assumptions.push_back("batches are padded to their longest sample, so any length from 1 to " +
                              std::to_string(*out.max_length) + " can occur (worst case)");
  } else if (dynamic) {
    out.bound = ShapeBound::unbounded;
    out.assumptions.push_back(
        "batches are padded to their longest sample and no maximum length was found: the "
        "number of shapes is bounded only by the data");
  } else if (seen.has(ShapeSource::fixed_padding)) {
    out.bound = ShapeBound::fixed;
    out.sequence_shapes = 1;
    out.assumptions.push_back("every sample is padded to one fixed length");
  } else {
    out.bound = ShapeBound::unknown;
    out.assumptions.push_back("no padding policy was found: the estimate assumes nothing about sequence lengths");
  }
}

}  // namespace

std::vector<std::uint32_t> propose_buckets(std::uint32_t max_length) {
  std::vector<std::uint32_t> out;
  if (max_length <= k_bucket) return {max_length};
  const std::uint32_t multiples = (max_length + k_bucket - 1) / k_bucket;
  if (multiples <= 8) {
    for (std::uint32_t i = 1; i < multiples; ++i) out.push_back(i * k_bucket);
  } else {
    for (std::uint32_t b = k_bucket; b < max_length; b *= 2) out.push_back(b);
  }
  out.push_back(max_length);
  return out;
}

CompileBurden estimate_burden(const std::vector<rules::Finding>& findings, const SettingTable& table) {
  CompileBurden out;
  out.max_length = first_number(table, {"max_seq_length", "max_seq_len", "seq_length", "seq_len", "max_length",
                                        "block_size", "cutoff_len", "sequence_length", "context_length"});
  out.pad_multiple = first_number(table, {"pad_to_multiple_of"});
  const Seen seen = collect_sources(findings, out);
  sequence_shapes(seen, out);
  out.batch_shapes = seen.has(ShapeSource::ragged_batch) && !seen.has(ShapeSource::fixed_batch) ? 2 : 1;
  out.assumptions.push_back(out.batch_shapes == 2
                                ? "the last batch of an epoch is smaller (no drop_last): its shapes compile again"
                                : "every batch has the same number of samples");
  out.assumptions.push_back("one graph per distinct input shape for the training step; evaluation adds its own");
  if (seen.has(ShapeSource::grouped))
    out.assumptions.push_back("group_by_length sorts samples by length: it changes the order, not the count");
  if (out.sequence_shapes > 0) out.graphs = out.sequence_shapes * out.batch_shapes;
  const bool capped = out.bound == ShapeBound::fixed ||
                      (out.bound == ShapeBound::bucketed && out.graphs <= 2 * propose_buckets(*out.max_length).size());
  if (out.max_length && !capped) out.proposed_buckets = propose_buckets(*out.max_length);
  if (out.bound == ShapeBound::unbounded) {
    out.summary = "unbounded: the number of graph compilations grows with the data";
  } else if (out.bound == ShapeBound::unknown) {
    out.summary = "unknown: no padding policy found";
  } else {
    out.summary = "up to " + std::to_string(out.graphs) + " graph compilation" + (out.graphs == 1 ? "" : "s") +
                  " per epoch (" + std::to_string(out.sequence_shapes) + " sequence length" +
                  (out.sequence_shapes == 1 ? "" : "s") + " x " + std::to_string(out.batch_shapes) + " batch size" +
                  (out.batch_shapes == 1 ? "" : "s") + ")";
  }
  if (!out.proposed_buckets.empty())
    out.summary += "; padding to the proposed buckets caps it at " +
                   std::to_string(out.proposed_buckets.size() * out.batch_shapes);
  return out;
}

}  // namespace tr2audit::pilot::detail
