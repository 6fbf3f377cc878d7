// parse/node_kinds: the grammar's node-kind and field names resolved to numeric ids once, so the
// extractor and detectors compare integers, never strings, per node.
#pragma once
#include <tree_sitter/api.h>

#include <string_view>

namespace tr2audit::parse {

struct NodeKinds {
  /// Resolves every kind and field below; throws std::runtime_error naming any the grammar lacks.
  explicit NodeKinds(const TSLanguage* language);

  /// The id of a named kind, or 0 when the grammar has none (for detectors' declared kinds).
  static TSSymbol resolve(const TSLanguage* language, std::string_view name);

  TSSymbol module, import_statement, import_from_statement, future_import_statement, aliased_import, dotted_name,
      relative_import, import_prefix, wildcard_import, call, attribute, identifier, argument_list, keyword_argument,
      string, string_content, interpolation, concatenated_string, integer, float_, true_, false_, none,
      function_definition, class_definition, decorated_definition, decorator, if_statement, elif_clause, else_clause,
      while_statement, for_statement, try_statement, except_clause, with_statement, with_item, assignment,
      augmented_assignment, expression_statement, lambda, conditional_expression, list_comprehension, set_comprehension,
      dictionary_comprehension, generator_expression, subscript, comparison_operator, boolean_operator, not_operator,
      binary_operator, unary_operator, assert_statement, parenthesized_expression, list, tuple, block, parameters,
      typed_parameter, default_parameter, typed_default_parameter, list_splat, dictionary_splat, list_splat_pattern,
      dictionary_splat_pattern, for_in_clause, pattern_list, tuple_pattern, expression_list, return_statement,
      print_statement, raise_statement, continue_statement, break_statement, yield, comment, error, pair, dictionary,
      set, type;

  TSFieldId f_function, f_arguments, f_name, f_alias, f_module_name, f_object, f_attribute, f_condition, f_consequence,
      f_alternative, f_body, f_left, f_right, f_value, f_superclasses, f_parameters, f_operators, f_subscript, f_type,
      f_definition, f_operator, f_key;
};

}  // namespace tr2audit::parse
