// Ray actors: repo classes decorated `@ray.remote(...)` (or wrapped `ray.remote(...)(Cls)`) run in
// processes of their own, and the code that drives them calls their methods through handles:
// `Actor.remote(...)` / `Actor.options(...).remote(...)` create one (its __init__ runs there), and
// `handle.method.remote(...)` runs `method` there. Whether an actor asks Ray for a GPU (`num_gpus=` not 0)
// says where its tensors can live: an actor without one has no CUDA device, so reading a tensor there
// (`.item()`) waits for no accelerator.
#include <algorithm>

#include "program/model.hpp"
#include "program/symbols.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

// `num_gpus=1`, `num_gpus=0.5`, `num_gpus=args.gpus`: anything but a literal 0 asks for a GPU share.
bool asks_for_gpu(std::span<const facts::Argument> args) {
  for (const auto& arg : args) {
    if (arg.keyword != "num_gpus") continue;
    const std::string_view value = arg.value;
    return !(value == "0" || value == "0.0" || value == "0." || value == "None");
  }
  return false;
}

void note_actor(Program::Impl& impl, ClassId klass, bool gpu) {
  for (RayActor& known : impl.ray_actors) {
    if (known.klass == klass) {
      known.gpu = known.gpu || gpu;
      return;
    }
  }
  impl.ray_actors.push_back(RayActor{klass, gpu});
}

}  // namespace

void find_ray_actors(Program::Impl& impl) {
  const Symbols& symbols = *impl.symbols;
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    const auto& file = impl.files[f];
    for (const auto& decorator : file.decorators) {
      if (decorator.decorator.dotted() != "ray.remote" || decorator.ctx.function >= 0) continue;
      if (decorator.ctx.klass < 0 && !asks_for_gpu(decorator.args)) {  // `@ray.remote def main_task(config):`
        for (std::int32_t i = 0; i < static_cast<std::int32_t>(file.functions.size()); ++i) {
          const auto& fn = file.functions[static_cast<std::size_t>(i)];
          if (fn.name != decorator.decorated || fn.parent >= 0 || fn.klass >= 0 || fn.at.line < decorator.at.line)
            continue;
          impl.cpu_remote_functions.push_back(FunctionId{FileId{f}, i});
          break;
        }
      }
      for (std::int32_t c = 0; c < static_cast<std::int32_t>(file.classes.size()); ++c) {
        const auto& info = file.classes[static_cast<std::size_t>(c)];
        if (info.name != decorator.decorated || info.parent_function >= 0 || info.at.line < decorator.at.line) continue;
        note_actor(impl, ClassId{FileId{f}, c}, asks_for_gpu(decorator.args));
        break;  // the first class of that name below the decorator is the decorated one
      }
    }
    // `RemoteWorker = ray.remote(num_gpus=1)(Worker)` / `ray.remote(Worker)`: the call's argument.
    // (`ray.remote(num_cpus=1)(TaskRunner)`: the outer call's callee is the inner call's text.)
    for (const auto& call : file.calls) {
      const std::string_view text = call.callee_text;
      const bool options = call.callee.empty() && starts_with(text, "ray.remote(");
      if ((call.callee.dotted() != "ray.remote" && !options) || call.args.empty()) continue;
      const auto& first = call.args.front();
      if (first.kind != facts::LiteralKind::name || !first.keyword.empty()) continue;
      const Symbol s = first.resolved.empty() ? symbols.lookup_in_file(FileId{f}, first.value)
                                              : symbols.lookup_from(FileId{f}, first.resolved.dotted());
      // (`num_gpus=self.cfg.inference.tensor_parallel_dim` asks for a GPU share; only a literal 0 does not.)
      bool gpu = false;
      if (const auto gpus = text.find("num_gpus"); options && gpus != std::string_view::npos) {
        std::string_view value = text.substr(gpus + 8);
        value = value.substr(0, value.find_first_of(",)"));
        value = trim(value.substr(value.find('=') == std::string_view::npos ? 0 : value.find('=') + 1));
        gpu = !(value == "0" || value == "0.0" || value == "0." || value == "None");
      }
      // (The options form is read for GPU-less actors only, a run's controller: what a GPU actor's methods are
      // is left to the call graph, as before.)
      if (s.kind == Symbol::Kind::klass && !gpu) note_actor(impl, s.klass, false);
    }
  }
  std::sort(impl.ray_actors.begin(), impl.ray_actors.end(), [](const RayActor& a, const RayActor& b) {
    return std::tie(a.klass.file.value, a.klass.index) < std::tie(b.klass.file.value, b.klass.index);
  });
}

std::optional<ClassId> actor_created(const Program::Impl& impl, FileId file, const facts::CallFact& call) {
  if (call.method != "remote" || call.receiver_text.empty() || impl.ray_actors.empty()) return std::nullopt;
  const Symbols& symbols = *impl.symbols;
  Symbol s;
  if (!call.callee.empty()) {  // `mod.Actor.remote(...)` through an import
    const std::string_view dotted = call.callee.dotted();
    s = symbols.lookup_from(file, dotted.substr(0, dotted.rfind('.')));
  } else if (ends_with(call.receiver_callee.dotted(), ".options")) {  // `mod.Actor.options(...).remote(...)`
    const std::string_view dotted = call.receiver_callee.dotted();
    s = symbols.lookup_from(file, dotted.substr(0, dotted.rfind('.')));
  }
  if (s.kind != Symbol::Kind::klass) {
    std::string_view text = call.receiver_text;
    if (const auto options = text.find(".options("); options != std::string_view::npos) text = text.substr(0, options);
    if (text.empty() || text.find_first_of(".([ ") != std::string_view::npos) return std::nullopt;
    s = symbols.lookup_in_file(file, text);
  }
  if (s.kind != Symbol::Kind::klass) return std::nullopt;
  const bool actor = std::any_of(impl.ray_actors.begin(), impl.ray_actors.end(),
                                 [&](const RayActor& a) { return a.klass == s.klass; });
  return actor ? std::optional<ClassId>(s.klass) : std::nullopt;
}

std::vector<FunctionId> actor_methods(const Program::Impl& impl, std::string_view name, bool from_test) {
  std::vector<FunctionId> out;
  for (const RayActor& actor : impl.ray_actors) {
    if (!from_test && impl.files[actor.klass.file.value].is_test) continue;  // a test's stand-in actor
    const auto m = impl.symbols->method(actor.klass, name);
    if (m && std::find(out.begin(), out.end(), *m) == out.end()) out.push_back(*m);
  }
  return out;
}

// Classes whose methods run only inside GPU-less actors: such an actor, or a repo class every repo
// subclass of which is one and that nobody builds itself (an abstract base of the actors).
std::vector<std::vector<char>> cpu_actor_classes(const Program::Impl& impl) {
  const std::size_t n = impl.files.size();
  std::vector<std::vector<char>> cpu(n);
  std::vector<std::vector<char>> excluded(n);  // built by repo code, or an actor that asks for a GPU
  for (std::uint32_t f = 0; f < n; ++f) {
    cpu[f].assign(impl.files[f].classes.size(), 0);
    excluded[f].assign(impl.files[f].classes.size(), 0);
  }
  for (const RayActor& actor : impl.ray_actors)
    (actor.gpu ? excluded : cpu)[actor.klass.file.value][static_cast<std::size_t>(actor.klass.index)] = 1;
  for (std::uint32_t f = 0; f < n; ++f) {
    if (impl.files[f].is_test) continue;
    for (const auto& slot : impl.edges[f]) {
      for (const Edge& edge : slot) {
        if (edge.constructs && edge.klass.index >= 0)
          excluded[edge.klass.file.value][static_cast<std::size_t>(edge.klass.index)] = 1;
      }
    }
  }
  const SubclassIndex subclasses = index_subclasses(impl);
  const auto is_cpu = [&](ClassId c) { return cpu[c.file.value][static_cast<std::size_t>(c.index)] != 0; };
  for (bool changed = true; changed;) {  // each round settles one more level of bases
    changed = false;
    for (const auto& [base, subs] : subclasses) {
      char& mark = cpu[base.first][static_cast<std::size_t>(base.second)];
      if (mark || excluded[base.first][static_cast<std::size_t>(base.second)]) continue;
      if (!std::all_of(subs.begin(), subs.end(), is_cpu)) continue;
      mark = 1;
      changed = true;
    }
  }
  return cpu;
}

void find_cpu_actor_code(Program::Impl& impl) {
  const std::size_t n = impl.files.size();
  impl.cpu_actor_code.assign(n, {});
  for (std::uint32_t f = 0; f < n; ++f) impl.cpu_actor_code[f].assign(impl.files[f].functions.size() + 1, 0);
  if (std::none_of(impl.ray_actors.begin(), impl.ray_actors.end(), [](const RayActor& a) { return !a.gpu; }) &&
      impl.cpu_remote_functions.empty())
    return;
  const auto classes = cpu_actor_classes(impl);
  // Seeds: the methods of those classes, the GPU-less remote functions, and what is nested in them.
  std::vector<std::vector<char>> seed(n);
  std::vector<FunctionId> work;
  for (std::uint32_t f = 0; f < n; ++f) seed[f].assign(impl.files[f].functions.size() + 1, 0);
  for (const FunctionId& task : impl.cpu_remote_functions) seed[task.file.value][impl.slot(task)] = 1;
  for (std::uint32_t f = 0; f < n; ++f) {
    const auto& functions = impl.files[f].functions;
    for (std::size_t i = 0; i < functions.size(); ++i) {
      const std::int32_t klass = functions[i].klass;
      const std::int32_t parent = functions[i].parent;
      // A method: its class decides. A nested function: its parent does (a parent precedes what it
      // nests, so one pass in order settles the nesting).
      const bool seeded =
          seed[f][i] != 0 || (parent >= 0 ? seed[f][static_cast<std::size_t>(parent)] != 0
                                          : klass >= 0 && classes[f][static_cast<std::size_t>(klass)] != 0);
      if (!seeded) continue;
      seed[f][i] = 1;
      work.push_back(FunctionId{FileId{f}, static_cast<std::int32_t>(i)});
    }
  }
  // Candidates: what the seeds reach. Then drop, until nothing changes, every candidate that some
  // non-test caller outside the seeds and candidates calls: what is left runs only in those actors.
  std::vector<std::vector<char>> candidate = seed;
  std::vector<std::vector<std::vector<FunctionId>>> callers(n);
  for (std::uint32_t f = 0; f < n; ++f) callers[f].resize(impl.files[f].functions.size() + 1);
  for (std::uint32_t f = 0; f < n; ++f) {
    if (impl.files[f].is_test) continue;
    for (std::size_t s = 0; s < impl.edges[f].size(); ++s) {
      const FunctionId caller{FileId{f}, s == impl.files[f].functions.size() ? -1 : static_cast<std::int32_t>(s)};
      for (const Edge& edge : impl.edges[f][s]) {
        if (edge.target.index < -1) continue;
        callers[edge.target.file.value][impl.slot(edge.target)].push_back(caller);
      }
    }
  }
  for (std::size_t next = 0; next < work.size(); ++next) {
    const FunctionId at = work[next];
    for (const Edge& edge : impl.edges[at.file.value][impl.slot(at)]) {
      // (A module body runs where it is imported; a Ray handle's `method.remote()` in the actor's own process, which
      // its class decides: a GPU worker's update step the CPU controller drives stays GPU code.)
      if (edge.target.index < 0 || edge.remote) continue;
      char& mark = candidate[edge.target.file.value][impl.slot(edge.target)];
      if (mark) continue;
      mark = 1;
      work.push_back(edge.target);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t f = 0; f < n; ++f) {
      for (std::size_t s = 0; s < candidate[f].size(); ++s) {
        if (!candidate[f][s] || seed[f][s]) continue;
        const bool outside = std::any_of(callers[f][s].begin(), callers[f][s].end(),
                                         [&](const FunctionId& c) { return !candidate[c.file.value][impl.slot(c)]; });
        if (!outside) continue;
        candidate[f][s] = 0;
        changed = true;
      }
    }
  }
  impl.cpu_actor_code = std::move(candidate);
}

}  // namespace tr2audit::program
