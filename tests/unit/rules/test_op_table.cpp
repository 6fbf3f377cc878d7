// Tests for rules/op_table: the strict loader (errors as Problems with file:line:column), the real
// rules/neuron-ops.yaml (size, provenance, documented profile differences) and the lookups.
#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "tr2audit/core/text.hpp"
#include "tr2audit/rules/op_table.hpp"
#include "unit/rules/rules_test_support.hpp"

namespace {

using tr2audit::Problem;
using tr2audit::ProblemKind;
using tr2audit::TargetProfile;
using tr2audit::rules::LoadedOpTable;
using tr2audit::rules::OpKind;
using tr2audit::rules::OpRow;
using tr2audit::rules::OpStatus;
using tr2audit::rules::OpTable;

const std::string k_header = "version: \"2026.11.1\"\nneuron_sdk: \"2.33\"\nchecked: \"2026-11-29\"\nops:\n";

std::string row(const std::string& name, const std::string& extra = "",
                const std::string& source = "  source: \"pytorch/xla:codegen/xla_native_functions.yaml@0192ff75\"\n") {
  return "- name: " + name +
         "\n  kind: op\n  native: {status: supported, note: \"Lowered.\"}\n"
         "  xla: {status: caveat, note: \"Not lowered.\"}\n" +
         source + extra;
}

LoadedOpTable load(const std::string& text) {
  tr2audit::rules::testing::TempDir dir;
  return OpTable::load(dir.write("neuron-ops.yaml", text));
}

/// The single problem of a load; fails the test when there is not exactly one or a table was built.
Problem only_problem(const LoadedOpTable& loaded) {
  CHECK_FALSE(loaded.table.has_value());
  REQUIRE(loaded.problems.size() == 1);
  CHECK(loaded.problems.front().kind == ProblemKind::invalid_op_table);
  CHECK(loaded.problems.front().path.ends_with("neuron-ops.yaml"));
  return loaded.problems.front();
}

const OpTable& real_table() {
  static const LoadedOpTable loaded = OpTable::load(std::string(TR2AUDIT_SOURCE_DIR) + "/rules/neuron-ops.yaml");
  for (const Problem& problem : loaded.problems) UNSCOPED_INFO(tr2audit::format_problem(problem));
  REQUIRE(loaded.problems.empty());
  REQUIRE(loaded.table.has_value());
  return *loaded.table;
}

}  // namespace

TEST_CASE("rules::OpTable loads a minimal valid table", "[rules][op_table]") {
  const LoadedOpTable loaded = load(k_header + row("torch.nonzero", "  aliases: [torch.Tensor.nonzero]\n"));
  REQUIRE(loaded.problems.empty());
  REQUIRE(loaded.table.has_value());
  CHECK(loaded.table->info().version == "2026.11.1");
  CHECK(loaded.table->info().neuron_sdk == "2.33");
  REQUIRE(loaded.table->rows().size() == 1);
  const OpRow& first = loaded.table->rows().front();
  CHECK(first.line == 5);
  CHECK(first.kind == OpKind::op);
  CHECK(first.for_profile(TargetProfile::native).status == OpStatus::supported);
  CHECK(first.for_profile(TargetProfile::xla).status == OpStatus::caveat);
  CHECK(loaded.table->find("torch.Tensor.nonzero") == &first);
}

TEST_CASE("rules::OpTable rejects a row without a source", "[rules][op_table]") {
  SECTION("missing key") {
    const Problem problem = only_problem(load(k_header + row("torch.nonzero", "", "")));
    CHECK(problem.line == 5);
    CHECK(problem.message.find("missing the required key 'source'") != std::string::npos);
  }
  SECTION("empty string") {
    const Problem problem = only_problem(load(k_header + row("torch.nonzero", "", "  source: \"  \"\n")));
    CHECK(problem.line == 9);
    CHECK(problem.message.find("must not be empty") != std::string::npos);
  }
}

TEST_CASE("rules::OpTable rejects a bad status and lists the valid ones", "[rules][op_table]") {
  const std::string text = k_header +
                           "- name: torch.sort\n  kind: op\n  native: {status: partial, note: \"x\"}\n"
                           "  xla: {status: caveat, note: \"y\"}\n  source: \"s\"\n";
  const Problem problem = only_problem(load(text));
  CHECK(problem.line == 7);
  CHECK(problem.column == 20);
  CHECK(problem.message.find("unknown status 'partial'") != std::string::npos);
  CHECK(problem.message.find("supported, caveat, replace, unsupported") != std::string::npos);
}

TEST_CASE("rules::OpTable rejects duplicate names, aliases and keys naming both lines", "[rules][op_table]") {
  SECTION("alias of a later row repeats an earlier name") {
    const std::string text = k_header + row("torch.nonzero") + row("torch.argwhere", "  aliases: [torch.nonzero]\n");
    const Problem problem = only_problem(load(text));
    CHECK(problem.line == 10);
    CHECK(problem.message.find("duplicate alias 'torch.nonzero' of row 'torch.argwhere' (line 10)") !=
          std::string::npos);
    CHECK(problem.message.find("name of row 'torch.nonzero' at line 5") != std::string::npos);
  }
  SECTION("duplicate key inside a row") {
    const Problem problem = only_problem(load(k_header + row("torch.nonzero", "  kind: api\n")));
    CHECK(problem.line == 10);
    CHECK(problem.message.find("duplicate key 'kind'") != std::string::npos);
  }
}

TEST_CASE("rules::OpTable reports an unknown key with a suggestion", "[rules][op_table]") {
  const Problem problem = only_problem(load(k_header + row("torch.nonzero", "  alises: [torch.Tensor.nonzero]\n")));
  CHECK(problem.line == 10);
  CHECK(problem.column == 3);
  CHECK(problem.message.find("unknown key 'alises'") != std::string::npos);
  CHECK(problem.message.find("did you mean 'aliases'?") != std::string::npos);
}

TEST_CASE("rules::OpTable reports invalid YAML with its position and never throws", "[rules][op_table]") {
  const Problem problem = only_problem(load(k_header + "- name: [unclosed\n  kind: op\n"));
  CHECK(problem.line >= 5);
  CHECK(problem.message.find("invalid YAML") == 0);
  const LoadedOpTable missing = OpTable::load("/nonexistent/neuron-ops.yaml");
  CHECK_FALSE(missing.table.has_value());
  REQUIRE(missing.problems.size() == 1);
  CHECK(missing.problems.front().message == "cannot read the op table");
}

TEST_CASE("rules::OpTable checks header keys and inferred provenance", "[rules][op_table]") {
  SECTION("missing header key") {
    const Problem problem = only_problem(load("version: \"1\"\nchecked: \"2026-11-29\"\nops:\n" + row("torch.sort")));
    CHECK(problem.message.find("missing the required key 'neuron_sdk'") != std::string::npos);
  }
  SECTION("reasoned note without inferred: true") {
    const std::string text = k_header +
                             "- name: torch.sort\n  kind: op\n  native: {status: caveat, note: \"inferred: guess\"}\n"
                             "  xla: {status: caveat, note: \"y\"}\n  source: \"s\"\n";
    CHECK(only_problem(load(text)).message.find("not 'inferred: true'") != std::string::npos);
  }
  SECTION("inferred: true without an inferred note") {
    CHECK(only_problem(load(k_header + row("torch.sort", "  inferred: true\n"))).message.find("neither note") !=
          std::string::npos);
  }
}

TEST_CASE("rules::OpTable real table loads with at least 880 sourced rows", "[rules][op_table]") {
  const OpTable& table = real_table();
  CHECK(table.rows().size() >= 880);
  CHECK(table.info().neuron_sdk == "2.34");
  CHECK(table.info().checked == "2026-12-01");
  for (const OpRow& op : table.rows()) {
    INFO(op.name);
    CHECK_FALSE(op.sources().empty());
    const bool reasoned = [&] {
      for (const auto* note : {&op.native.note, &op.xla.note}) {
        if (note->find("reasoning") != std::string::npos || note->find("[UNSOURCED]") != std::string::npos) return true;
      }
      return false;
    }();
    if (reasoned) CHECK(op.inferred);
  }
}

TEST_CASE("rules::OpTable real table: every row and every listed source is non-empty", "[rules][op_table]") {
  const OpTable& table = real_table();
  for (const OpRow& op : table.rows()) {
    INFO(op.name << " (line " << op.line << ")");
    CHECK_FALSE(tr2audit::trim(op.source).empty());
    for (const std::string_view source : op.sources()) CHECK_FALSE(source.empty());
    CHECK_FALSE(op.native.note.empty());
    CHECK_FALSE(op.xla.note.empty());
    // The pre-release TorchNeuron snapshot is tier-3 evidence: a row citing it rests on reasoning.
    if (op.source.find("parmoham-aws/test-repo-parmoham") != std::string::npos) CHECK(op.inferred);
  }
}

TEST_CASE("rules::OpTable real table covers torchvision.ops, torch.sparse, RPC, fft, linalg and special",
          "[rules][op_table]") {
  const OpTable& table = real_table();
  const auto row = [&](const char* name) {
    const OpRow* op = table.find(name);
    INFO(name);
    REQUIRE(op != nullptr);
    return op;
  };
  const OpRow* nms = row("torchvision.ops.nms");
  CHECK(nms->native.status == OpStatus::caveat);
  CHECK(nms->xla.status == OpStatus::caveat);
  CHECK(nms->inferred);
  CHECK(nms->source.find("pytorch/vision") != std::string::npos);
  CHECK(row("torchvision.ops.RoIAlign") == row("torchvision.ops.roi_align"));
  CHECK(row("torchvision.ops.box_iou")->native.status == OpStatus::supported);

  const OpRow* spmm = row("torch.sparse.mm");
  CHECK(spmm->native.status == OpStatus::unsupported);
  CHECK(spmm->xla.status == OpStatus::unsupported);
  CHECK(row("torch.Tensor.to_dense")->native.status == OpStatus::caveat);
  CHECK(table.find_tensor_method("coalesce") == row("torch.Tensor.coalesce"));

  const OpRow* rpc = row("torch.distributed.rpc.rpc_sync");
  CHECK(rpc->native.status == OpStatus::caveat);
  CHECK(rpc->native.note.find("RPC") != std::string::npos);
  CHECK(row("torch.distributed.rpc")->kind == OpKind::library);
  CHECK(row("torch.distributed.autograd.backward")->native.status == OpStatus::caveat);

  const OpRow* rfft = row("torch.fft.rfft");
  CHECK(rfft->native.status == OpStatus::caveat);
  CHECK(rfft->xla.status == OpStatus::unsupported);
  CHECK(rfft->native.note.find("[UNSOURCED]") == std::string::npos);

  // The snapshot routes 11 linalg ops, linalg_qr among them, to an explicit CPU fallback.
  for (const char* name :
       {"torch.linalg.qr", "torch.qr", "torch.linalg.inv", "torch.linalg.svd", "torch.linalg.eigh"}) {
    INFO(name);
    const OpRow* op = row(name);
    CHECK(op->native.status == OpStatus::caveat);
    CHECK(op->native.note.find("explicit CPU fallback") != std::string::npos);
    CHECK(op->source.find("cpu_fallback_registrations.py") != std::string::npos);
    CHECK(op->inferred);
  }
  // Ops the snapshot registers natively are sharpened to supported.
  CHECK(row("torch.cumsum")->native.status == OpStatus::supported);
  CHECK(row("torch.nonzero_static")->native.status == OpStatus::supported);

  const OpRow* erf = row("torch.special.erf");
  CHECK(erf->name == "torch.erf");
  CHECK(erf->native.status == OpStatus::supported);
  CHECK(row("torch.special.gammainc") == row("torch.igamma"));
}

TEST_CASE("rules::OpTable real table has rows for dtypes and dtype conversions", "[rules][op_table]") {
  const OpTable& table = real_table();
  const auto status = [&](const char* name, TargetProfile profile) {
    const OpRow* op = table.find(name);
    INFO(name);
    REQUIRE(op != nullptr);
    return op->for_profile(profile).status;
  };
  CHECK(table.find("torch.cfloat") == table.find("torch.complex64"));
  CHECK(table.find("torch.cdouble") == table.find("torch.complex128"));
  CHECK(table.find("torch.chalf") == table.find("torch.complex32"));
  CHECK(table.find("torch.double") == table.find("torch.float64"));
  for (const char* name : {"torch.complex64", "torch.complex32", "torch.view_as_complex", "torch.view_as_real",
                           "torch.Tensor.cfloat", "torch.Tensor.to(dtype=torch.complex64)"}) {
    CHECK(status(name, TargetProfile::native) == OpStatus::caveat);
    CHECK(status(name, TargetProfile::xla) == OpStatus::unsupported);
  }
  CHECK(table.find("torch.Tensor.to(torch.cfloat)") == table.find("torch.Tensor.to(dtype=torch.complex64)"));
  CHECK(status("torch.float64", TargetProfile::native) == OpStatus::caveat);
  CHECK(status("torch.Tensor.double", TargetProfile::native) == OpStatus::caveat);
  CHECK(status("torch.Tensor.to(torch.double)", TargetProfile::native) == OpStatus::caveat);
  CHECK(status("torch.int32", TargetProfile::native) == OpStatus::supported);
  CHECK(status("torch.Tensor.to", TargetProfile::native) == OpStatus::supported);
}

TEST_CASE("rules::OpTable finds rows by name, alias and module constructor", "[rules][op_table]") {
  const OpTable& table = real_table();
  const OpRow* grid = table.find("torch.nn.functional.grid_sample");
  REQUIRE(grid != nullptr);
  CHECK(grid->xla.status == OpStatus::caveat);
  REQUIRE(table.find("torch.Tensor.nonzero") != nullptr);
  CHECK(table.find("torch.Tensor.nonzero")->name == "torch.nonzero");
  REQUIRE(table.find("torch.nn.Conv3d") != nullptr);
  CHECK(table.find("torch.nn.Conv3d")->name == "torch.nn.functional.conv3d");
  REQUIRE(table.find("torch.nn.LSTM") != nullptr);
  CHECK(table.find("torch.nn.LSTMCell") == table.find("torch.nn.LSTM"));
  REQUIRE(table.find("torch.nn.MultiheadAttention") != nullptr);
  CHECK(table.find("torch.nn.CrossEntropyLoss") == table.find("torch.nn.functional.cross_entropy"));
  CHECK(table.find("torch.nn.functional.no_such_op") == nullptr);
}

TEST_CASE("rules::OpTable resolves bare Tensor methods only when unambiguous", "[rules][op_table]") {
  const OpTable& table = real_table();
  REQUIRE(table.find_tensor_method("nonzero") != nullptr);
  CHECK(table.find_tensor_method("nonzero")->name == "torch.nonzero");
  REQUIRE(table.find_tensor_method("item") != nullptr);
  CHECK(table.find_tensor_method("item")->name == "torch.Tensor.item");
  CHECK(table.find("torch.Tensor.sort") != nullptr);
  CHECK(table.find_tensor_method("sort") == nullptr);   // list.sort
  CHECK(table.find_tensor_method("split") == nullptr);  // str.split
  CHECK(table.find_tensor_method("add") == nullptr);    // set.add
  CHECK(table.find_tensor_method("cuda") == nullptr);   // nn.Module.cuda
  CHECK(OpTable::is_ambiguous_method("items"));
  CHECK_FALSE(OpTable::is_ambiguous_method("nonzero"));
  CHECK(table.find_tensor_method("not_a_method") == nullptr);
}

TEST_CASE("rules::OpTable holds the documented profile differences", "[rules][op_table]") {
  const OpTable& table = real_table();
  const auto status = [&](const char* name, TargetProfile profile) {
    const OpRow* op = table.find(name);
    REQUIRE(op != nullptr);
    return op->for_profile(profile).status;
  };
  CHECK(status("torch.compile", TargetProfile::xla) == OpStatus::unsupported);
  CHECK(status("torch.compile", TargetProfile::native) == OpStatus::caveat);
  CHECK(table.find("torch.compile")->native.note.find("dynamic=True is rejected") != std::string::npos);
  CHECK(status("torch_xla.core.xla_model.mark_step", TargetProfile::xla) == OpStatus::supported);
  CHECK(status("torch_xla.core.xla_model.mark_step", TargetProfile::native) == OpStatus::caveat);
  CHECK(status("torch.nn.parallel.DistributedDataParallel", TargetProfile::xla) == OpStatus::replace);
  CHECK(status("torch.nn.parallel.DistributedDataParallel", TargetProfile::native) == OpStatus::supported);
  CHECK(status("torch.Tensor.item", TargetProfile::xla) == OpStatus::caveat);
  CHECK(status("torch.Tensor.item", TargetProfile::native) == OpStatus::caveat);
  CHECK(table.find("torch.Tensor.item")->native.note.find("graph break") != std::string::npos);
  CHECK(status("torch.cuda.amp.GradScaler", TargetProfile::xla) == OpStatus::replace);
  CHECK(status("torch.cuda.amp.GradScaler", TargetProfile::native) == OpStatus::replace);
}

TEST_CASE("rules::expand_op_name expands the usual import aliases", "[rules][op_table]") {
  using tr2audit::rules::expand_op_name;
  CHECK(expand_op_name("F.grid_sample") == "torch.nn.functional.grid_sample");
  CHECK(expand_op_name("nn.Conv3d") == "torch.nn.Conv3d");
  CHECK(expand_op_name("nn.functional.relu") == "torch.nn.functional.relu");
  CHECK(expand_op_name("Tensor.nonzero") == "torch.Tensor.nonzero");
  CHECK(expand_op_name("th.sort") == "torch.sort");
  CHECK(expand_op_name("xm.mark_step") == "torch_xla.core.xla_model.mark_step");
  CHECK(expand_op_name("torch.sort") == "torch.sort");
  CHECK(expand_op_name("Fx.foo") == "Fx.foo");
}

TEST_CASE("rules::OpTable reads a status's effect and rejects one on a supported status", "[rules][op_table]") {
  const std::string good = k_header +
                           "- name: torch.linalg.eigh\n  kind: op\n"
                           "  native: {status: caveat, effect: cpu-fallback, note: \"x\"}\n"
                           "  xla: {status: caveat, note: \"y\"}\n  source: \"s\"\n";
  const LoadedOpTable loaded = load(good);
  REQUIRE(loaded.table.has_value());
  const OpRow& row = loaded.table->rows().front();
  CHECK(row.native.effect == tr2audit::rules::OpEffect::cpu_fallback);
  CHECK_FALSE(row.xla.effect.has_value());

  const std::string unknown = k_header +
                              "- name: torch.sort\n  kind: op\n  native: {status: caveat, effect: slow, note: \"x\"}\n"
                              "  xla: {status: caveat, note: \"y\"}\n  source: \"s\"\n";
  const Problem bad = only_problem(load(unknown));
  CHECK(bad.line == 7);
  CHECK(bad.message.find("unknown effect 'slow'") != std::string::npos);
  CHECK(bad.message.find("cpu-fallback, dtype") != std::string::npos);

  const std::string on_supported = k_header +
                                   "- name: torch.add\n  kind: op\n"
                                   "  native: {status: supported, effect: dtype, note: \"x\"}\n"
                                   "  xla: {status: supported, note: \"y\"}\n  source: \"s\"\n";
  CHECK(only_problem(load(on_supported)).message.find("needs a status other than 'supported'") != std::string::npos);
}

TEST_CASE("rules::OpTable real table: effects sit on the rows whose evidence says so", "[rules][op_table]") {
  const OpTable& table = real_table();
  using tr2audit::rules::OpEffect;
  const auto native_effect = [&](const char* name) {
    const OpRow* row = table.find(name);
    REQUIRE(row != nullptr);
    return row->native.effect;
  };
  // Explicit snapshot CPU fallback, no kernel on either stack, a torchvision C++ op: CPU fallback.
  CHECK(native_effect("torch.linalg.eigh") == OpEffect::cpu_fallback);
  CHECK(native_effect("torch.fft.rfft") == OpEffect::cpu_fallback);
  CHECK(native_effect("torchvision.ops.roi_align") == OpEffect::cpu_fallback);
  // Caveats for some dtypes/arguments, data-dependent shapes or the generic policy alone: no effect.
  CHECK_FALSE(native_effect("torch.topk").has_value());
  CHECK_FALSE(native_effect("torch.scatter_add").has_value());
  CHECK_FALSE(native_effect("torch.nonzero").has_value());
  CHECK_FALSE(native_effect("torch.sort").has_value());
  CHECK_FALSE(native_effect("torch.nn.functional.interpolate").has_value());
  // Dtypes that are not NeuronCore types.
  CHECK(native_effect("torch.float64") == OpEffect::dtype);
  CHECK(native_effect("torch.complex64") == OpEffect::dtype);
  CHECK(native_effect("torch.view_as_complex") == OpEffect::dtype);
  CHECK_FALSE(native_effect("torch.float32").has_value());
  for (const OpRow& row : table.rows()) {
    INFO(row.name);
    if (row.native.effect) CHECK(row.native.status != OpStatus::supported);
    if (row.xla.effect) CHECK(row.xla.status != OpStatus::supported);
  }
}
