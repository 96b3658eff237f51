// RFC 6902 JSON Patch applied to parsed JSON (JsonValue.cs): how a host that keeps the state
// follows Store.Patch / Store.Changes instead of parsing the whole state again.
//
//   object state = Json.Parse(store.State());
//   ulong seen = store.Version;
//   …                                                        // sends, advances
//   state = Json.ApplyPatch(state, store.Changes(seen, out seen));
using System;
using System.Collections.Generic;

namespace Tca
{
    public static partial class Json
    {
        /// <summary><paramref name="document"/> with the operations of a patch (Store.Patch's
        /// text) applied in order; see the other overload.</summary>
        public static object ApplyPatch(object document, string patch)
        {
            var operations = Parse(patch) as List<object>;
            if (operations == null)
                throw new TcaException(Status.JsonShape,
                    "Tca.Json.ApplyPatch: a patch is a JSON array");
            return ApplyPatch(document, operations);
        }

        /// <summary>
        /// <paramref name="document"/> with <paramref name="operations"/> (parsed: Store.Changes)
        /// applied in order. Containers are changed in place (a game keeps one state and patches
        /// it each frame); the result is the new document, another value only when the patch
        /// replaces the whole of it (path ""). Throws TcaException (NotFound) for a path that
        /// names nothing, (InvalidArgument) for a bad operation or a failed "test".
        /// </summary>
        public static object ApplyPatch(object document, IList<object> operations)
        {
            if (operations == null) throw new ArgumentNullException("operations");
            foreach (object item in operations)
            {
                var operation = item as Dictionary<string, object>;
                if (operation == null) throw Bad("an operation is a JSON object", "");
                string op = Member(operation, "op"), path = Member(operation, "path");
                object value;
                operation.TryGetValue("value", out value);
                switch (op)
                {
                    case "add":
                        document = Add(document, path, value);
                        break;
                    case "remove":
                        Remove(document, path);
                        break;
                    case "replace":
                        if (path.Length == 0) document = value;
                        else
                        {
                            Remove(document, path);
                            document = Add(document, path, value);
                        }
                        break;
                    case "move":
                        object moved = Remove(document, Member(operation, "from"));
                        document = Add(document, path, moved);
                        break;
                    case "copy":
                        object copied = Copy(Find(document, Member(operation, "from")));
                        document = Add(document, path, copied);
                        break;
                    case "test":
                        if (!Equal(Find(document, path), value)) throw Bad("the test failed", path);
                        break;
                    default:
                        throw Bad("unknown op " + Quote(op ?? ""), path);
                }
            }
            return document;
        }

        /// <summary>A patch operation as Changes gives them: {"op","path","value"}.</summary>
        internal static Dictionary<string, object> Operation(string op, string path, object value)
        {
            var operation = new Dictionary<string, object>();
            operation["op"] = op;
            operation["path"] = path;
            operation["value"] = value;
            return operation;
        }

        static string Member(Dictionary<string, object> operation, string name)
        {
            object value;
            if (!operation.TryGetValue(name, out value) || !(value is string))
                throw Bad("an operation without a string \"" + name + "\"", "");
            return (string)value;
        }

        static TcaException Bad(string what, string path)
        {
            return new TcaException(Status.InvalidArgument,
                "Tca.Json.ApplyPatch: at " + Quote(path) + ": " + what);
        }

        /// <summary>The container holding the last token of <paramref name="tokens"/>.</summary>
        static object Parent(object document, string[] tokens, string path)
        {
            object node = document;
            for (int i = 0; i < tokens.Length - 1; i++) node = Child(node, tokens[i], path);
            if (!(node is Dictionary<string, object>) && !(node is List<object>))
                throw new TcaException(Status.NotFound, "Tca.Json.ApplyPatch: at " + Quote(path) +
                    ": a path into a scalar");
            return node;
        }

        static object Add(object document, string path, object value)
        {
            string[] tokens = Tokens(path);
            if (tokens.Length == 0) return value;
            object parent = Parent(document, tokens, path);
            string last = tokens[tokens.Length - 1];
            var list = parent as List<object>;
            if (list != null) list.Insert(Index(list, last, true, path), value);
            else ((Dictionary<string, object>)parent)[last] = value;
            return document;
        }

        static object Remove(object document, string path)
        {
            string[] tokens = Tokens(path);
            if (tokens.Length == 0) throw Bad("a remove of the whole document", path);
            object parent = Parent(document, tokens, path);
            string last = tokens[tokens.Length - 1];
            object removed = Child(parent, last, path);
            var list = parent as List<object>;
            if (list != null) list.RemoveAt(Index(list, last, false, path));
            else ((Dictionary<string, object>)parent).Remove(last);
            return removed;
        }

        static object Copy(object value)
        {
            var members = value as Dictionary<string, object>;
            if (members != null)
            {
                var copy = new Dictionary<string, object>();
                foreach (KeyValuePair<string, object> member in members)
                    copy[member.Key] = Copy(member.Value);
                return copy;
            }
            var list = value as List<object>;
            if (list != null) return list.ConvertAll(Copy);
            return value;
        }
    }
}
