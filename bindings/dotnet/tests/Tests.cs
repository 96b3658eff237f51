// Tca's API: stores, state, pull-mode requests, TcaException with the library's message, stores
// freed by Dispose and by the finalizer (SafeHandle), no string left unfreed on error paths.
// Prints "N passed, N failed"; exits 1 on a failure.
using System;
using System.Collections.Generic;
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
            List<Request> taken = dice.TakeRequests();
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

    static int Main()
    {
        StateAndSend();
        Errors();
        PullMode();
        Freeing();
        StringsAreFreed();
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}

namespace Tca
{
    static class Testing
    {
        [System.Runtime.InteropServices.DllImport("tca", EntryPoint = "tca_store_version")]
        public static extern ulong VersionOf(IntPtr store);
    }
}
