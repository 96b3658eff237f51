// Tca's API, every wrapped function of tca.h: stores, state (copied and borrowed), pull-mode
// requests, patches and a kept state, subscribers (kept alive, disposed, their exceptions thrown
// again), the journal and replay, the reductions log, features, TcaException with the library's
// message, stores freed by Dispose and by the finalizer (SafeHandle), no string left unfreed on
// error paths. Prints "N passed, N failed"; exits 1 on a failure. With --missing-library (and
// TCA_LIBRARY naming no file) it checks the DllNotFoundException's message instead.
using System;
using System.Collections.Generic;
using System.IO;
using Tca;

static class Tests
{
    static int passed, failed;

    static void Check(bool ok, string what)
    {
        if (ok) { passed++; return; }
        failed++;
        Console.Error.WriteLine("FAILED: " + what);
    }

    static void Throws(Status status, string needle, Action body)
    {
        try
        {
            body();
            Check(false, "no TcaException (expected " + status + ", " + needle + ")");
        }
        catch (TcaException error)
        {
            Check(error.Status == status && error.Message.Contains(needle),
                "TcaException " + error.Status + " \"" + error.Message + "\", expected " + status +
                " containing \"" + needle + "\"");
        }
    }

    static void StateAndSend()
    {
        using (var store = new Store("counter"))
        {
            Check(store.Get("/count") == "0", "a new counter is 0");
            ulong version = store.Version;
            for (int i = 0; i < 43; i++) store.Send("\"incrementButtonTapped\"");
            store.Send("\"decrementButtonTapped\"");
            Check(store.Get("/count") == "42", "42");
            Check(store.Version > version, "version moved");
            Check(store.State().StartsWith("{\"count\":42,"), "state");
            using (var copy = new Store("counter", null, store.State()))
                Check(copy.Get("/count") == "42", "a snapshot restores");
            // Send's cached bytes: alternating literals, and equal strings built at run time.
            string built = new string("\"decrementButtonTapped\"".ToCharArray());
            for (int i = 0; i < 3; i++)
            {
                store.Send("\"incrementButtonTapped\"");
                store.Send(built);
                store.Send(new string(built.ToCharArray()));
            }
            Check(store.Get("/count") == "39", "alternating and built actions each count once");
        }
        Check(Store.LibraryVersion == "0.1.0", "library version");
    }

    static void Errors()
    {
        Throws(Status.UnknownFeature, "nope", () => new Store("nope"));
        Throws(Status.JsonSyntax, "state_json", () => new Store("counter", null, "{\"count\":"));
        using (var store = new Store("counter"))
        {
            ulong version = store.Version;
            Throws(Status.JsonShape, "tca_store_send", () => store.Send("\"jumpButtonTapped\""));
            Throws(Status.JsonSyntax, "tca_store_send", () => store.Send("{"));
            // Non-ASCII past the ASCII copy: the UTF-8 fallback reaches C intact (quoted in the message).
            Throws(Status.JsonShape, "tca_store_send", () => store.Send("\"jümp\u2603ButtonTapped\""));
            Throws(Status.NotFound, "/nothing", () => store.Get("/nothing"));
            Throws(Status.InvalidArgument, "json_pointer", () => store.Get("count"));
            Throws(Status.RealClock, "tca_store_advance", () => store.Advance(16));
            Throws(Status.UnknownRequest, "99", () => store.Respond(99, "\"x\""));
            Throws(Status.UnknownRequest, "99", () => store.Fail(99, "x"));
            Throws(Status.UnknownRequest, "99", () => store.Complete(99));
            Check(store.Version == version, "a failed call changes nothing");
            bool argument = false;
            try { store.Send(null); } catch (ArgumentNullException) { argument = true; }
            Check(argument, "null is an ArgumentNullException");
        }
        Throws(Status.JsonShape, "expected a JSON string", () => Json.Unquote("42"));
        Throws(Status.JsonShape, "expected a JSON string", () => Json.Unquote("\"\\u12\""));
    }

    static void PullMode()
    {
        using (var store = new Store("counter"))
        {
            Check(store.TakeRequests().Count == 0, "nothing waits");
            store.Send("\"incrementButtonTapped\"");
            store.Send("\"numberFactButtonTapped\"");
            store.Send("\"numberFactButtonTapped\"");
            List<Request> taken = store.TakeRequests();
            Check(taken.Count == 3, "three taken: " + string.Join(", ", taken));
            if (taken.Count != 3) return;
            Check(!taken[0].Cancelled && taken[0].Name == "numberFact.fetch" &&
                  taken[0].Payload == "1" && taken[0].Kind == RequestKind.OneShot, "the request");
            Check(taken[1].Cancelled && taken[1].Id == taken[0].Id, "the cancellation notice");
            Throws(Status.NotAStream, "tca_store_complete", () => store.Complete(taken[2].Id));
            store.Respond(taken[2].Id, Json.Quote("1 is \"the\" loneliest number."));
            Check(Json.Unquote(store.Get("/numberFact")) == "1 is \"the\" loneliest number.",
                "answered later");
            Throws(Status.RequestFinished, "tca_store_respond", () => store.Respond(taken[0].Id, "\"late\""));
            store.Send("\"numberFactButtonTapped\"");
            store.Fail(store.TakeRequests()[0].Id, "offline");
            Check(store.Get("/numberFactError").Contains("offline"), "failed by the host");
        }
        using (var dice = new Store("dice", new Options { ManualClock = true, Seed = 7 }))
        {
            dice.Send("\"rollButtonTapped\"");
            // NB: the history is shared state the host keeps: shared.load at the first turn.
            List<Request> taken = dice.TakeRequests().FindAll(r => r.Name != "shared.load");
            Check(taken.Count == 1 && taken[0].Name == "haptics.impact" &&
                  taken[0].Kind == RequestKind.FireAndForget &&
                  taken[0].Payload == "{\"style\":\"medium\"}", "haptics");
            dice.Advance(499);
            Check(dice.Get("/isRolling") == "true" && dice.NextDeadlineMs == 1, "one ms to go");
            dice.Advance(1);
            Check(dice.Get("/currentRoll") == "5", "seed 7 rolls 5");
        }
    }

    [System.Runtime.CompilerServices.MethodImpl(
        System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    static IntPtr Abandoned()
    {
        var store = new Store("counter");
        store.Send("\"incrementButtonTapped\"");
        return store.Handle.Raw;  // the Store is dropped without Dispose
    }

    static void Freeing()
    {
        var store = new Store("counter");
        IntPtr raw = store.Handle.Raw;
        store.Dispose();
        Check(Tca.Testing.VersionOf(raw) == ulong.MaxValue, "Dispose freed the store");
        bool disposed = false;
        try { store.Send("\"incrementButtonTapped\""); } catch (ObjectDisposedException) { disposed = true; }
        Check(disposed, "a disposed Store throws ObjectDisposedException");
        store.Dispose();  // twice is fine

        // NB: made on another thread, so no stale reference on this stack (Mono scans it
        // conservatively) keeps the Store alive.
        IntPtr abandoned = IntPtr.Zero;
        var maker = new System.Threading.Thread(() => { abandoned = Abandoned(); });
        maker.Start();
        maker.Join();
        for (int i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
        Check(Tca.Testing.VersionOf(abandoned) == ulong.MaxValue, "the finalizer freed the store");

        for (int i = 0; i < 300; i++)
        {
            using (var s = new Store("counter"))
            {
                s.Send("\"numberFactButtonTapped\"");
                Check(s.TakeRequests().Count == 1, "taken " + i);
                try { s.Get("/missing"); } catch (TcaException) { }
            }
            try { new Store("nope" + i); } catch (TcaException) { }
        }
    }

    [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Sequential)]
    struct MallInfo2
    {
        public UIntPtr Arena, Ordblks, Smblks, Hblks, Hblkhd, Usmblks, Fsmblks, Uordblks, Fordblks,
            Keepcost;
    }

    [System.Runtime.InteropServices.DllImport("libc.so.6")]
    static extern MallInfo2 mallinfo2();

    /// <summary>Bytes in use on the C heap (glibc's mallinfo2), where libtca's strings live.</summary>
    static long CHeapInUse() { return (long)mallinfo2().Uordblks.ToUInt64(); }

    // Every string the library returns is freed: 20,000 reads, takes and failures leave the C
    // heap where it was (a leak of each would be megabytes).
    static void StringsAreFreed()
    {
        using (var store = new Store("counter"))
        {
            Action round = () =>
            {
                store.State();
                store.Get("/count");
                store.TakeRequests();
                try { store.Get("/missing"); } catch (TcaException) { }
                try { store.Send("\"jumpButtonTapped\""); } catch (TcaException) { }
            };
            for (int i = 0; i < 1000; i++) round();  // warm up: the JIT, the library's caches
            long before = CHeapInUse();
            for (int i = 0; i < 4000; i++) round();
            long grown = CHeapInUse() - before;
            Check(grown < 200000, "the C heap grew by " + grown + " bytes over 20,000 calls");
        }
    }


    static void Library()
    {
        var features = (List<object>)Json.Parse(Store.Features());
        var names = new List<string>();
        foreach (object feature in features) names.Add((string)Json.Find(feature, "/name"));
        Check(names.Contains("counter") && names.Contains("dice"),
            "features: " + string.Join(",", names));
        object counter = features[names.IndexOf("counter")];
        Check((string)Json.Find(counter, "/requests/0") == "numberFact.fetch",
            "the counter's request");
        Check(Store.CanonicalAction("counter", "\"incrementButtonTapped\"") ==
            "{\"incrementButtonTapped\":{}}", "canonical action");
        Throws(Status.UnknownFeature, "nope", () => Store.CanonicalAction("nope", "\"x\""));
        // tca_feature_schema_n
        string schema = Store.Schema("counter");
        Check(schema.Contains("\"feature\":\"counter\"") && schema.Contains("numberFact.fetch"),
            "Store.Schema gives the counter's schema");
        Throws(Status.UnknownFeature, "counter", () => Store.Schema("nope"));
        try { new Store("nope"); }
        catch (TcaException error)
        {
            Check(error.Description.Length > 0 && error.Description != error.Message,
                "an error's description (tca_status_str): " + error.Description);
        }
    }

    static void JsonValues()
    {
        object value = Json.Parse(
            " {\"a\":[1,-2.5e1,true,false,null],\"b\":{},\"s\":\"\\u00e9\\ud83c\\udfb2\"} ");
        Check(Json.Write(value) == "{\"a\":[1,-25,true,false,null],\"b\":{},\"s\":\"é🎲\"}",
            "parse and write: " + Json.Write(value));
        Check((long)Json.Find(value, "/a/0") == 1 && Json.Find(value, "/a/4") == null, "find");
        Throws(Status.NotFound, "/a/9", () => Json.Find(value, "/a/9"));
        Throws(Status.JsonSyntax, "Tca.Json", () => Json.Parse("[1,"));
        Throws(Status.JsonSyntax, "after the value", () => Json.Parse("1 2"));
        Check(Json.Equal(Json.Parse("{\"x\":1,\"y\":[2]}"), Json.Parse("{\"y\":[2.0],\"x\":1}")),
            "equal");
        Check(!Json.Equal(Json.Parse("{\"x\":1}"), Json.Parse("{\"x\":1,\"y\":2}")), "not equal");

        object doc = Json.Parse("{\"a\":[1,2,3],\"b\":{},\"c\":[],\"d~/e\":1}");
        doc = Json.ApplyPatch(doc, "[" +
            "{\"op\":\"add\",\"path\":\"/a/1\",\"value\":9}," +
            "{\"op\":\"remove\",\"path\":\"/a/0\"}," +
            "{\"op\":\"add\",\"path\":\"/a/-\",\"value\":4}," +
            "{\"op\":\"replace\",\"path\":\"/a/1\",\"value\":5}," +
            "{\"op\":\"move\",\"from\":\"/a/0\",\"path\":\"/c/0\"}," +
            "{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/b/x\"}," +
            "{\"op\":\"add\",\"path\":\"/b/0\",\"value\":\"member\"}," +
            "{\"op\":\"replace\",\"path\":\"/d~0~1e\",\"value\":2}," +
            "{\"op\":\"test\",\"path\":\"/c\",\"value\":[9]}]");
        Check(Json.Equal(doc, Json.Parse(
            "{\"a\":[5,3,4],\"b\":{\"x\":[5,3,4],\"0\":\"member\"},\"c\":[9],\"d~/e\":2}")),
            "every op: " + Json.Write(doc));
        Check(!ReferenceEquals(Json.Find(doc, "/b/x"), Json.Find(doc, "/a")), "copy copies");
        Check((long)Json.ApplyPatch(doc, "[{\"op\":\"replace\",\"path\":\"\",\"value\":3}]") == 3,
            "whole replace");
        Throws(Status.NotFound, "/a/7",
            () => Json.ApplyPatch(doc, "[{\"op\":\"remove\",\"path\":\"/a/7\"}]"));
        Throws(Status.InvalidArgument, "test failed",
            () => Json.ApplyPatch(doc, "[{\"op\":\"test\",\"path\":\"/c\",\"value\":1}]"));
        Throws(Status.InvalidArgument, "unknown op",
            () => Json.ApplyPatch(doc, "[{\"op\":\"jump\",\"path\":\"/a\"}]"));
    }

    static void Patches()
    {
        using (var store = new Store("counter", new Options { ManualClock = true }))
        {
            ulong seen = store.Version;
            object kept = Json.Parse(store.State());
            Check(store.Patch(seen) == "[]", "nothing changed: []");
            store.Send("\"incrementButtonTapped\"");
            store.Send("\"incrementButtonTapped\"");
            Check(store.Patch(seen) == "[{\"op\":\"replace\",\"path\":\"/count\",\"value\":2}]",
                "patch text: " + store.Patch(seen));
            kept = Json.ApplyPatch(kept, store.Patch(seen));
            Check(Json.Equal(kept, Json.Parse(store.State())), "a kept state follows the text");
            ulong now;
            List<object> operations = store.Changes(seen, out now);
            Check(now == store.Version && operations.Count == 1, "changes");
            Throws(Status.VersionGone, "tca_store_patch", () => store.Patch(now + 5));
            // NB: a store without subscribers computes its version when it is read: reading each
            // makes 20 versions, more than the 16 kept.
            for (int i = 0; i < 20; i++)
            {
                store.Send("\"incrementButtonTapped\"");
                ulong ignored = store.Version;
            }
            Throws(Status.VersionGone, "tca_store_patch", () => store.Patch(seen));
            operations = store.Changes(seen, out now);
            kept = Json.ApplyPatch(kept, operations);
            Check(operations.Count == 1 && (string)Json.Find(operations[0], "/path") == "" &&
                  (long)Json.Find(kept, "/count") == 22 && now == store.Version,
                "a version no longer kept: the whole state replaced");
        }
    }

    static void Subscriptions()
    {
        using (var store = new Store("counter", new Options { ManualClock = true }))
        {
            var versions = new List<ulong>();
            var states = new List<string>();
            IDisposable plain = store.Subscribe(version => versions.Add(version));
            IDisposable withState = store.SubscribeState((version, json) => states.Add(json));
            ulong before = store.Version;
            store.Send("\"incrementButtonTapped\"");
            store.Send("\"incrementButtonTapped\"");
            Check(versions.Count == 2 && versions[0] == before + 1 && versions[1] == store.Version,
                "a subscriber hears each change: " + string.Join(",", versions));
            Check(states.Count == 2 && states[1] == store.State(), "with the state's JSON");
            store.Get("/count");
            Check(versions.Count == 2, "a read tells nobody");
            // The delegates survive collections: the library holds them through GCHandles.
            for (int i = 0; i < 3; i++) { GC.Collect(); GC.WaitForPendingFinalizers(); }
            store.Send("\"incrementButtonTapped\"");
            Check(versions.Count == 3 && states.Count == 3, "still called after collections");
            plain.Dispose();
            plain.Dispose();  // twice is fine
            store.Send("\"incrementButtonTapped\"");
            Check(versions.Count == 3 && states.Count == 4, "disposed: no more calls");
            withState.Dispose();

            // A subscriber's exception cannot cross the library: the call that ran it throws it.
            IDisposable broken = store.Subscribe(
                version => { throw new InvalidOperationException("boom"); });
            bool thrown = false;
            try { store.Send("\"incrementButtonTapped\""); }
            catch (InvalidOperationException error) { thrown = error.Message == "boom"; }
            Check(thrown, "a subscriber's exception is thrown by Send");
            Check(store.Get("/count") == "5", "the send itself happened");
            thrown = false;
            try { store.Send("\"incrementButtonTapped\""); }
            catch (InvalidOperationException) { thrown = true; }
            Check(thrown, "and again at the next change it hears of");
            broken.Dispose();
            store.Send("\"incrementButtonTapped\"");
            Check(store.Get("/count") == "7", "the store goes on");

            // Answers, advances and polls tell subscribers too; a send from one is told.
            int heard = 0;
            using (store.Subscribe(version =>
            {
                if (++heard == 1) store.Send("\"decrementButtonTapped\"");
            }))
            {
                store.Send("\"numberFactButtonTapped\"");
                Check(heard == 2, "a send from a subscriber is told too: " + heard);
                store.Respond(store.TakeRequests()[0].Id, "\"a fact\"");
                Check(heard == 3, "respond tells subscribers");
                store.Poll();
                Check(heard == 3, "a poll with nothing due tells nobody");
            }
            bool nullFn = false;
            try { store.Subscribe(null); } catch (ArgumentNullException) { nullFn = true; }
            Check(nullFn, "a null subscriber is an ArgumentNullException");
        }
        // A subscription outliving its store: disposing it after the store is fine.
        IDisposable orphan;
        using (var store = new Store("counter"))
            orphan = store.Subscribe(version => { });
        orphan.Dispose();
        Check(true, "a subscription disposed after its store");
    }

    static void BorrowedState()
    {
        using (var store = new Store("counter", null, "{\"count\":4}"))
        {
            string lent = store.BorrowState(stream =>
            {
                var bytes = new byte[stream.Length];
                stream.Read(bytes, 0, bytes.Length);
                return System.Text.Encoding.UTF8.GetString(bytes);
            });
            Check(Json.Equal(Json.Parse(lent), Json.Parse(store.State())),
                "the lent text: " + lent);
            UnmanagedMemoryStream kept = store.BorrowState(stream => stream);
            bool closed = false;
            try { kept.ReadByte(); } catch (ObjectDisposedException) { closed = true; }
            Check(closed, "the lent stream is closed once the reader returns");
            Check(store.Fd >= 0, "the store's descriptor");
        }
    }

    static void Recording()
    {
        var options = new Options { ManualClock = true, Seed = 7, Record = true };
        using (var store = new Store("counter", options))
        {
            // A line's version is the one the host reads next: read after each input.
            store.Send("\"incrementButtonTapped\"");
            Check(store.Version == 1, "version 1");
            store.Send("\"numberFactButtonTapped\"");
            Check(store.Version == 2, "version 2");
            Request fetch = store.TakeRequests()[0];
            store.Respond(fetch.Id, "\"1 is a number.\"");
            Check(store.Version == 3, "version 3");
            string journal = store.Journal();
            Check(journal.StartsWith(
                "{\"tcaJournal\":1,\"feature\":\"counter\",\"clock\":\"manual\",\"seed\":7,"),
                "the journal's header");
            using (Store atOne = Store.Replay(journal, 1))
            {
                Check(atOne.Get("/count") == "1" && atOne.Version == 1, "replayed to version 1");
                Check(atOne.TakeRequests().Count == 0, "the replay asked nothing yet");
            }
            using (Store whole = Store.Replay(journal))
            {
                Check(whole.State() == store.State(), "replayed to the end, byte for byte");
                Check(whole.Journal().Contains("\"version\":3"), "a replay records");
            }
            var hostThread = new Options { AnswersOnHostThread = true };
            using (Store pending = Store.Replay(journal, 2, hostThread))
            {
                List<Request> waiting = pending.TakeRequests();
                Check(waiting.Count == 1 && waiting[0].Id == fetch.Id,
                    "a request the journal left open waits");
                pending.Respond(waiting[0].Id, "\"replayed\"");
                pending.Poll();
                Check(Json.Unquote(pending.Get("/numberFact")) == "replayed",
                    "answered after the replay");
            }
            Throws(Status.JsonSyntax, "journal line 1", () => Store.Replay("nonsense"));
            Throws(Status.InvalidArgument, "", () => store.TakeReductions());
            store.LogReductions(true);
            store.Send("\"decrementButtonTapped\"");
            object reductions = Json.Parse(store.TakeReductions());
            Check(Json.Equal(Json.Find(reductions, "/0/origin"), "host") &&
                  Json.Find(reductions, "/0/action/decrementButtonTapped") != null &&
                  (long)Json.Find(reductions, "/0/state/count") == 0, "the reductions log");
            Check(store.TakeReductions() == "[]", "taken once");
            store.LogReductions(false);
            Throws(Status.InvalidArgument, "", () => store.TakeReductions());
        }
        using (var plain = new Store("counter"))
            Throws(Status.InvalidArgument, "record", () => plain.Journal());
    }

    static void Threaded()
    {
        using (var dice = new Store("dice", new Options { Threaded = true, Seed = 7 }))
        {
            var landed = new System.Threading.ManualResetEvent(false);
            int calls = 0;
            using (dice.Subscribe(version =>
            {
                calls++;
                if (dice.Get("/isRolling") == "false") landed.Set();
            }))
            {
                dice.Send("\"rollButtonTapped\"");
                Check(landed.WaitOne(10000), "a threaded store's thread calls the subscriber");
                Check(dice.Get("/currentRoll") == "5" && calls >= 2, "the roll landed");
            }
        }
    }

    // TCA_LIBRARY naming no file: the store cannot be made, and the exception says where the
    // loader looked and what to set.
    static int MissingLibrary()
    {
        try
        {
            new Store("counter");
            Console.Error.WriteLine("FAILED: a store was made without a library");
            return 1;
        }
        catch (DllNotFoundException error)
        {
            string path = Environment.GetEnvironmentVariable("TCA_LIBRARY");
            bool ok = error.Message.Contains(path + " ($TCA_LIBRARY): not found") &&
                error.Message.Contains("set TCA_LIBRARY") &&
                error.Message.Contains("LD_LIBRARY_PATH");
            Console.WriteLine((ok ? "ok: " : "FAILED: ") + error.Message.Replace("\n", " | "));
            return ok ? 0 : 1;
        }
    }

    // Options.IsolatedShared (tca_options.shared): an isolated store's shared fields are its own.
    static void IsolatedShared()
    {
        string teams = System.IO.File.ReadAllText(
            System.IO.Path.Combine(Root(), "Tests/fixtures/matchscores/teams_page1.json"));
        Func<Options, Store> withTeams = options =>
        {
            var store = new Store("matchscores", options);
            store.Send("{\"teamList\":\"onAppear\"}");
            foreach (var request in store.TakeRequests())
                if (request.Name == "matchScores.fetchTeams") store.Respond(request.Id, teams);
            return store;
        };
        using (var a = withTeams(new Options { ManualClock = true }))
        using (var b = withTeams(new Options { ManualClock = true }))
        using (var isolated = withTeams(new Options { ManualClock = true, IsolatedShared = true }))
        {
            a.Send("{\"favoriteButtonTapped\":2}");
            b.Poll();
            isolated.Poll();
            Check(b.Get("/favorites/teams/0/id") == "2", "a shared change reaches another store");
            Check(isolated.Get("/favorites/teams") == "[]", "but not an isolated one");
        }
    }

    // The repository's root (the tests run in build/dotnet).
    static string Root()
    {
        string dir = System.IO.Directory.GetCurrentDirectory();
        while (dir != null && !System.IO.File.Exists(System.IO.Path.Combine(dir, "include/tca.h")))
            dir = System.IO.Path.GetDirectoryName(dir);
        return dir ?? ".";
    }

    static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "--missing-library") return MissingLibrary();
        StateAndSend();
        Errors();
        PullMode();
        Freeing();
        StringsAreFreed();
        Library();
        JsonValues();
        Patches();
        Subscriptions();
        BorrowedState();
        Recording();
        Threaded();
        IsolatedShared();
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}

namespace Tca
{
    static class Testing
    {
        [System.Runtime.InteropServices.DllImport("libtca.so.0", EntryPoint = "tca_store_version")]
        public static extern ulong VersionOf(IntPtr store);
    }
}
