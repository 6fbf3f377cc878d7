// detectors: recognisers for structural patterns a rule cannot express as one fact (a branch on a
// tensor value, boolean-mask indexing, ...). The extractor's walk calls each detector for the
// node kinds it declares and the detector emits facts::PatternFact; rules then judge them.
#pragma once
#include <tree_sitter/api.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/facts/facts.hpp"
#include "tr2audit/parse/node_kinds.hpp"

namespace tr2audit::detectors {

/// What a detector may see at one node: the source, kind ids, name resolution and the context.
class NodeScope {
 public:
  virtual ~NodeScope() = default;
  virtual std::string_view source() const = 0;
  virtual const parse::NodeKinds& kinds() const = 0;
  /// The node's text (a view into the source).
  virtual std::string_view text(TSNode node) const = 0;
  /// Resolves a name/attribute chain through the imports in scope; empty when not an import.
  virtual QualifiedName resolve(TSNode node) const = 0;
  virtual const facts::Context& context() const = 0;
  /// The facts extracted so far in this file (calls and assignments before this node).
  virtual const facts::FileFacts& facts_so_far() const = 0;
  /// True when expr is a tensor built on the host from Python values (`torch.tensor(list)` without a
  /// device, or computed from one): reading it is not a device sync.
  virtual bool host_value(TSNode expr) const = 0;
  /// Emits a pattern at node with the current context.
  virtual void emit(std::string_view kind, TSNode node, std::string detail) = 0;
  /// Emits a pattern at node that holds only where `guard` (a condition) holds: `self.self_condition and
  /// random() < 0.5` picks a structure only when the switch is on. The context gets a branch on the
  /// guard's terms (none: the current context).
  virtual void emit_guarded(std::string_view kind, TSNode node, std::string detail, TSNode guard) = 0;
};

class Detector {
 public:
  virtual ~Detector() = default;
  /// Stable id, also the PatternFact kind it emits unless documented otherwise ("data-dependent-branch").
  virtual std::string_view id() const = 0;
  /// Grammar node kinds this detector wants on_enter for ("if_statement", ...).
  virtual std::vector<std::string_view> node_kinds() const = 0;
  virtual void on_enter(TSNode node, NodeScope& scope) = 0;
  /// Called before each file: drop per-file state.
  virtual void reset() {}
};

/// Every built-in detector, fresh (one set per worker thread). Listed in src/detectors/detectors.def.
std::vector<std::unique_ptr<Detector>> make_all_detectors();

/// Detector ids in registry order (for tests and `debug`).
std::vector<std::string> detector_ids();

}  // namespace tr2audit::detectors
