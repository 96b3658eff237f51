// The JSON a host needs without a JSON library: Quote (answers), Unquote (strings in the state),
// and reading the fixed-shape array of Store.TakeRequests.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Tca
{
    public static partial class Json
    {
        /// <summary>text as a JSON string: Quote("a\"b") is "\"a\\\"b\"".</summary>
        public static string Quote(string text)
        {
            var out_ = new StringBuilder("\"");
            foreach (char c in text)
            {
                switch (c)
                {
                    case '"': out_.Append("\\\""); break;
                    case '\\': out_.Append("\\\\"); break;
                    case '\n': out_.Append("\\n"); break;
                    case '\r': out_.Append("\\r"); break;
                    case '\t': out_.Append("\\t"); break;
                    default:
                        if (c < 0x20) out_.AppendFormat("\\u{0:x4}", (int)c);
                        else out_.Append(c);
                        break;
                }
            }
            return out_.Append('"').ToString();
        }

        /// <summary>The text of a JSON string; TcaException (JsonShape) if json is not one.</summary>
        public static string Unquote(string json)
        {
            var reader = new Reader(json);
            string text = reader.String();
            if (reader.Peek() != '\0') throw reader.Fail("expected a JSON string");
            return text;
        }

        internal static List<Request> ReadRequests(string json)
        {
            var reader = new Reader(json);
            var out_ = new List<Request>();
            reader.Expect('[');
            if (reader.NextIs(']')) return out_;
            do { out_.Add(reader.Object()); } while (reader.NextIs(','));
            reader.Expect(']');
            return out_;
        }

        sealed class Reader
        {
            readonly string json;
            int at;

            public Reader(string json) { this.json = json ?? ""; }

            public TcaException Fail(string what)
            {
                string shown = json.Length > 40 ? json.Substring(0, 40) : json;
                return new TcaException(Status.JsonShape,
                    "Tca.Json: " + what + " at character " + at + " of " + shown);
            }

            public char Peek()
            {
                while (at < json.Length && char.IsWhiteSpace(json[at])) at++;
                return at < json.Length ? json[at] : '\0';
            }

            public bool NextIs(char c)
            {
                if (Peek() != c) return false;
                at++;
                return true;
            }

            public void Expect(char c)
            {
                if (!NextIs(c)) throw Fail("expected '" + c + "'");
            }

            public string String()
            {
                if (Peek() != '"') throw Fail("expected a JSON string");
                at++;
                var out_ = new StringBuilder();
                while (true)
                {
                    if (at >= json.Length) throw Fail("expected a JSON string");
                    char c = json[at++];
                    if (c == '"') return out_.ToString();
                    if (c != '\\') { out_.Append(c); continue; }
                    if (at >= json.Length) throw Fail("expected a JSON string");
                    char e = json[at++];
                    switch (e)
                    {
                        case 'n': out_.Append('\n'); break;
                        case 't': out_.Append('\t'); break;
                        case 'r': out_.Append('\r'); break;
                        case 'b': out_.Append('\b'); break;
                        case 'f': out_.Append('\f'); break;
                        case 'u':
                            int code;
                            if (at + 4 > json.Length || !int.TryParse(json.Substring(at, 4),
                                    NumberStyles.HexNumber, CultureInfo.InvariantCulture, out code))
                                throw Fail("expected a JSON string");
                            out_.Append((char)code);  // NB: surrogate pairs come as two \u escapes
                            at += 4;
                            break;
                        default: out_.Append(e); break;
                    }
                }
            }

            ulong Number()
            {
                Peek();
                int start = at;
                while (at < json.Length && char.IsDigit(json[at])) at++;
                ulong value;
                if (!ulong.TryParse(json.Substring(start, at - start), NumberStyles.None,
                        CultureInfo.InvariantCulture, out value))
                    throw Fail("expected a number");
                return value;
            }

            void SkipValue()
            {
                char c = Peek();
                if (c == '"') { String(); return; }
                if (c == '{' || c == '[')
                {
                    int depth = 0;
                    do
                    {
                        if (at >= json.Length) throw Fail("unterminated value");
                        c = json[at];
                        if (c == '"') { String(); continue; }
                        if (c == '{' || c == '[') depth++;
                        if (c == '}' || c == ']') depth--;
                        at++;
                    } while (depth > 0);
                    return;
                }
                while (at < json.Length && ",}]".IndexOf(json[at]) < 0) at++;
            }

            public Request Object()
            {
                var request = new Request { Name = "", Payload = "" };
                Expect('{');
                do
                {
                    string key = String();
                    Expect(':');
                    switch (key)
                    {
                        case "id": request.Id = Number(); break;
                        case "cancelled": request.Id = Number(); request.Cancelled = true; break;
                        case "name": request.Name = String(); break;
                        case "kind":
                            string kind = String();
                            request.Kind = kind == "stream" ? RequestKind.Stream
                                : kind == "fireAndForget" ? RequestKind.FireAndForget
                                : RequestKind.OneShot;
                            break;
                        default:
                            Peek();
                            int start = at;
                            SkipValue();
                            if (key == "payload") request.Payload = json.Substring(start, at - start);
                            break;
                    }
                } while (NextIs(','));
                Expect('}');
                return request;
            }
        }
    }
}
