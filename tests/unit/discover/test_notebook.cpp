// Tests for discover::notebook_to_python: cell joining, magics, cell mapping, invalid notebooks.
#include <catch2/catch.hpp>

#include "tr2audit/discover/discover.hpp"

namespace Catch {
template <>
struct StringMaker<tr2audit::FilePlace> {
  static std::string convert(const tr2audit::FilePlace& p) {
    return std::to_string(p.line) + ":" + std::to_string(p.column);
  }
};
template <>
struct StringMaker<tr2audit::JsonEscape> {
  static std::string convert(const tr2audit::JsonEscape& e) {
    return std::to_string(e.line) + ":" + std::to_string(e.column) + "+" + std::to_string(e.extra);
  }
};
}  // namespace Catch

using tr2audit::ProblemKind;
using tr2audit::discover::LoadResult;
using tr2audit::discover::notebook_to_python;

namespace {

// Cell 1 markdown, 2 code (list source, line magic), 3 markdown, 4 code (shell escapes, help),
// 5 raw, 6 %%bash cell, 7 %%time cell, 8 code whose '%' and '!' lines continue an expression or a string.
constexpr std::string_view k_notebook = R"json({
 "cells": [
  {"cell_type": "markdown", "metadata": {}, "source": ["# Fine-tune Llama\n", "Uses flash-attn."]},
  {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
   "source": ["%matplotlib inline\n", "import torch\n", "x = torch.randn(2, device='cuda')"]},
  {"cell_type": "markdown", "metadata": {}, "source": "Install:"},
  {"cell_type": "code", "execution_count": 2, "metadata": {},
   "outputs": [{"name": "stdout", "output_type": "stream", "text": ["ok\n"]}],
   "source": "!pip install flash-attn\nfor i in range(3):\n    !nvidia-smi\n    y = i\n?torch.cuda\n"},
  {"cell_type": "raw", "metadata": {}, "source": "%not code"},
  {"cell_type": "code", "metadata": {}, "outputs": [], "source": "%%bash\nnvidia-smi\necho done"},
  {"cell_type": "code", "metadata": {}, "outputs": [], "source": "%%time\nz = model(x)"},
  {"cell_type": "code", "metadata": {}, "outputs": [],
   "source": "r = (10\n     % 3)\ns = '''\n!not a magic\n'''\nt = 1 + \\\n  2"}
 ],
 "metadata": {"kernelspec": {"name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
})json";

}  // namespace

TEST_CASE("discover::notebook_to_python joins code cells and comments out magics", "[discover]") {
  const LoadResult result = notebook_to_python(k_notebook, "train.ipynb");
  REQUIRE(result.ok);
  const std::string expected =
      "# %matplotlib inline\n"               // 1  cell 2
      "import torch\n"                       // 2
      "x = torch.randn(2, device='cuda')\n"  // 3
      "# !pip install flash-attn\n"          // 4  cell 4
      "for i in range(3):\n"                 // 5
      "    pass  # !nvidia-smi\n"            // 6
      "    y = i\n"                          // 7
      "# ?torch.cuda\n"                      // 8
      "# %%bash\n"                           // 9  cell 6
      "# nvidia-smi\n"                       // 10
      "# echo done\n"                        // 11
      "# %%time\n"                           // 12 cell 7
      "z = model(x)\n"                       // 13
      "r = (10\n"                            // 14 cell 8
      "     % 3)\n"                          // 15
      "s = '''\n"                            // 16
      "!not a magic\n"                       // 17
      "'''\n"                                // 18
      "t = 1 + \\\n"                         // 19
      "  2\n";                               // 20
  CHECK(result.source.text == expected);
  CHECK(result.source.cell_first_lines == std::vector<std::uint32_t>{1, 4, 9, 12, 14});
  CHECK(result.source.cell_numbers == std::vector<std::uint32_t>{2, 4, 6, 7, 8});
}

TEST_CASE("discover::LoadedSource::map_line maps notebook lines back to cells", "[discover]") {
  const LoadResult result = notebook_to_python(k_notebook, "train.ipynb");
  REQUIRE(result.ok);
  const auto& source = result.source;
  CHECK(source.map_line(1).cell == 2);
  CHECK(source.map_line(1).line == 1);
  CHECK(source.map_line(3).cell == 2);
  CHECK(source.map_line(3).line == 3);
  CHECK(source.map_line(4).cell == 4);
  CHECK(source.map_line(4).line == 1);
  CHECK(source.map_line(7).cell == 4);
  CHECK(source.map_line(7).line == 4);
  CHECK(source.map_line(13).cell == 7);
  CHECK(source.map_line(13).line == 2);
  CHECK(source.map_line(20).cell == 8);
  CHECK(source.map_line(20).line == 7);
}

TEST_CASE("discover::notebook_to_python keeps empty code cells addressable", "[discover]") {
  const LoadResult result = notebook_to_python(
      R"({"cells": [{"cell_type": "code", "source": []}, {"cell_type": "code", "source": "a = 1\n"}], "nbformat": 4})",
      "empty.ipynb");
  REQUIRE(result.ok);
  CHECK(result.source.text == "\na = 1\n");
  CHECK(result.source.cell_first_lines == std::vector<std::uint32_t>{1, 2});
  CHECK(result.source.map_line(2).cell == 2);
}

TEST_CASE("discover::notebook_to_python reads nbformat 3 worksheets", "[discover]") {
  const LoadResult result = notebook_to_python(
      R"json({"worksheets": [{"cells": [{"cell_type": "code", "input": ["import torch\n", "torch.cuda.init()"]}]}],
          "nbformat": 3})json",
      "old.ipynb");
  REQUIRE(result.ok);
  CHECK(result.source.text == "import torch\ntorch.cuda.init()\n");
}

TEST_CASE("discover::notebook_to_python reports invalid notebooks", "[discover]") {
  const LoadResult syntax =
      notebook_to_python("{\n  \"cells\": [\n    {\"cell_type\": \"code\" \"source\": \"x\"}\n]}", "broken.ipynb");
  CHECK_FALSE(syntax.ok);
  CHECK(syntax.problem.kind == ProblemKind::invalid_notebook);
  CHECK(syntax.problem.path == "broken.ipynb");
  CHECK(syntax.problem.line == 3);
  CHECK(syntax.problem.column > 20);
  CHECK_THAT(syntax.problem.message, Catch::StartsWith("invalid notebook JSON (byte offset"));

  const LoadResult no_cells = notebook_to_python(R"({"metadata": {}, "nbformat": 4})", "meta.ipynb");
  CHECK_FALSE(no_cells.ok);
  CHECK(no_cells.problem.kind == ProblemKind::invalid_notebook);
  CHECK_THAT(no_cells.problem.message, Catch::Contains("no 'cells' array"));

  const LoadResult bad_source =
      notebook_to_python(R"({"cells": [{"cell_type": "code", "source": 42}], "nbformat": 4})", "num.ipynb");
  CHECK_FALSE(bad_source.ok);
  CHECK_THAT(bad_source.problem.message, Catch::Contains("cell 1"));

  CHECK_FALSE(notebook_to_python("[1, 2]", "array.ipynb").ok);
  CHECK_FALSE(notebook_to_python("", "empty.ipynb").ok);
}

TEST_CASE("discover::notebook_to_python maps every code line to its place in the notebook's JSON", "[discover]") {
  // Pretty-printed as Jupyter writes it: one source line per array element, and a cell whose source
  // is one string (all its lines sit on one JSON line, after each "\n" escape).
  constexpr std::string_view notebook = R"json({
 "cells": [
  {
   "cell_type": "markdown",
   "source": ["# Title\n"]
  },
  {
   "cell_type": "code",
   "source": [
    "import torch\n",
    "x = \"é\".encode(); y = torch.ones(1).cuda()\n",
    "\n",
    "z = 1"
   ]
  },
  {"cell_type": "code", "source": "a = 1\r\nb = \u0022c\u0022.upper()"}
 ],
 "nbformat": 4
})json";
  const LoadResult result = notebook_to_python(notebook, "nb.ipynb");
  REQUIRE(result.ok);
  CHECK(result.source.text ==
        "import torch\nx = \"é\".encode(); y = torch.ones(1).cuda()\n\nz = 1\na = 1\nb = \"c\".upper()\n");
  using tr2audit::FilePlace;
  CHECK(result.source.notebook_places ==
        std::vector<FilePlace>{{10, 6}, {11, 6}, {12, 6}, {13, 6}, {16, 36}, {16, 45}});
  // `\"` twice on text line 2 (before `é` and after it) and `\u0022` twice on text line 6.
  using tr2audit::JsonEscape;
  CHECK(result.source.notebook_escapes == std::vector<JsonEscape>{{2, 5, 1}, {2, 7, 1}, {6, 5, 5}, {6, 7, 5}});
}

TEST_CASE("discover::notebook_to_python places nbformat 3 worksheet cells", "[discover]") {
  constexpr std::string_view notebook =
      "{\"worksheets\": [{\"cells\": [\n"
      "  {\"cell_type\": \"code\", \"input\": [\"import torch\\n\",\n"
      "                                   \"torch.cuda.synchronize()\"]}\n"
      "]}], \"nbformat\": 3}";
  const LoadResult result = notebook_to_python(notebook, "old.ipynb");
  REQUIRE(result.ok);
  using tr2audit::FilePlace;
  CHECK(result.source.notebook_places == std::vector<FilePlace>{{2, 36}, {3, 37}});
}

TEST_CASE("discover::notebook_to_python keeps shell escapes and their continuation lines as shell lines",
          "[discover]") {
  constexpr std::string_view notebook = R"json({
 "cells": [
  {"cell_type": "code", "metadata": {}, "outputs": [], "source": "import torch\nx = 1"},
  {"cell_type": "code", "metadata": {}, "outputs": [],
   "source": "!deepspeed --num_gpus 8 \\\n    --module training.trainer \\\n    --deepspeed {ds_config} \\\n    --bf16 true\nprint('done')"}
 ],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5
})json";
  const LoadResult result = notebook_to_python(notebook, "train.ipynb");
  REQUIRE(result.ok);
  // The continuation lines are IPython's too: commented out, so the Python parses.
  CHECK(result.source.text ==
        "import torch\nx = 1\n# !deepspeed --num_gpus 8 \\\n    pass  # --module training.trainer \\\n"
        "    pass  # --deepspeed {ds_config} \\\n    pass  # --bf16 true\nprint('done')\n");
  CHECK(result.source.shell_lines ==
        "\n\ndeepspeed --num_gpus 8 \\\n    --module training.trainer \\\n    --deepspeed {ds_config} \\\n"
        "    --bf16 true\n\n");
  // The first notebook's shell escapes sit at its lines 4 and 6 (of 20).
  std::string lines(20, '\n');
  lines.insert(5, "nvidia-smi");
  lines.insert(3, "pip install flash-attn");
  CHECK(notebook_to_python(k_notebook, "a.ipynb").source.shell_lines == lines);
}

TEST_CASE("discover::neutralize_databricks_magics comments out a Databricks .py notebook's IPython lines",
          "[discover]") {
  std::string text =
      "# Databricks notebook source\nimport os\n\n# COMMAND ----------\n\n!pip install -r requirements.txt\n"
      "!deepspeed train.py \\\n    --deepspeed {cfg}\nprint(os.getcwd())\n";
  std::string shell;
  tr2audit::discover::neutralize_databricks_magics(text, shell);
  CHECK(text ==
        "# Databricks notebook source\nimport os\n\n# COMMAND ----------\n\n# !pip install -r requirements.txt\n"
        "# !deepspeed train.py \\\n    pass  # --deepspeed {cfg}\nprint(os.getcwd())\n");
  CHECK(shell == "\n\n\n\n\npip install -r requirements.txt\ndeepspeed train.py \\\n    --deepspeed {cfg}\n\n");
  // A `%` line magic is commented out too; with no shell escape there are no shell lines.
  std::string magic_only = "# Databricks notebook source\n%pip install peft\nimport peft\n";
  std::string no_shell;
  tr2audit::discover::neutralize_databricks_magics(magic_only, no_shell);
  CHECK(magic_only == "# Databricks notebook source\n# %pip install peft\nimport peft\n");
  CHECK(no_shell.empty());
  // Any other Python file is left as it is.
  std::string plain = "x = 1\n!not_python\n";
  std::string none;
  tr2audit::discover::neutralize_databricks_magics(plain, none);
  CHECK(plain == "x = 1\n!not_python\n");
  CHECK(none.empty());
}
