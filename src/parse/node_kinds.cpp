#include "tr2audit/parse/node_kinds.hpp"

#include <stdexcept>
#include <string>

namespace tr2audit::parse {
namespace {

TSSymbol must_resolve(const TSLanguage* language, std::string_view name, bool named = true) {
  const TSSymbol id = ts_language_symbol_for_name(language, name.data(), static_cast<uint32_t>(name.size()), named);
  if (id == 0) throw std::runtime_error("the Python grammar has no node kind '" + std::string(name) + "'");
  return id;
}

TSFieldId must_field(const TSLanguage* language, std::string_view name) {
  const TSFieldId id = ts_language_field_id_for_name(language, name.data(), static_cast<uint32_t>(name.size()));
  if (id == 0) throw std::runtime_error("the Python grammar has no field '" + std::string(name) + "'");
  return id;
}

}  // namespace

TSSymbol NodeKinds::resolve(const TSLanguage* language, std::string_view name) {
  return ts_language_symbol_for_name(language, name.data(), static_cast<uint32_t>(name.size()), true);
}

NodeKinds::NodeKinds(const TSLanguage* l)
    : module(must_resolve(l, "module")),
      import_statement(must_resolve(l, "import_statement")),
      import_from_statement(must_resolve(l, "import_from_statement")),
      future_import_statement(must_resolve(l, "future_import_statement")),
      aliased_import(must_resolve(l, "aliased_import")),
      dotted_name(must_resolve(l, "dotted_name")),
      relative_import(must_resolve(l, "relative_import")),
      import_prefix(must_resolve(l, "import_prefix")),
      wildcard_import(must_resolve(l, "wildcard_import")),
      call(must_resolve(l, "call")),
      attribute(must_resolve(l, "attribute")),
      identifier(must_resolve(l, "identifier")),
      argument_list(must_resolve(l, "argument_list")),
      keyword_argument(must_resolve(l, "keyword_argument")),
      string(must_resolve(l, "string")),
      string_content(must_resolve(l, "string_content")),
      interpolation(must_resolve(l, "interpolation")),
      concatenated_string(must_resolve(l, "concatenated_string")),
      integer(must_resolve(l, "integer")),
      float_(must_resolve(l, "float")),
      true_(must_resolve(l, "true")),
      false_(must_resolve(l, "false")),
      none(must_resolve(l, "none")),
      function_definition(must_resolve(l, "function_definition")),
      class_definition(must_resolve(l, "class_definition")),
      decorated_definition(must_resolve(l, "decorated_definition")),
      decorator(must_resolve(l, "decorator")),
      if_statement(must_resolve(l, "if_statement")),
      elif_clause(must_resolve(l, "elif_clause")),
      else_clause(must_resolve(l, "else_clause")),
      while_statement(must_resolve(l, "while_statement")),
      for_statement(must_resolve(l, "for_statement")),
      try_statement(must_resolve(l, "try_statement")),
      except_clause(must_resolve(l, "except_clause")),
      with_statement(must_resolve(l, "with_statement")),
      with_item(must_resolve(l, "with_item")),
      assignment(must_resolve(l, "assignment")),
      augmented_assignment(must_resolve(l, "augmented_assignment")),
      expression_statement(must_resolve(l, "expression_statement")),
      lambda(must_resolve(l, "lambda")),
      conditional_expression(must_resolve(l, "conditional_expression")),
      list_comprehension(must_resolve(l, "list_comprehension")),
      set_comprehension(must_resolve(l, "set_comprehension")),
      dictionary_comprehension(must_resolve(l, "dictionary_comprehension")),
      generator_expression(must_resolve(l, "generator_expression")),
      subscript(must_resolve(l, "subscript")),
      comparison_operator(must_resolve(l, "comparison_operator")),
      boolean_operator(must_resolve(l, "boolean_operator")),
      not_operator(must_resolve(l, "not_operator")),
      binary_operator(must_resolve(l, "binary_operator")),
      unary_operator(must_resolve(l, "unary_operator")),
      assert_statement(must_resolve(l, "assert_statement")),
      parenthesized_expression(must_resolve(l, "parenthesized_expression")),
      list(must_resolve(l, "list")),
      tuple(must_resolve(l, "tuple")),
      block(must_resolve(l, "block")),
      parameters(must_resolve(l, "parameters")),
      typed_parameter(must_resolve(l, "typed_parameter")),
      default_parameter(must_resolve(l, "default_parameter")),
      typed_default_parameter(must_resolve(l, "typed_default_parameter")),
      list_splat(must_resolve(l, "list_splat")),
      dictionary_splat(must_resolve(l, "dictionary_splat")),
      list_splat_pattern(must_resolve(l, "list_splat_pattern")),
      dictionary_splat_pattern(must_resolve(l, "dictionary_splat_pattern")),
      for_in_clause(must_resolve(l, "for_in_clause")),
      pattern_list(must_resolve(l, "pattern_list")),
      tuple_pattern(must_resolve(l, "tuple_pattern")),
      expression_list(must_resolve(l, "expression_list")),
      return_statement(must_resolve(l, "return_statement")),
      print_statement(must_resolve(l, "print_statement")),
      raise_statement(must_resolve(l, "raise_statement")),
      continue_statement(must_resolve(l, "continue_statement")),
      break_statement(must_resolve(l, "break_statement")),
      yield(must_resolve(l, "yield")),
      comment(must_resolve(l, "comment")),
      error(must_resolve(l, "ERROR")),
      pair(must_resolve(l, "pair")),
      dictionary(must_resolve(l, "dictionary")),
      set(must_resolve(l, "set")),
      type(must_resolve(l, "type")),
      f_function(must_field(l, "function")),
      f_arguments(must_field(l, "arguments")),
      f_name(must_field(l, "name")),
      f_alias(must_field(l, "alias")),
      f_module_name(must_field(l, "module_name")),
      f_object(must_field(l, "object")),
      f_attribute(must_field(l, "attribute")),
      f_condition(must_field(l, "condition")),
      f_consequence(must_field(l, "consequence")),
      f_alternative(must_field(l, "alternative")),
      f_body(must_field(l, "body")),
      f_left(must_field(l, "left")),
      f_right(must_field(l, "right")),
      f_value(must_field(l, "value")),
      f_superclasses(must_field(l, "superclasses")),
      f_parameters(must_field(l, "parameters")),
      f_operators(must_field(l, "operators")),
      f_subscript(must_field(l, "subscript")),
      f_type(must_field(l, "type")),
      f_definition(must_field(l, "definition")),
      f_operator(must_field(l, "operator")),
      f_key(must_field(l, "key")) {}

}  // namespace tr2audit::parse
