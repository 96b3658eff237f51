// Where libtca comes from: the first of these places that has it (the same as the Python and Lua
// bindings'):
//   1. $TCA_LIBRARY (a path; nothing else is tried when it is set);
//   2. next to the program, then next to Tca.dll;
//   3. inside the libtca repository (Tca.dll built in build/dotnet by make), its build/lib;
//   4. the dynamic loader's own search for libtca.so.0 (LD_LIBRARY_PATH, ldconfig's cache, the
//      system's folders): where `make install` into a system prefix puts it;
//   5. the standard prefixes, for an install ldconfig has not indexed.
// The file chosen is given to Mono for the P/Invokes' "libtca.so.0" (mono_dllmap_insert, what a
// <dllmap> in a .config file does). A library found nowhere is a DllNotFoundException that lists
// each place and why it failed, and says what to set.
using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Tca
{
    internal static class Loader
    {
        const int RTLD_NOW = 2, RTLD_GLOBAL = 0x100;

        [DllImport("libdl.so.2")] static extern IntPtr dlopen(string path, int flags);
        [DllImport("libdl.so.2")] static extern IntPtr dlerror();
        [DllImport("__Internal")]
        static extern void mono_dllmap_insert(IntPtr assembly, string dll, string func, string tdll,
            string tfunc);

        const string Fix = "To fix: set TCA_LIBRARY to the path of libtca.so.0 (this " +
            "repository's build/lib/libtca.so.0 after `make`), or put libtca.so.0 next to your " +
            "program, or install libtca (`make install`, then `ldconfig`), or add its folder to " +
            "LD_LIBRARY_PATH.";

        static readonly object gate = new object();
        static volatile bool loaded;

        /// <summary>Finds and loads libtca once; throws DllNotFoundException saying where it
        /// looked. Called before any method that calls the library is compiled.</summary>
        public static void EnsureLoaded()
        {
            if (loaded) return;
            lock (gate)
            {
                if (loaded) return;
                var tried = new List<string>();
                foreach (KeyValuePair<string, string> candidate in Candidates())
                {
                    string path = candidate.Key, origin = candidate.Value;
                    if (path.Contains("/") && !File.Exists(path))
                    {
                        tried.Add("  " + path + " (" + origin + "): not found");
                        continue;
                    }
                    // NB: never closed: the library stays for the life of the process.
                    if (dlopen(path, RTLD_NOW | RTLD_GLOBAL) == IntPtr.Zero)
                    {
                        tried.Add("  " + path + " (" + origin + "): " + DlError());
                        continue;
                    }
                    if (path.Contains("/")) Map(path);
                    loaded = true;
                    return;
                }
                throw new DllNotFoundException("cannot load libtca. Tried, in order:\n" +
                    string.Join("\n", tried) + "\n" + Fix);
            }
        }

        /// <summary>Mono's own DllNotFoundException (a library it could not load after all), said
        /// again with what to set.</summary>
        public static DllNotFoundException Explain(DllNotFoundException error)
        {
            return new DllNotFoundException("cannot load libtca (Mono: " + error.Message + "). " +
                Fix, error);
        }

        static void Map(string path)
        {
            try
            {
                mono_dllmap_insert(IntPtr.Zero, Native.Library, null, path, null);
            }
            // NB: not Mono: the library loaded above is found by its name.
            catch (EntryPointNotFoundException) { }
            catch (DllNotFoundException) { }
        }

        static string DlError()
        {
            IntPtr message = dlerror();
            return message == IntPtr.Zero ? "dlopen failed" : Marshal.PtrToStringAnsi(message);
        }

        static IEnumerable<KeyValuePair<string, string>> Candidates()
        {
            string explicit_ = Environment.GetEnvironmentVariable("TCA_LIBRARY");
            if (!string.IsNullOrEmpty(explicit_))
            {
                yield return Pair(explicit_, "$TCA_LIBRARY");
                yield break;
            }
            string program = AppDomain.CurrentDomain.BaseDirectory;
            if (!string.IsNullOrEmpty(program))
                yield return Pair(Path.Combine(program, Native.Library), "next to the program");
            string assembly = Path.GetDirectoryName(typeof(Loader).Assembly.Location);
            if (!string.IsNullOrEmpty(assembly) &&
                Path.GetFullPath(assembly + "/") != Path.GetFullPath(program ?? "/"))
                yield return Pair(Path.Combine(assembly, Native.Library), "next to Tca.dll");
            string repository = Repository(assembly);
            if (repository != null)
                yield return Pair(Path.Combine(repository, "build/lib/" + Native.Library),
                    "this repository's `make lib`");
            yield return Pair(Native.Library,
                "the dynamic loader: LD_LIBRARY_PATH, ldconfig's cache");
            foreach (string prefix in new[] { "/usr/local/lib", "/usr/local/lib64",
                     "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
                     "/usr/lib" })
                yield return Pair(prefix + "/" + Native.Library, "a standard prefix");
        }

        /// <summary>The libtca repository Tca.dll was built in (build/dotnet), or null.</summary>
        static string Repository(string folder)
        {
            for (int up = 0; folder != null && up < 3; up++, folder = Path.GetDirectoryName(folder))
            {
                if (File.Exists(Path.Combine(folder, "include/tca.h")) &&
                    Directory.Exists(Path.Combine(folder, "bindings/dotnet")))
                    return folder;
            }
            return null;
        }

        static KeyValuePair<string, string> Pair(string path, string origin)
        {
            return new KeyValuePair<string, string>(path, origin);
        }
    }
}
