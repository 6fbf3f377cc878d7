#include "tr2audit/parse/parse.hpp"

#include <stdexcept>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace tr2audit::parse {

const TSLanguage* python_language() {
  return tree_sitter_python();
}

Parser::Parser() : m_parser(ts_parser_new()) {
  if (!ts_parser_set_language(m_parser.get(), python_language()))
    throw std::runtime_error("tree-sitter runtime rejected the Python grammar (ABI mismatch)");
}

namespace {

struct Budget {
  std::chrono::steady_clock::time_point deadline;
  bool expired = false;
};

bool check_budget(TSParseState* state) {
  auto* budget = static_cast<Budget*>(state->payload);
  budget->expired = std::chrono::steady_clock::now() > budget->deadline;
  return budget->expired;  // true cancels the parse
}

struct StringInput {
  std::string_view text;
};

const char* read_string(void* payload, uint32_t byte_index, TSPoint, uint32_t* bytes_read) {
  const auto* input = static_cast<StringInput*>(payload);
  if (byte_index >= input->text.size()) {
    *bytes_read = 0;
    return "";
  }
  *bytes_read = static_cast<uint32_t>(input->text.size() - byte_index);
  return input->text.data() + byte_index;
}

}  // namespace

ParseOutcome Parser::parse(std::string_view text, std::chrono::milliseconds budget) {
  ParseOutcome outcome;
  ts_parser_reset(m_parser.get());
  if (budget.count() <= 0) {
    outcome.tree.reset(
        ts_parser_parse_string(m_parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size())));
    return outcome;
  }
  StringInput input{text};
  Budget state{std::chrono::steady_clock::now() + budget};
  const TSInput ts_input{&input, read_string, TSInputEncodingUTF8, nullptr};
  const TSParseOptions options{&state, check_budget};
  outcome.tree.reset(ts_parser_parse_with_options(m_parser.get(), nullptr, ts_input, options));
  outcome.timed_out = !outcome.tree && state.expired;
  if (!outcome.tree) ts_parser_reset(m_parser.get());
  return outcome;
}

}  // namespace tr2audit::parse
