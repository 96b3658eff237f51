import JSON
import JSONTestSupport
import Testing

// A conformance corpus in the spirit of JSONTestSuite (github.com/nst/JSONTestSuite): `y_`
// documents RFC 8259 says are JSON must parse, `n_` documents it says are not must fail with a
// syntax error, and the `i_` ones (implementation-defined) follow the rules of
// docs/wire-format.md. Names follow the suite's.

private let accepted: [(String, [UInt8])] = [
  ("y_array_arraysWithSpaces", bytes("[[]   ]")),
  ("y_array_empty-string", bytes(#"[""]"#)),
  ("y_array_empty", bytes("[]")),
  ("y_array_ending_with_newline", bytes(#"["a"]"#, "\n")),
  ("y_array_false", bytes("[false]")),
  ("y_array_heterogeneous", bytes(#"[null, 1, "1", {}]"#)),
  ("y_array_null", bytes("[null]")),
  ("y_array_with_1_and_newline", bytes("[1\n]")),
  ("y_array_with_leading_space", bytes(" [1]")),
  ("y_array_with_several_null", bytes("[1,null,null,null,2]")),
  ("y_array_with_trailing_space", bytes("[2] ")),
  ("y_number", bytes("[123e65]")),
  ("y_number_0e+1", bytes("[0e+1]")),
  ("y_number_0e1", bytes("[0e1]")),
  ("y_number_after_space", bytes("[ 4]")),
  (
    "y_number_double_close_to_zero",
    bytes("[-0.000000000000000000000000000000000000000000000000000000000000000000000000000001]")
  ),
  ("y_number_int_with_exp", bytes("[20e1]")),
  ("y_number_minus_zero", bytes("[-0]")),
  ("y_number_negative_int", bytes("[-123]")),
  ("y_number_negative_one", bytes("[-1]")),
  ("y_number_real_capital_e", bytes("[1E22]")),
  ("y_number_real_capital_e_neg_exp", bytes("[1E-2]")),
  ("y_number_real_capital_e_pos_exp", bytes("[1E+2]")),
  ("y_number_real_exponent", bytes("[123e45]")),
  ("y_number_real_fraction_exponent", bytes("[123.456e78]")),
  ("y_number_real_neg_exp", bytes("[1e-2]")),
  ("y_number_real_pos_exponent", bytes("[1e+2]")),
  ("y_number_simple_int", bytes("[123]")),
  ("y_number_simple_real", bytes("[123.456789]")),
  ("y_object", bytes(#"{"asd":"sdf", "dfg":"fgh"}"#)),
  ("y_object_basic", bytes(#"{"asd":"sdf"}"#)),
  ("y_object_empty", bytes("{}")),
  ("y_object_empty_key", bytes(#"{"":0}"#)),
  ("y_object_escaped_null_in_key", bytes(#"{"foo\u0000bar": 42}"#)),
  ("y_object_extreme_numbers", bytes(#"{ "min": -1.0e+28, "max": 1.0e+28 }"#)),
  (
    "y_object_long_strings",
    bytes(
      #"{"x":[{"id": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}], "#,
      #""id": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#)
  ),
  ("y_object_simple", bytes(#"{"a":[]}"#)),
  (
    "y_object_string_unicode",
    bytes(
      #"{"title":"\u041f\u043e\u043b\u0442\u043e\u0440\u0430 "#,
      #"\u0417\u0435\u043c\u043b\u0435\u043a\u043e\u043f\u0430" }"#
    )
  ),
  ("y_object_with_newlines", bytes("{\n\"a\": \"b\"\n}")),
  ("y_string_1_2_3_bytes_UTF-8_sequences", bytes(#"["\u0060\u012a\u12AB"]"#)),
  ("y_string_accepted_surrogate_pair", bytes(#"["\uD801\udc37"]"#)),
  ("y_string_accepted_surrogate_pairs", bytes(#"["\ud83d\ude39\ud83d\udc8d"]"#)),
  ("y_string_allowed_escapes", bytes(#"["\"\\\/\b\f\n\r\t"]"#)),
  ("y_string_backslash_and_u_escaped_zero", bytes(#"["\\u0000"]"#)),
  ("y_string_backslash_doublequotes", bytes(#"["\""]"#)),
  ("y_string_comments", bytes(#"["a/*b*/c/*d//e"]"#)),
  ("y_string_double_escape_a", bytes(#"["\\a"]"#)),
  ("y_string_double_escape_n", bytes(#"["\\n"]"#)),
  ("y_string_escaped_control_character", bytes(#"["\u0012"]"#)),
  ("y_string_escaped_noncharacter", bytes(#"["\uFFFF"]"#)),
  ("y_string_in_array", bytes(#"["asd"]"#)),
  ("y_string_in_array_with_leading_space", bytes(#"[ "asd"]"#)),
  ("y_string_last_surrogates_1_and_2", bytes(#"["\uDBFF\uDFFF"]"#)),
  ("y_string_nbsp_uescaped", bytes(#"["new\u00A0line"]"#)),
  ("y_string_nonCharacterInUTF-8_U+10FFFF", bytes(#"[""#, 0xF4, 0x8F, 0xBF, 0xBF, #""]"#)),
  ("y_string_nonCharacterInUTF-8_U+FFFF", bytes(#"[""#, 0xEF, 0xBF, 0xBF, #""]"#)),
  ("y_string_null_escape", bytes(#"["\u0000"]"#)),
  ("y_string_one-byte-utf-8", bytes(#"["\u002c"]"#)),
  ("y_string_pi", bytes(#"["π"]"#)),
  ("y_string_reservedCharacterInUTF-8_U+1BFFF", bytes(#"[""#, 0xF0, 0x9B, 0xBF, 0xBF, #""]"#)),
  ("y_string_simple_ascii", bytes(#"["asd "]"#)),
  ("y_string_space", bytes(#"" ""#)),
  ("y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF", bytes(#"["\uD834\uDd1e"]"#)),
  ("y_string_three-byte-utf-8", bytes(#"["\u0821"]"#)),
  ("y_string_two-byte-utf-8", bytes(#"["\u0123"]"#)),
  ("y_string_u+2028_line_sep", bytes(#"[""#, 0xE2, 0x80, 0xA8, #""]"#)),
  ("y_string_u+2029_par_sep", bytes(#"[""#, 0xE2, 0x80, 0xA9, #""]"#)),
  ("y_string_uEscape", bytes(#"["\u0061\u30af\u30EA\u30b9"]"#)),
  ("y_string_uescaped_newline", bytes(#"["new\u000Aline"]"#)),
  ("y_string_unescaped_char_delete", bytes(#"[""#, 0x7F, #""]"#)),
  ("y_string_unicode", bytes(#"["\uA66D"]"#)),
  ("y_string_unicodeEscapedBackslash", bytes(#"["\u005C"]"#)),
  ("y_string_unicode_2", bytes(#"["⍂㈴⍂"]"#)),
  ("y_string_unicode_U+10FFFE_nonchar", bytes(#"["\uDBFF\uDFFE"]"#)),
  ("y_string_unicode_U+1FFFE_nonchar", bytes(#"["\uD83F\uDFFE"]"#)),
  ("y_string_unicode_U+200B_ZERO_WIDTH_SPACE", bytes(#"["\u200B"]"#)),
  ("y_string_unicode_U+2064_invisible_plus", bytes(#"["\u2064"]"#)),
  ("y_string_unicode_U+FDD0_nonchar", bytes(#"["\uFDD0"]"#)),
  ("y_string_unicode_U+FFFE_nonchar", bytes(#"["\uFFFE"]"#)),
  ("y_string_unicode_escaped_double_quote", bytes(#"["\u0022"]"#)),
  ("y_string_utf8", bytes(#"["€𝄞"]"#)),
  ("y_string_with_del_character", bytes(#"["a"#, 0x7F, #"a"]"#)),
  ("y_structure_lonely_false", bytes("false")),
  ("y_structure_lonely_int", bytes("42")),
  ("y_structure_lonely_negative_real", bytes("-0.1")),
  ("y_structure_lonely_null", bytes("null")),
  ("y_structure_lonely_string", bytes(#""asd""#)),
  ("y_structure_lonely_true", bytes("true")),
  ("y_structure_string_empty", bytes(#""""#)),
  ("y_structure_trailing_newline", bytes(#"["a"]"#, "\n")),
  ("y_structure_true_in_array", bytes("[true]")),
  ("y_structure_whitespace_array", bytes(" [] ")),
  ("y_structure_all_whitespace", bytes(" \t\n\r[ \t\n\r1 \t\n\r, \t\n\r{ \t\n\r} \t\n\r] \t\n\r")),
  // Implementation-defined in the suite; accepted here.
  ("i_number_double_huge_neg_exp", bytes("[123.456e-789]")),
  (
    "i_number_huge_exp",
    bytes("[0.4e00669999999999999999999999999999999999999999999999969999999006]")
  ),
  ("i_number_neg_int_huge_exp", bytes("[-1e+9999]")),
  ("i_number_pos_double_huge_exp", bytes("[1.5e+9999]")),
  ("i_number_real_underflow", bytes("[123e-10000000]")),
  ("i_number_too_big_neg_int", bytes("[-123123123123123123123123123123]")),
  ("i_number_too_big_pos_int", bytes("[100000000000000000000]")),
  ("i_number_very_big_negative_int", bytes("[-237462374673276894279832749832423479823246327846]")),
  (
    "i_structure_500_nested_arrays",
    bytes(.text(String(repeating: "[", count: 500)), .text(String(repeating: "]", count: 500)))
  ),
  (
    "nesting_512_arrays",
    bytes(.text(String(repeating: "[", count: 512)), .text(String(repeating: "]", count: 512)))
  ),
]

private let rejected: [(String, [UInt8])] = [
  ("n_array_1_true_without_comma", bytes("[1 true]")),
  ("n_array_a_invalid_utf8", bytes("[a", 0xE5, "]")),
  ("n_array_colon_instead_of_comma", bytes(#"["": 1]"#)),
  ("n_array_comma_after_close", bytes(#"[""],"#)),
  ("n_array_comma_and_number", bytes("[,1]")),
  ("n_array_double_comma", bytes("[1,,2]")),
  ("n_array_double_extra_comma", bytes(#"["x",,]"#)),
  ("n_array_extra_close", bytes(#"["x"]]"#)),
  ("n_array_extra_comma", bytes(#"["",]"#)),
  ("n_array_incomplete", bytes(#"["x""#)),
  ("n_array_incomplete_invalid_value", bytes("[x")),
  ("n_array_inner_array_no_comma", bytes("[3[4]]")),
  ("n_array_invalid_utf8", bytes("[", 0xFF, "]")),
  ("n_array_items_separated_by_semicolon", bytes("[1:2]")),
  ("n_array_just_comma", bytes("[,]")),
  ("n_array_just_minus", bytes("[-]")),
  ("n_array_missing_value", bytes(#"[   , ""]"#)),
  ("n_array_newlines_unclosed", bytes("[\"a\",\n4\n,1,")),
  ("n_array_number_and_comma", bytes("[1,]")),
  ("n_array_number_and_several_commas", bytes("[1,,]")),
  ("n_array_spaces_vertical_tab_formfeed", bytes("[\"", 0x0B, "a\"", 0x0C, "]")),
  ("n_array_star_inside", bytes("[*]")),
  ("n_array_unclosed", bytes(#"["""#)),
  ("n_array_unclosed_trailing_comma", bytes("[1,")),
  ("n_array_unclosed_with_new_lines", bytes("[1,\n1\n,1")),
  ("n_array_unclosed_with_object_inside", bytes("[{}")),
  ("n_incomplete_false", bytes("[fals]")),
  ("n_incomplete_null", bytes("[nul]")),
  ("n_incomplete_true", bytes("[tru]")),
  ("n_multidigit_number_then_00", bytes("123", 0x00)),
  ("n_number_++", bytes("[++1234]")),
  ("n_number_+1", bytes("[+1]")),
  ("n_number_+Inf", bytes("[+Inf]")),
  ("n_number_-01", bytes("[-01]")),
  ("n_number_-1.0.", bytes("[-1.0.]")),
  ("n_number_-2.", bytes("[-2.]")),
  ("n_number_-NaN", bytes("[-NaN]")),
  ("n_number_.-1", bytes("[.-1]")),
  ("n_number_.2e-3", bytes("[.2e-3]")),
  ("n_number_0.1.2", bytes("[0.1.2]")),
  ("n_number_0.3e+", bytes("[0.3e+]")),
  ("n_number_0.3e", bytes("[0.3e]")),
  ("n_number_0.e1", bytes("[0.e1]")),
  ("n_number_0_capital_E+", bytes("[0E+]")),
  ("n_number_0_capital_E", bytes("[0E]")),
  ("n_number_0e+", bytes("[0e+]")),
  ("n_number_0e", bytes("[0e]")),
  ("n_number_1.0e+", bytes("[1.0e+]")),
  ("n_number_1.0e-", bytes("[1.0e-]")),
  ("n_number_1.0e", bytes("[1.0e]")),
  ("n_number_1_000", bytes("[1 000.0]")),
  ("n_number_1eE2", bytes("[1eE2]")),
  ("n_number_2.e+3", bytes("[2.e+3]")),
  ("n_number_2.e-3", bytes("[2.e-3]")),
  ("n_number_2.e3", bytes("[2.e3]")),
  ("n_number_9.e+", bytes("[9.e+]")),
  ("n_number_Inf", bytes("[Inf]")),
  ("n_number_NaN", bytes("[NaN]")),
  ("n_number_U+FF11_fullwidth_digit_one", bytes("[", 0xEF, 0xBC, 0x91, "]")),
  ("n_number_expression", bytes("[1+2]")),
  ("n_number_hex_1_digit", bytes("[0x1]")),
  ("n_number_hex_2_digits", bytes("[0x42]")),
  ("n_number_infinity", bytes("[Infinity]")),
  ("n_number_invalid+-", bytes("[0e+-1]")),
  ("n_number_invalid-negative-real", bytes("[-123.123foo]")),
  ("n_number_invalid-utf-8-in-bigger-int", bytes("[123", 0xE5, "]")),
  ("n_number_invalid-utf-8-in-exponent", bytes("[1e1", 0xE5, "]")),
  ("n_number_invalid-utf-8-in-int", bytes("[0", 0xE5, "]")),
  ("n_number_minus_infinity", bytes("[-Infinity]")),
  ("n_number_minus_sign_with_trailing_garbage", bytes("[-foo]")),
  ("n_number_minus_space_1", bytes("[- 1]")),
  ("n_number_neg_int_starting_with_zero", bytes("[-012]")),
  ("n_number_neg_real_without_int_part", bytes("[-.123]")),
  ("n_number_neg_with_garbage_at_end", bytes("[-1x]")),
  ("n_number_real_garbage_after_e", bytes("[1ea]")),
  ("n_number_real_with_invalid_utf8_after_e", bytes("[1e", 0xE5, "]")),
  ("n_number_real_without_fractional_part", bytes("[1.]")),
  ("n_number_starting_with_dot", bytes("[.123]")),
  ("n_number_with_alpha", bytes("[1.2a-3]")),
  ("n_number_with_alpha_char", bytes("[1.8011670033376514H-308]")),
  ("n_number_with_leading_zero", bytes("[012]")),
  ("n_object_bad_value", bytes(#"["x", truth]"#)),
  ("n_object_bracket_key", bytes(#"{[: "x"}"#)),
  ("n_object_comma_instead_of_colon", bytes(#"{"x", null}"#)),
  ("n_object_double_colon", bytes(#"{"x"::"b"}"#)),
  ("n_object_emoji", bytes("{🇨🇭}")),
  ("n_object_garbage_at_end", bytes(#"{"a":"a" 123}"#)),
  ("n_object_key_with_single_quotes", bytes("{key: 'value'}")),
  ("n_object_lone_continuation_byte_in_key_and_trailing_comma", bytes("{\"", 0xB9, "\":\"0\",}")),
  ("n_object_missing_colon", bytes(#"{"a" b}"#)),
  ("n_object_missing_key", bytes(#"{:"b"}"#)),
  ("n_object_missing_semicolon", bytes(#"{"a" "b"}"#)),
  ("n_object_missing_value", bytes(#"{"a":"#)),
  ("n_object_no-colon", bytes(#"{"a""#)),
  ("n_object_non_string_key", bytes("{1:1}")),
  ("n_object_non_string_key_but_huge_number_instead", bytes("{9999E9999:1}")),
  ("n_object_repeated_null_null", bytes("{null:null,null:null}")),
  ("n_object_several_trailing_commas", bytes(#"{"id":0,,,,,}"#)),
  ("n_object_single_quote", bytes("{'a':0}")),
  ("n_object_trailing_comma", bytes(#"{"id":0,}"#)),
  ("n_object_trailing_comment", bytes(#"{"a":"b"}/**/"#)),
  ("n_object_trailing_comment_open", bytes(#"{"a":"b"}/**//"#)),
  ("n_object_trailing_comment_slash_open", bytes(#"{"a":"b"}//"#)),
  ("n_object_trailing_comment_slash_open_incomplete", bytes(#"{"a":"b"}/"#)),
  ("n_object_two_commas_in_a_row", bytes(#"{"a":"b",,"c":"d"}"#)),
  ("n_object_unquoted_key", bytes(#"{a: "b"}"#)),
  ("n_object_unterminated-value", bytes(#"{"a":"a"#)),
  ("n_object_with_single_string", bytes(#"{ "foo" : "bar", "a" }"#)),
  ("n_object_with_trailing_garbage", bytes(#"{"a":"b"}#"#)),
  ("n_single_space", bytes(" ")),
  ("n_string_1_surrogate_then_escape", bytes(#"["\uD800\"]"#)),
  ("n_string_1_surrogate_then_escape_u", bytes(#"["\uD800\u"]"#)),
  ("n_string_1_surrogate_then_escape_u1", bytes(#"["\uD800\u1"]"#)),
  ("n_string_1_surrogate_then_escape_u1x", bytes(#"["\uD800\u1x"]"#)),
  ("n_string_accentuated_char_no_quotes", bytes("[é]")),
  ("n_string_backslash_00", bytes(#"["\"#, 0x00, #""]"#)),
  ("n_string_escape_x", bytes(#"["\x00"]"#)),
  ("n_string_escaped_backslash_bad", bytes(#"["\\\"]"#)),
  ("n_string_escaped_ctrl_char_tab", bytes(#"["\"#, 0x09, #""]"#)),
  ("n_string_escaped_emoji", bytes(#"["\🌀"]"#)),
  ("n_string_incomplete_escape", bytes(#"["\"]"#)),
  ("n_string_incomplete_escaped_character", bytes(#"["\u00A"]"#)),
  ("n_string_incomplete_surrogate", bytes(#"["\uD834\uDd"]"#)),
  ("n_string_incomplete_surrogate_escape_invalid", bytes(#"["\uD800\uD800\x"]"#)),
  ("n_string_invalid-utf-8-in-escape", bytes(#"["\u"#, 0xE5, #""]"#)),
  ("n_string_invalid_backslash_esc", bytes(#"["\a"]"#)),
  ("n_string_invalid_unicode_escape", bytes(#"["\uqqqq"]"#)),
  ("n_string_invalid_utf8_after_escape", bytes(#"["\"#, 0xE5, #""]"#)),
  ("n_string_leading_uescaped_thinspace", bytes(#"[\u0020"asd"]"#)),
  ("n_string_no_quotes_with_bad_escape", bytes(#"[\n]"#)),
  ("n_string_single_doublequote", bytes(#"""#)),
  ("n_string_single_quote", bytes("['single quote']")),
  ("n_string_single_string_no_double_quotes", bytes("abc")),
  ("n_string_start_escape_unclosed", bytes(#"["\"#)),
  ("n_string_unescaped_ctrl_char", bytes(#"["a"#, 0x00, #"a"]"#)),
  ("n_string_unescaped_newline", bytes("[\"new\nline\"]")),
  ("n_string_unescaped_tab", bytes("[\"\t\"]")),
  ("n_string_unicode_CapitalU", bytes(#""\UA66D""#)),
  ("n_string_with_trailing_garbage", bytes(#"""x"#)),
  ("n_structure_100000_opening_arrays", bytes(.text(String(repeating: "[", count: 100_000)))),
  ("n_structure_angle_bracket_.", bytes("<.>")),
  ("n_structure_angle_bracket_null", bytes("[<null>]")),
  ("n_structure_array_trailing_garbage", bytes("[1]x")),
  ("n_structure_array_with_extra_array_close", bytes("[1]]")),
  ("n_structure_array_with_unclosed_string", bytes(#"["asd]"#)),
  ("n_structure_ascii-unicode-identifier", bytes("aå")),
  ("n_structure_capitalized_True", bytes("[True]")),
  ("n_structure_close_unopened_array", bytes("1]")),
  ("n_structure_comma_instead_of_closing_brace", bytes(#"{"x": true,"#)),
  ("n_structure_double_array", bytes("[][]")),
  ("n_structure_end_array", bytes("]")),
  ("n_structure_incomplete_UTF8_BOM", bytes(0xEF, 0xBB, "{}")),
  ("n_structure_lone-invalid-utf-8", bytes(0xE5)),
  ("n_structure_lone-open-bracket", bytes("[")),
  ("n_structure_no_data", []),
  ("n_structure_null-byte-outside-string", bytes("[", 0x00, "]")),
  ("n_structure_number_with_trailing_garbage", bytes("2@")),
  ("n_structure_object_followed_by_closing_object", bytes("{}}")),
  ("n_structure_object_unclosed_no_value", bytes(#"{"":"#)),
  ("n_structure_object_with_comment", bytes(#"{"a":/*comment*/"b"}"#)),
  ("n_structure_object_with_trailing_garbage", bytes(#"{"a": true} "x""#)),
  ("n_structure_open_array_apostrophe", bytes("['")),
  ("n_structure_open_array_comma", bytes("[,")),
  ("n_structure_open_array_object", bytes(.text(String(repeating: #"[{"":"#, count: 50_000)))),
  ("n_structure_open_array_open_object", bytes("[{")),
  ("n_structure_open_array_open_string", bytes(#"["a"#)),
  ("n_structure_open_array_string", bytes(#"["a""#)),
  ("n_structure_open_object", bytes("{")),
  ("n_structure_open_object_close_array", bytes("{]")),
  ("n_structure_open_object_comma", bytes("{,")),
  ("n_structure_open_object_open_array", bytes("{[")),
  ("n_structure_open_object_open_string", bytes(#"{"a"#)),
  ("n_structure_open_object_string_with_apostrophes", bytes("{'a'")),
  ("n_structure_open_open", bytes(#"["\{["\{["\{["\{"#)),
  ("n_structure_single_eacute", bytes(0xE9)),
  ("n_structure_single_star", bytes("*")),
  ("n_structure_trailing_#", bytes(#"{"a":"b"}#{}"#)),
  ("n_structure_U+2060_word_joiner", bytes("[", 0xE2, 0x81, 0xA0, "]")),
  ("n_structure_uescaped_LF_before_string", bytes(#"[\u000A""]"#)),
  ("n_structure_unclosed_array", bytes("[1")),
  ("n_structure_unclosed_array_partial_null", bytes("[ false, nul")),
  ("n_structure_unclosed_array_unfinished_false", bytes("[ true, fals")),
  ("n_structure_unclosed_array_unfinished_true", bytes("[ false, tru")),
  ("n_structure_unclosed_object", bytes(#"{"asd":"asd""#)),
  ("n_structure_unicode-identifier", bytes("å")),
  ("n_structure_whitespace_formfeed", bytes("[", 0x0C, "]")),
  // Implementation-defined in the suite; rejected here (docs/wire-format.md).
  ("i_object_key_lone_2nd_surrogate", bytes(#"{"\uDFAA":0}"#)),
  ("i_string_1st_surrogate_but_2nd_missing", bytes(#"["\uDADA"]"#)),
  ("i_string_1st_valid_surrogate_2nd_invalid", bytes(#"["\uD888\u1234"]"#)),
  ("i_string_UTF-16LE_with_BOM", bytes(0xFF, 0xFE, "[", 0x00, "\"", 0x00, "\"", 0x00, "]", 0x00)),
  ("i_string_UTF-8_invalid_sequence", bytes(#"[""#, 0xE6, 0x97, 0xA5, 0xD1, 0x88, 0xFA, #""]"#)),
  ("i_string_UTF8_surrogate_U+D800", bytes(#"[""#, 0xED, 0xA0, 0x80, #""]"#)),
  ("i_string_incomplete_surrogate_and_escape_valid", bytes(#"["\uD800\n"]"#)),
  ("i_string_incomplete_surrogate_pair", bytes(#"["\uDd1ea"]"#)),
  ("i_string_incomplete_surrogates_escape_valid", bytes(#"["\uD800\uD800\n"]"#)),
  ("i_string_invalid_lonely_surrogate", bytes(#"["\ud800"]"#)),
  ("i_string_invalid_surrogate", bytes(#"["\ud800abc"]"#)),
  ("i_string_invalid_utf-8", bytes(#"[""#, 0xFF, #""]"#)),
  ("i_string_inverted_surrogates_U+1D11E", bytes(#"["\uDd1e\uD834"]"#)),
  ("i_string_iso_latin_1", bytes(#"[""#, 0xE9, #""]"#)),
  ("i_string_lone_second_surrogate", bytes(#"["\uDFAA"]"#)),
  ("i_string_lone_utf8_continuation_byte", bytes(#"[""#, 0x81, #""]"#)),
  ("i_string_not_in_unicode_range", bytes(#"[""#, 0xF4, 0xBF, 0xBF, 0xBF, #""]"#)),
  ("i_string_overlong_sequence_2_bytes", bytes(#"[""#, 0xC0, 0xAF, #""]"#)),
  (
    "i_string_overlong_sequence_6_bytes", bytes(#"[""#, 0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF, #""]"#)
  ),
  (
    "i_string_overlong_sequence_6_bytes_null",
    bytes(#"[""#, 0xFC, 0x80, 0x80, 0x80, 0x80, 0x80, #""]"#)
  ),
  ("i_string_truncated-utf-8", bytes(#"[""#, 0xE0, 0xFF, #""]"#)),
  ("i_string_utf16BE_no_BOM", bytes(0x00, "[", 0x00, "\"", 0x00, "\"", 0x00, "]")),
  ("i_string_utf16LE_no_BOM", bytes("[", 0x00, "\"", 0x00, "\"", 0x00, "]", 0x00)),
  ("i_structure_UTF-8_BOM_empty_object", bytes(0xEF, 0xBB, 0xBF, "{}")),
  ("utf8_overlong_3_bytes", bytes(#"[""#, 0xE0, 0x80, 0xAF, #""]"#)),
  ("utf8_overlong_4_bytes", bytes(#"[""#, 0xF0, 0x80, 0x80, 0xAF, #""]"#)),
  ("utf8_truncated_at_end", bytes(#"[""#, 0xF0, 0x9F, 0x98)),
  (
    "nesting_513_arrays",
    bytes(.text(String(repeating: "[", count: 513)), .text(String(repeating: "]", count: 513)))
  ),
  (
    "nesting_513_objects",
    bytes(
      .text(String(repeating: #"{"a":"#, count: 513)), "1",
      .text(String(repeating: "}", count: 513)))
  ),
  // NB: RFC 8259 allows repeated member names; the wire format refuses them with a shape error
  // (aRepeatedMemberNameIsAShapeErrorNamingTheKey in StrictnessTests.swift).
]

@Test func acceptsWhatRFC8259CallsJSON() {
  for (name, document) in accepted {
    #expect(throws: Never.self, "\(name)") { try JSONParser.parse(document) }
  }
}

@Test func rejectsWhatRFC8259DoesNotCallJSONWithASyntaxError() {
  for (name, document) in rejected {
    let failure = error { () throws(JSONError) in try JSONParser.parse(document) }
    #expect(failure?.kind == .syntax, "\(name) was not rejected as a syntax error")
    #expect(failure?.offset != nil, "\(name): a syntax error carries a byte offset")
    if let offset = failure?.offset {
      #expect(offset >= 0 && offset <= document.count, "\(name): offset \(offset) out of range")
    }
  }
}

@Test func parsedValuesAreRight() throws {
  #expect(try JSONParser.parse(bytes(#"["\uD834\uDd1e"]"#)) == .array([.string("𝄞")]))
  #expect(
    try JSONParser.parse(bytes(#"["\"\\\/\b\f\n\r\t"]"#))
      == .array([.string("\"\\/\u{8}\u{C}\n\r\t")]))
  #expect(
    try JSONParser.parse(bytes(#"{"foo\u0000bar": 42}"#))
      == .object([("foo\u{0}bar", .number("42"))]))
  #expect(try JSONParser.parse(bytes(" -0.1 ")) == .number("-0.1"))
  #expect(
    try JSONParser.parse(bytes(#"[""#, 0xF4, 0x8F, 0xBF, 0xBF, #""]"#))
      == .array([.string("\u{10FFFF}")]))
  #expect(
    try JSONParser.parse(bytes("[null,true,false]")) == .array([.null, .bool(true), .bool(false)]))
}

@Test func writerRoundTripsTheAcceptedCorpus() throws {
  for (name, document) in accepted {
    let value = try JSONParser.parse(document)
    let written = JSONWriter.write(value)
    #expect(try JSONParser.parse(written) == value, "\(name)")
  }
}
