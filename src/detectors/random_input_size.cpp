// random-input-size: per-step random input sizes (multi-scale training): a size/scale/resolution
// drawn at random, or any name drawn at random that reaches a resize/interpolate's size argument through local
// names (not its input or interpolation mode), wherever in the loop it happens. Each size is a new graph; the
// detail says how many to expect.
#include <cctype>

#include "detectors/tensor_expr.hpp"
#include "detectors/value_flow.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/parse/walk.hpp"

namespace tr2audit::detectors {
namespace {

// The name reads like a size by one of its words (`img_size`, `seq_len`, `scaleFactor`), not by a
// substring of another word: `num_sentences_threshold` holds "res" and is a threshold.
bool names_a_size(std::string_view name) {
  std::string word;
  const auto sized = [&]() {
    const std::string w = to_lower(word);
    word.clear();
    for (std::string_view stem : {"size", "scale", "shape", "length", "len", "seqlen", "hw", "dim", "resol"}) {
      if (starts_with(w, stem)) return true;
    }
    return w == "res";
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alnum = std::isalnum(static_cast<unsigned char>(c)) != 0;
    // camelCase starts a word at an upper-case letter after a lower-case one.
    if (!alnum || (std::isupper(static_cast<unsigned char>(c)) != 0 && i > 0 &&
                   std::islower(static_cast<unsigned char>(name[i - 1])) != 0)) {
      if (!word.empty() && sized()) return true;
      if (!alnum) continue;
    }
    word.push_back(c);
  }
  return !word.empty() && sized();
}

bool resizes(std::string_view callee) {
  const std::string lower = to_lower(callee);
  return lower.find("interpolate") != std::string::npos || lower.find("resize") != std::string::npos ||
         lower.find("upsample") != std::string::npos || ends_with(lower, "rescale");
}

/// "bounded: 5 sizes" for random.choice over a literal list, "a range" for randint/uniform, else "".
std::string shape_count(TSNode value, const NodeScope& scope) {
  const auto& k = scope.kinds();
  std::string out;
  parse::walk(value, [&](const parse::WalkStep& step) {
    if (step.event != parse::WalkEvent::enter || !out.empty() || ts_node_symbol(step.node) != k.call)
      return out.empty();
    const std::string callee(scope.resolve(ts_node_child_by_field_id(step.node, k.f_function)).last_segment());
    const TSNode args = ts_node_child_by_field_id(step.node, k.f_arguments);
    const TSNode first = ts_node_is_null(args) ? TSNode{} : ts_node_named_child(args, 0);
    if (callee == "choice" && !ts_node_is_null(first)) {
      const TSSymbol kind = ts_node_symbol(first);
      if (kind == k.list || kind == k.tuple)
        out = "bounded by the list: " + std::to_string(ts_node_named_child_count(first)) + " sizes";
      else
        out = "bounded by the choices in `" + std::string(scope.text(first).substr(0, 40)) + "`";
    } else if (callee == "randint" || callee == "randrange" || callee == "uniform" || callee == "rand") {
      out = "a range: up to one shape per value in it";
    }
    return out.empty();
  });
  return out;
}

// `F.resize(img, size, interpolation)` reached by a name drawn at random: it decides the output size only through
// the size argument (`size=`, `scale_factor=`, the first positional after a function's input, a method's first
// positional: PIL's `img.resize(size)`), not as the input (`interpolate(z, size=...)` where `z` carries random noise
// levels) or the interpolation mode (timm's `random.choice(self.interpolation)`).
// `name` used for its value in `text`, not only for its shape: `model_pred.shape[-2:]` after `model_pred =
// unet(latents, timesteps, ...)` is the latents' size whatever timesteps the draw gave (a tensor's values do not
// set its shape).
bool mentions_value(std::string_view text, std::string_view name) {
  for (std::size_t at = 0; (at = text.find(name, at)) != std::string_view::npos; at += name.size()) {
    const bool starts = at == 0 || (!(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_') &&
                                    text[at - 1] != '.');
    const std::size_t end = at + name.size();
    const bool ends = end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
    if (!starts || !ends) continue;
    const std::string_view rest = text.substr(end);
    if (starts_with(rest, ".shape") || starts_with(rest, ".size(") || starts_with(rest, ".ndim") ||
        starts_with(rest, ".dim("))
      continue;
    return true;
  }
  return false;
}

bool reaches_size_argument(TSNode call, const std::vector<std::string>& names, const NodeScope& scope) {
  const auto& k = scope.kinds();
  const auto mentioned = [&](TSNode node) {
    const std::string_view text = scope.text(node);
    for (const std::string& name : names) {
      if (mentions_value(text, name)) return true;
    }
    return false;
  };
  const TSNode fn = ts_node_child_by_field_id(call, k.f_function);
  // A function of a module (`F.resize`, `cv2.resize`) takes the input first; a method (`img.resize`) does not.
  const bool function = !scope.resolve(fn).empty() || ts_node_symbol(fn) == k.identifier;
  const std::uint32_t size_position = function ? 1 : 0;
  const TSNode args = ts_node_child_by_field_id(call, k.f_arguments);
  std::uint32_t position = 0;
  for (std::uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
    const TSNode arg = ts_node_named_child(args, i);
    if (ts_node_symbol(arg) == k.keyword_argument) {
      const std::string_view key = scope.text(ts_node_child_by_field_id(arg, k.f_name));
      const bool sizes = key == "size" || key == "scale_factor" || key == "output_size" || key == "dsize" ||
                         key == "scale" || key == "shape" || key == "new_size" || key == "target_size";
      if (sizes && mentioned(ts_node_child_by_field_id(arg, k.f_value))) return true;
      continue;
    }
    if (position++ == size_position && mentioned(arg)) return true;
  }
  return false;
}

// `size = torch.where(torch.rand([batch_size, 1, 1, 1, 1], device=device) < p, size, torch.zeros_like(size))`
// (StyleGAN's cutout): a torch function of a tensor draw with a shape of its own, one value per sample or element.
// A tensor of sizes cannot be an input shape until it is read to the host, and this value is not (no `.item()`,
// `int(...)`): its draws change values, never a shape. The draw must be torch.rand/randn/bernoulli over a shape of
// two or more dimensions, or like another tensor.
bool draws_per_element(TSNode value, const NodeScope& scope) {
  const auto& k = scope.kinds();
  if (ts_node_symbol(value) != k.call) return false;
  const QualifiedName outer = scope.resolve(ts_node_child_by_field_id(value, k.f_function));
  if (!outer.starts_with("torch") || outer.dotted() == "torch.randint") return false;
  bool per_element = false;
  bool other_draw = false;
  parse::walk(value, [&](const parse::WalkStep& step) {
    if (step.event != parse::WalkEvent::enter) return true;
    if (ts_node_symbol(step.node) != k.call) return true;
    const QualifiedName callee = scope.resolve(ts_node_child_by_field_id(step.node, k.f_function));
    const std::string_view d = callee.dotted().view();
    const bool tensor_draw = d == "torch.rand" || d == "torch.randn";
    const bool like_draw = d == "torch.rand_like" || d == "torch.randn_like" || d == "torch.bernoulli";
    if (like_draw) {
      per_element = true;
    } else if (tensor_draw) {
      const TSNode args = ts_node_child_by_field_id(step.node, k.f_arguments);
      const TSNode first = ts_node_is_null(args) ? TSNode{} : ts_node_named_child(args, 0);
      const bool shaped =
          !ts_node_is_null(first) && (ts_node_symbol(first) == k.list || ts_node_symbol(first) == k.tuple)
              ? ts_node_named_child_count(first) >= 2
              : ts_node_named_child_count(args) >= 2 &&
                    ts_node_symbol(ts_node_named_child(args, 1)) != k.keyword_argument;
      if (shaped)
        per_element = true;
      else
        other_draw = true;
    } else if (callee.first_segment() == "random" || callee.starts_with("numpy.random") || d == "torch.randint") {
      other_draw = true;
    }
    return !other_draw;
  });
  return per_element && !other_draw;
}

class RandomInputSize final : public Detector {
 public:
  std::string_view id() const override { return "random-input-size"; }
  std::vector<std::string_view> node_kinds() const override { return {"assignment", "keyword_argument"}; }
  void on_enter(TSNode node, NodeScope& scope) override {
    const auto& k = scope.kinds();
    const bool is_assignment = ts_node_symbol(node) == k.assignment;
    const TSNode target = ts_node_child_by_field_id(node, is_assignment ? k.f_left : k.f_name);
    const TSNode value = ts_node_child_by_field_id(node, is_assignment ? k.f_right : k.f_value);
    if (ts_node_is_null(target) || ts_node_is_null(value)) return;
    if (ts_node_symbol(value) == k.lambda || !calls_random(value, scope) || draws_per_element(value, scope)) return;
    std::string detail(scope.text(node).substr(0, 100));
    if (!names_a_size(scope.text(target))) {
      // Any other name counts when it reaches a resize through local names.
      if (!is_assignment || ts_node_symbol(target) != k.identifier) return;
      const TSNode use = find_use(enclosing_body(node, scope), ts_node_end_byte(node), std::string(scope.text(target)),
                                  scope, resizes, [&](TSNode call, const std::vector<std::string>& names) {
                                    return reaches_size_argument(call, names, scope);
                                  });
      if (ts_node_is_null(use)) return;
      detail += " reaches `" + std::string(scope.text(ts_node_child_by_field_id(use, k.f_function))) + "(...)`";
    }
    const std::string count = shape_count(value, scope);
    detail += " (shapes per epoch: " + (count.empty() ? std::string("one per size drawn") : count) + ")";
    scope.emit("random-input-size", node, std::move(detail));
  }
};

}  // namespace

std::unique_ptr<Detector> make_RandomInputSize() {
  return std::make_unique<RandomInputSize>();
}

}  // namespace tr2audit::detectors
