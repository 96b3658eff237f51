// JSON as plain .NET values, for a host that keeps the state (Json.Parse once, then
// Json.ApplyPatch each frame) without a JSON library: an object is a Dictionary<string, object>,
// an array a List<object>, a string a string, a number a long (an integer that fits) or a
// double, true and false bools, null null.
//
//   object state = Json.Parse(store.State());
//   long count = (long)Json.Find(state, "/count");
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Tca
{
    public static partial class Json
    {
        /// <summary>The value of a JSON text; TcaException (JsonSyntax) naming the place if it is
        /// not JSON.</summary>
        public static object Parse(string json)
        {
            var parser = new Parser(json ?? "");
            object value = parser.Value(0);
            parser.End();
            return value;
        }

        /// <summary>The JSON text of a value Parse gives (members in the dictionary's order).
        /// </summary>
        public static string Write(object value)
        {
            var out_ = new StringBuilder();
            Write(value, out_);
            return out_.ToString();
        }

        /// <summary>Whether two parsed values are equal as JSON (objects whatever their members'
        /// order, 1 and 1.0 the same number).</summary>
        public static bool Equal(object a, object b)
        {
            if (a == null || b == null) return a == null && b == null;
            if (IsNumber(a) && IsNumber(b)) return Convert.ToDouble(a) == Convert.ToDouble(b);
            var objectA = a as Dictionary<string, object>;
            var objectB = b as Dictionary<string, object>;
            if (objectA != null || objectB != null)
            {
                if (objectA == null || objectB == null || objectA.Count != objectB.Count)
                    return false;
                foreach (KeyValuePair<string, object> member in objectA)
                {
                    object other;
                    if (!objectB.TryGetValue(member.Key, out other) || !Equal(member.Value, other))
                        return false;
                }
                return true;
            }
            var listA = a as List<object>;
            var listB = b as List<object>;
            if (listA != null || listB != null)
            {
                if (listA == null || listB == null || listA.Count != listB.Count) return false;
                for (int i = 0; i < listA.Count; i++)
                    if (!Equal(listA[i], listB[i])) return false;
                return true;
            }
            return a.Equals(b);
        }

        /// <summary>The value at a JSON Pointer ("/todos/0/title") in a parsed value;
        /// TcaException (NotFound) if there is none.</summary>
        public static object Find(object document, string pointer)
        {
            object node = document;
            foreach (string token in Tokens(pointer))
                node = Child(node, token, pointer);
            return node;
        }

        static bool IsNumber(object value) { return value is long || value is double; }

        internal static object Child(object node, string token, string pointer)
        {
            var members = node as Dictionary<string, object>;
            if (members != null)
            {
                object value;
                if (members.TryGetValue(token, out value)) return value;
                throw NotFound("no member " + Quote(token), pointer);
            }
            var list = node as List<object>;
            if (list != null) return list[Index(list, token, false, pointer)];
            throw NotFound("a scalar has no " + Quote(token), pointer);
        }

        /// <summary>The reference tokens of a JSON Pointer ("/a~1b/0": "a/b", "0").</summary>
        internal static string[] Tokens(string pointer)
        {
            if (pointer == null) throw new ArgumentNullException("pointer");
            if (pointer.Length == 0) return new string[0];
            if (pointer[0] != '/')
                throw new TcaException(Status.InvalidArgument,
                    "Tca.Json: the pointer " + Quote(pointer) + " does not start with /");
            string[] tokens = pointer.Substring(1).Split('/');
            for (int i = 0; i < tokens.Length; i++)
                tokens[i] = tokens[i].Replace("~1", "/").Replace("~0", "~");
            return tokens;
        }

        /// <summary>The index an array token names; with <paramref name="pastEnd"/>, "-" and
        /// Count too (where add inserts).</summary>
        internal static int Index(List<object> list, string token, bool pastEnd, string pointer)
        {
            if (pastEnd && token == "-") return list.Count;
            int index;
            if (token.Length == 0 || (token.Length > 1 && token[0] == '0') ||
                !int.TryParse(token, NumberStyles.None, CultureInfo.InvariantCulture, out index))
                throw NotFound("not an array index: " + Quote(token), pointer);
            if (index > list.Count || (index == list.Count && !pastEnd))
                throw NotFound("index " + index + " past the end (" + list.Count + ")", pointer);
            return index;
        }

        static TcaException NotFound(string what, string pointer)
        {
            return new TcaException(Status.NotFound,
                "Tca.Json: at " + Quote(pointer) + ": " + what);
        }

        static void Write(object value, StringBuilder out_)
        {
            if (value == null) { out_.Append("null"); return; }
            if (value is bool) { out_.Append((bool)value ? "true" : "false"); return; }
            if (value is string) { out_.Append(Quote((string)value)); return; }
            if (value is long)
            {
                out_.Append(((long)value).ToString(CultureInfo.InvariantCulture));
                return;
            }
            if (value is double)
            {
                out_.Append(((double)value).ToString("R", CultureInfo.InvariantCulture));
                return;
            }
            var members = value as Dictionary<string, object>;
            if (members != null)
            {
                out_.Append('{');
                bool first = true;
                foreach (KeyValuePair<string, object> member in members)
                {
                    if (!first) out_.Append(',');
                    first = false;
                    out_.Append(Quote(member.Key)).Append(':');
                    Write(member.Value, out_);
                }
                out_.Append('}');
                return;
            }
            var list = value as List<object>;
            if (list != null)
            {
                out_.Append('[');
                for (int i = 0; i < list.Count; i++)
                {
                    if (i > 0) out_.Append(',');
                    Write(list[i], out_);
                }
                out_.Append(']');
                return;
            }
            throw new ArgumentException("Tca.Json.Write: a " + value.GetType().Name +
                " is not a parsed JSON value");
        }

        sealed class Parser
        {
            const int MaxDepth = 512;  // as the library's own parser
            readonly string json;
            int at;

            public Parser(string json) { this.json = json; }

            TcaException Fail(string what)
            {
                string shown = json.Length > 40 ? json.Substring(0, 40) + "…" : json;
                return new TcaException(Status.JsonSyntax,
                    "Tca.Json: " + what + " at character " + at + " of " + Quote(shown));
            }

            char Peek()
            {
                while (at < json.Length && " \t\n\r".IndexOf(json[at]) >= 0) at++;
                return at < json.Length ? json[at] : '\0';
            }

            public void End()
            {
                if (Peek() != '\0' || at < json.Length)
                    throw Fail("unexpected text after the value");
            }

            bool Literal(string word)
            {
                if (string.CompareOrdinal(json, at, word, 0, word.Length) != 0) return false;
                at += word.Length;
                return true;
            }

            public object Value(int depth)
            {
                if (depth > MaxDepth) throw Fail("nesting deeper than " + MaxDepth);
                char c = Peek();
                if (c == '{') return Members(depth);
                if (c == '[') return Elements(depth);
                if (c == '"') return String();
                if (c == 't' && Literal("true")) return true;
                if (c == 'f' && Literal("false")) return false;
                if (c == 'n' && Literal("null")) return null;
                if (c == '-' || (c >= '0' && c <= '9')) return Number();
                throw Fail(c == '\0' ? "unexpected end" : "unexpected " + Quote(c.ToString()));
            }

            Dictionary<string, object> Members(int depth)
            {
                var members = new Dictionary<string, object>();
                at++;
                if (Peek() == '}') { at++; return members; }
                while (true)
                {
                    if (Peek() != '"') throw Fail("expected a member name");
                    string name = String();
                    if (Peek() != ':') throw Fail("expected ':'");
                    at++;
                    members[name] = Value(depth + 1);
                    char c = Peek();
                    at++;
                    if (c == '}') return members;
                    if (c != ',') { at--; throw Fail("expected ',' or '}'"); }
                }
            }

            List<object> Elements(int depth)
            {
                var list = new List<object>();
                at++;
                if (Peek() == ']') { at++; return list; }
                while (true)
                {
                    list.Add(Value(depth + 1));
                    char c = Peek();
                    at++;
                    if (c == ']') return list;
                    if (c != ',') { at--; throw Fail("expected ',' or ']'"); }
                }
            }

            string String()
            {
                at++;
                var out_ = new StringBuilder();
                while (true)
                {
                    if (at >= json.Length) throw Fail("an unterminated string");
                    char c = json[at++];
                    if (c == '"') return out_.ToString();
                    if (c < 0x20) { at--; throw Fail("a control character in a string"); }
                    if (c != '\\') { out_.Append(c); continue; }
                    if (at >= json.Length) throw Fail("an unterminated string");
                    char e = json[at++];
                    switch (e)
                    {
                        case '"': case '\\': case '/': out_.Append(e); break;
                        case 'n': out_.Append('\n'); break;
                        case 't': out_.Append('\t'); break;
                        case 'r': out_.Append('\r'); break;
                        case 'b': out_.Append('\b'); break;
                        case 'f': out_.Append('\f'); break;
                        case 'u':
                            int code;
                            if (at + 4 > json.Length || !int.TryParse(json.Substring(at, 4),
                                    NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture,
                                    out code))
                                throw Fail("a bad \\u escape");
                            // NB: a surrogate pair is two escapes, two chars.
                            out_.Append((char)code);
                            at += 4;
                            break;
                        default: at--; throw Fail("a bad escape");
                    }
                }
            }

            object Number()
            {
                int start = at;
                if (json[at] == '-') at++;
                while (at < json.Length && "0123456789+-.eE".IndexOf(json[at]) >= 0) at++;
                string text = json.Substring(start, at - start);
                long integer;
                if (text.IndexOfAny(new[] { '.', 'e', 'E' }) < 0 &&
                    long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture,
                        out integer))
                    return integer;
                double number;
                if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture,
                        out number))
                    return number;
                at = start;
                throw Fail("a bad number");
            }
        }
    }
}
