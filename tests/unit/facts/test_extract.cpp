#include <catch2/catch.hpp>

#include "support/extract_helpers.hpp"

using namespace tr2audit;
using tr2audit::testing::call_at;
using tr2audit::testing::facts_of;

TEST_CASE("facts::Extractor keeps method calls on unknown receivers as methods", "[facts]") {
  const auto f = facts_of(
      "import numpy as np\n"
      "v = loss.item()\n"
      "m = model.cuda()\n"
      "xs = preds.tolist()\n"
      "for k, val in stats.items():\n"
      "    pass\n"
      "mean = np.mean(vals).item()\n"
      "self.load_inline(src)\n");
  const auto* item = call_at(f, 2);
  REQUIRE(item);
  CHECK(item->callee.empty());
  CHECK(item->method == "item");
  CHECK(item->receiver_text == "loss");
  CHECK(call_at(f, 3)->method == "cuda");
  CHECK(call_at(f, 4)->method == "tolist");
  CHECK(call_at(f, 5)->method == "items");
  const auto* np_item = call_at(f, 7, "item");
  REQUIRE(np_item);
  CHECK(np_item->receiver_callee.dotted() == "numpy.mean");
  const auto* own = call_at(f, 8);
  CHECK(own->receiver_is_self);
  CHECK(own->callee.empty());
}

TEST_CASE("facts::Extractor records keyword arguments with literal values", "[facts]") {
  const auto f = facts_of(
      "import torch.distributed as dist\n"
      "enc = tokenizer(texts, padding='longest', truncation=True, max_length=512)\n"
      "dist.init_process_group(backend='nccl', **kwargs)\n"
      "x = torch.zeros(4, dtype=torch.bfloat16)\n");
  const auto* tok = call_at(f, 2);
  REQUIRE(tok->args.size() == 4);
  CHECK(tok->callee_text == "tokenizer");
  CHECK(tok->args[1].keyword == "padding");
  CHECK(tok->args[1].kind == facts::LiteralKind::string);
  CHECK(tok->args[1].value == "longest");
  CHECK(tok->args[2].value == "True");
  CHECK(tok->args[2].kind == facts::LiteralKind::boolean);
  CHECK(tok->args[3].kind == facts::LiteralKind::integer);
  const auto* init = call_at(f, 3);
  CHECK(init->callee.dotted() == "torch.distributed.init_process_group");
  REQUIRE(init->args.size() == 2);
  CHECK(init->args[1].is_splat);
  CHECK(init->args[1].keyword == "**");
  const auto* zeros = call_at(f, 4);
  CHECK(zeros->args[1].resolved.empty());  // `torch` is not imported in this file
}

TEST_CASE("facts::Extractor records device strings with their use", "[facts]") {
  const auto f = facts_of(
      "import torch\n"
      "model.to('cuda:1')\n"
      "dev = torch.device('cuda', local_rank)\n"
      "x = torch.randn(3, device='cuda')\n"
      "if str(dev) == 'cpu':\n"
      "    pass\n"
      "name = 'cudafoo'\n");
  REQUIRE(f.devices.size() == 4);
  CHECK(f.devices[0].value == "cuda:1");
  CHECK(f.devices[0].callee == ".to");
  CHECK(f.devices[1].callee == "torch.device");
  CHECK(f.devices[2].keyword == "device");
  CHECK(f.devices[2].callee == "torch.randn");
  CHECK(f.devices[3].use == facts::DeviceUse::comparison);
}

TEST_CASE("facts::Extractor records decorators, classes and attribute assignments", "[facts]") {
  const auto f = facts_of(
      "import triton\n"
      "import torch\n"
      "import torch.nn as nn\n"
      "@triton.autotune(configs=[], key=['n'])\n"
      "@triton.jit\n"
      "def kernel(x_ptr, n):\n"
      "    pass\n"
      "class Block(nn.Module):\n"
      "    pass\n"
      "class Llama(Block):\n"
      "    pass\n"
      "torch.backends.cudnn.benchmark = True\n"
      "torch.cuda.is_bf16_supported = lambda: True\n"
      "cuda_available = False\n"
      "self_thing.nonzero_count = 3\n");
  REQUIRE(f.decorators.size() == 2);
  CHECK(f.decorators[0].decorator.dotted() == "triton.autotune");
  CHECK(f.decorators[0].decorated == "kernel");
  CHECK(f.decorators[1].decorator.dotted() == "triton.jit");
  REQUIRE(f.classes.size() == 2);
  CHECK(f.classes[0].bases[0].dotted() == "torch.nn.Module");
  CHECK(f.classes[1].bases[0].dotted() == "Block");
  REQUIRE(f.assigns.size() == 4);
  CHECK(f.assigns[0].target.dotted() == "torch.backends.cudnn.benchmark");
  CHECK(f.assigns[0].target_is_import);
  CHECK(f.assigns[0].value.value == "True");
  CHECK(f.assigns[1].target.dotted() == "torch.cuda.is_bf16_supported");
  CHECK(f.assigns[2].target.dotted() == "cuda_available");
  CHECK_FALSE(f.assigns[2].target_is_import);
  CHECK_FALSE(f.assigns[3].target_is_import);
  CHECK(f.calls.size() == 1);  // triton.autotune(...) only; the lambda calls nothing
}

TEST_CASE("facts::Extractor reads install_requires from setup.py", "[facts]") {
  const auto f = facts_of(
      "from setuptools import setup\n"
      "from torch.utils.cpp_extension import CUDAExtension, BuildExtension\n"
      "setup(\n"
      "    name='fused',\n"
      "    install_requires=['torch>=2.1', 'flash_attn==2.5.6'],\n"
      "    extras_require={'gpu': ['apex']},\n"
      "    ext_modules=[CUDAExtension('fused_cuda', ['csrc/fused.cu'])],\n"
      "    cmdclass={'build_ext': BuildExtension},\n"
      ")\n",
      "setup.py");
  REQUIRE(f.dependencies.size() == 3);
  CHECK(f.dependencies[0].name == "torch");
  CHECK(f.dependencies[1].name == "flash-attn");
  CHECK(f.dependencies[1].at.line == 5);
  CHECK(f.dependencies[2].name == "apex");
  CHECK(f.dependencies[2].section == "extras_require");
  CHECK(call_at(f, 7)->callee.dotted() == "torch.utils.cpp_extension.CUDAExtension");
}

TEST_CASE("facts::Extractor reports columns in code points", "[facts]") {
  const auto f = facts_of("x = 'é'; torch.cuda.synchronize()\nimport torch\n");
  REQUIRE(f.calls.size() == 1);
  CHECK(f.calls[0].at.line == 1);
  CHECK(f.calls[0].at.column == 10);
}

TEST_CASE("facts::Extractor tells a call on one comprehension item from a call on a batch", "[facts]") {
  const auto f = facts_of(
      "def tokenize(strings, tokenizer, batches, records):\n"
      "    one = [tokenizer(text, padding='longest') for text in strings]\n"
      "    keyed = [tokenizer(r['text'], padding=True) for i, r in enumerate(records)]\n"
      "    per_batch = [tokenizer(batch, padding=True) for batch in batches]\n"
      "    whole = tokenizer([s for s in strings], padding=True)\n"
      "    other = [tokenizer(prefix, padding=True) for text in strings]\n"
      "    for text in strings:\n"
      "        tokenizer(text, padding=True)\n");
  REQUIRE(call_at(f, 2));
  CHECK(call_at(f, 2)->item_argument);
  CHECK(call_at(f, 3)->item_argument);        // a subscript of the item, through a tuple target
  CHECK_FALSE(call_at(f, 4)->item_argument);  // the item is itself a batch
  CHECK_FALSE(call_at(f, 5)->item_argument);  // the comprehension is the argument, not the scope
  CHECK_FALSE(call_at(f, 6)->item_argument);  // not the item
  CHECK_FALSE(call_at(f, 8)->item_argument);  // a for loop may iterate over batches: only comprehensions count
  REQUIRE(f.loops.size() >= 5);
  CHECK(f.loops[0].target_text == "text");
  CHECK(f.loops[1].target_text == "i,r");
}

TEST_CASE("facts::Extractor records a package's lazy re-export tables as lazy imports", "[facts]") {
  // axolotl's `_LAZY_IMPORTS = {"ModelLoader": ".model"}` served by `__getattr__`, and transformers'
  // `_import_structure = {"configuration_llama": ["LlamaConfig"]}` served by `_LazyModule`.
  const auto f = facts_of(
      "_LAZY_IMPORTS = {\n"
      "    \"ModelLoader\": \".model\",\n"
      "    \"load_lora\": \"tuner.loaders.adapter\",\n"
      "    \"Outside\": \"otherpkg.mod\",\n"
      "}\n"
      "_import_structure = {\"configuration_llama\": [\"LlamaConfig\", \"not a name\"]}\n"
      "PLAIN = {\"a\": \".b\"}\n",
      "tuner/loaders/__init__.py");
  std::vector<std::string> lazy;
  for (const auto& i : f.imports) {
    if (i.lazy) lazy.push_back(i.target.dotted().str() + "@" + std::to_string(i.at.line));
  }
  CHECK(lazy == std::vector<std::string>{"tuner.loaders.model.ModelLoader@2", "tuner.loaders.adapter.load_lora@3",
                                         "tuner.loaders.configuration_llama.LlamaConfig@6"});
  CHECK(f.imports.size() == lazy.size());  // `PLAIN` is no lazy table; `otherpkg` is not this project

  // The same table outside a package's __init__ is data.
  CHECK(facts_of("_LAZY_IMPORTS = {\"ModelLoader\": \".model\"}\n", "tuner/loaders/model.py").imports.empty());
}

TEST_CASE("facts::Extractor keeps enum-member comparisons as condition terms", "[facts]") {
  const auto f = facts_of(
      "if self.cfg.rl is RLType.EBFT:\n"
      "    pass\n"
      "elif self.cfg.rl in [RLType.DPO, RLType.IPO]:\n"
      "    pass\n"
      "if dtype == torch.float16:\n"
      "    pass\n"
      "if mode != self.MODE:\n"
      "    pass\n");
  REQUIRE(f.branches.size() >= 3);
  REQUIRE(f.branches[0].terms.size() == 1);
  CHECK(f.branches[0].terms[0].name == "self.cfg.rl");
  CHECK(f.branches[0].terms[0].equals == "RLType.EBFT");
  CHECK_FALSE(f.branches[0].terms[0].negated);
  const facts::ConditionTerm* member = nullptr;
  for (const auto& b : f.branches) {
    for (const auto& t : b.terms) {
      if (t.member) member = &t;
    }
  }
  REQUIRE(member != nullptr);
  CHECK(member->name == "self.cfg.rl");
  CHECK(member->equals == std::string("RLType.DPO") + facts::k_member_separator + "RLType.IPO");
  // `torch.float16` is kept as a torch constant (its own rule), `self.MODE` is no enum member.
  bool self_term = false;
  for (const auto& b : f.branches) {
    for (const auto& t : b.terms) self_term |= t.equals == "self.MODE";
  }
  CHECK_FALSE(self_term);
}

TEST_CASE("facts::Extractor resolves a call of an attribute holding an imported function", "[facts]") {
  const auto f = facts_of(
      "from flash_attn import flash_attn_func, flash_attn_varlen_func\n"
      "import torch.nn.functional as F\n"
      "class Attention(nn.Module):\n"
      "    def __init__(self, varlen, fused):\n"
      "        self.attn_fn = flash_attn_func\n"
      "        self.pick = flash_attn_func\n"
      "        if varlen:\n"
      "            self.pick = flash_attn_varlen_func\n"
      "        self.mixed = flash_attn_func\n"
      "        self.mixed = F.scaled_dot_product_attention\n"
      "    def forward(self, q, k, v):\n"
      "        a = self.attn_fn(q, k, v, causal=True)\n"
      "        b = self.pick(q, k, v)\n"
      "        c = self.mixed(q, k, v)\n"
      "        return self.proj(a + b + c)\n"
      "class Other(nn.Module):\n"
      "    def forward(self, q, k, v):\n"
      "        return self.attn_fn(q, k, v)\n");
  const auto* held = call_at(f, 12);
  REQUIRE(held);
  CHECK(held->callee.dotted() == "flash_attn.flash_attn_func");
  CHECK(held->method == "attn_fn");
  // Bound to another function under a branch, or to two functions: the attribute may hold either.
  CHECK(call_at(f, 13)->callee.empty());
  CHECK(call_at(f, 14)->callee.empty());
  // A submodule (`self.proj = nn.Linear(...)` or unbound here) stays a method call of the instance.
  CHECK(call_at(f, 15, "proj")->callee.empty());
  // Another class's attribute of the same name holds nothing this class bound.
  CHECK(call_at(f, 18)->callee.empty());
}

TEST_CASE("facts::Extractor keeps an import an ImportError handler sets to None", "[facts]") {
  const auto f = facts_of(
      "try:\n"
      "    from flash_attn import flash_attn_func\n"
      "    import bitsandbytes as bnb\n"
      "except ImportError:\n"
      "    flash_attn_func, bnb = None, None\n"
      "def attend(q, k, v):\n"
      "    out = flash_attn_func(q, k, v)\n"
      "    if bnb is not None:\n"
      "        out = bnb.functional.dequantize_4bit(out)\n"
      "    return out\n"
      "def later(q):\n"
      "    flash_attn_func = make_local()\n"
      "    return flash_attn_func(q)\n"
      "scale = None\n"
      "def other(x):\n"
      "    return scale(x)\n");
  // None is no function: the call still runs the library's, or fails without it.
  const auto* call = call_at(f, 7);
  REQUIRE(call);
  CHECK(call->callee.dotted() == "flash_attn.flash_attn_func");
  CHECK_FALSE(call->ctx.has(facts::Guard::import_error_fallback));
  // `if bnb is not None:` asks whether the import worked: an availability guard.
  const auto* guarded = call_at(f, 9, "dequantize_4bit");
  REQUIRE(guarded);
  CHECK(guarded->callee.dotted() == "bitsandbytes.functional.dequantize_4bit");
  CHECK(guarded->ctx.has(facts::Guard::import_error_fallback));
  // A local rebinding in a function, and a None that replaces no import, still hide nothing else.
  CHECK(call_at(f, 13)->callee.empty());
  CHECK(call_at(f, 16)->callee.empty());
}

TEST_CASE("facts::Extractor reads a module-level modulo predicate as a periodic test", "[facts]") {
  const auto f = facts_of(
      "def divisible_by(num, den):\n"
      "    return (num % den) == 0\n"
      "def exists(v):\n"
      "    return v is not None\n"
      "def train(model, loader, every):\n"
      "    for i, batch in enumerate(loader):\n"
      "        loss = model(batch)\n"
      "        if divisible_by(i, every):\n"
      "            print(loss.item())\n"
      "        if exists(batch):\n"
      "            print(batch.sum().item())\n");
  // `divisible_by` returns `num % den == 0`: its branch runs once every N steps.
  const auto* periodic = call_at(f, 9, "item");
  REQUIRE(periodic);
  CHECK(periodic->ctx.has(facts::Guard::periodic));
  // A predicate that tests anything else paces nothing.
  const auto* every_step = call_at(f, 11, "item");
  REQUIRE(every_step);
  CHECK_FALSE(every_step->ctx.has(facts::Guard::periodic));
}

TEST_CASE("facts::Extractor marks a nested function its enclosing function never names", "[facts]") {
  const auto f = facts_of(
      "from torch.utils import cpp_extension\n"
      "def load(args):\n"
      "    def _build(name):\n"
      "        return cpp_extension.load(name=name, sources=[name + '.cu'])\n"
      "def load_used(args):\n"
      "    def _build(name):\n"
      "        return cpp_extension.load(name=name, sources=[name + '.cu'])\n"
      "    return _build('fused')\n"
      "def load_named(args):\n"
      "    def _build_named(name):\n"
      "        return name\n"
      "    return locals()['_build_named']\n"
      "def decorated(app):\n"
      "    @app.route('/')\n"
      "    def index():\n"
      "        return 'ok'\n");
  const auto nested = [&](std::string_view qualname) -> const facts::FunctionInfo* {
    for (const auto& fn : f.functions)
      if (std::string_view(fn.qualname) == qualname) return &fn;
    return nullptr;
  };
  REQUIRE(nested("load._build"));
  CHECK(nested("load._build")->unreferenced_nested);
  REQUIRE(nested("load_used._build"));
  CHECK_FALSE(nested("load_used._build")->unreferenced_nested);
  // A name in a string is a mention (`locals()["..."]`), and a decorator registers its function.
  REQUIRE(nested("load_named._build_named"));
  CHECK_FALSE(nested("load_named._build_named")->unreferenced_nested);
  REQUIRE(nested("decorated.index"));
  CHECK_FALSE(nested("decorated.index")->unreferenced_nested);
  // Module-level functions are never nested ones.
  REQUIRE(nested("load"));
  CHECK_FALSE(nested("load")->unreferenced_nested);
}

TEST_CASE("facts::Extractor reads a module-level None test as a None comparison", "[facts]") {
  const auto f = facts_of(
      "def exists(val):\n"
      "    return val is not None\n"
      "def forward(self, x):\n"
      "    if exists(self.to_mixture):\n"
      "        x = self.to_mixture(x)\n"
      "    if not exists(self.memory):\n"
      "        return x\n"
      "    return x\n");
  REQUIRE(f.branches.size() >= 2);
  const auto& mixture = f.branches[0].terms;
  REQUIRE(mixture.size() == 1);
  CHECK(std::string_view(mixture[0].name) == "self.to_mixture");
  CHECK(std::string_view(mixture[0].equals) == "None");
  CHECK(mixture[0].negated);
  const auto& memory = f.branches[1].terms;
  REQUIRE(memory.size() == 1);
  CHECK(std::string_view(memory[0].name) == "self.memory");
  CHECK_FALSE(memory[0].negated);  // `not exists(x)`: `x is None`
}
