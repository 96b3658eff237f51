// libtca from C#: a Store over a SafeHandle, in pull mode (requests wait for TakeRequests; the
// only delegates handed to the library are subscribers, kept alive while it may call them),
// failures as TcaException with the library's message. Subscriptions.cs has the subscribers and
// patches, Recording.cs the journal, replay and reductions log, Loader.cs finds libtca.
//
//   using (var store = new Tca.Store("counter"))
//   {
//       store.Send("\"incrementButtonTapped\"");
//       Console.WriteLine(store.Get("/count"));    // 1
//   }
using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace Tca
{
    /// <summary>A failed call: the status and the library's message (which names the function
    /// and the place).</summary>
    public class TcaException : Exception
    {
        public Status Status { get; private set; }
        /// <summary>What the status means in general (tca_status_str: "invalid store handle").
        /// </summary>
        public string Description { get; private set; }
        public TcaException(Status status, string message) : base(message)
        {
            Status = status;
            Description = Store.Describe(status);
        }
    }

    /// <summary>How a request is answered.</summary>
    public enum RequestKind { OneShot, Stream, FireAndForget }

    /// <summary>
    /// What Store.TakeRequests returns: a request (answer it by Id), or the notice that request
    /// Id was cancelled (Cancelled true; it takes no answer any more).
    /// </summary>
    public sealed class Request
    {
        public ulong Id { get; internal set; }
        public string Name { get; internal set; }      // "numberFact.fetch"
        public string Payload { get; internal set; }   // JSON: "7"
        public RequestKind Kind { get; internal set; }
        public bool Cancelled { get; internal set; }
        public override string ToString()
        {
            return Cancelled ? "{cancelled " + Id + "}" : "{" + Id + " " + Name + " " + Payload + "}";
        }
    }

    /// <summary>Store options: new Options { ManualClock = true, Seed = 7 }.</summary>
    public sealed class Options
    {
        /// <summary>Time stands still until Store.Advance (game loops, tests).</summary>
        public bool ManualClock { get; set; }
        /// <summary>The random seed (dice); 0: one from the system.</summary>
        public ulong Seed { get; set; }
        /// <summary>Answers given from any thread are applied by the host's next Poll, Send or
        /// Advance, on its thread.</summary>
        public bool AnswersOnHostThread { get; set; }
        /// <summary>Keep a journal (Store.Journal, Store.Replay) and allow the reductions log.
        /// </summary>
        public bool Record { get; set; }
        /// <summary>With Record: how many journal lines to keep (0: all); older ones fold into
        /// a checkpoint (docs/wire-format.md, "Checkpoints").</summary>
        public ulong RecordLimit { get; set; }
        /// <summary>The state's shared fields are this store's own: no other store of the
        /// process sees its changes, nor it theirs (docs/kernel.md, "Shared state").</summary>
        public bool IsolatedShared { get; set; }
        /// <summary>A thread of the store's own runs what becomes due (real-clock timers), and
        /// calls subscribers then.</summary>
        public bool Threaded { get; set; }

        internal NativeOptions ToNative()
        {
            var raw = new NativeOptions();
            Native.tca_options_init(ref raw);
            raw.Requests = Native.RequestsQueued;
            if (ManualClock) raw.Clock = Native.ClockManual;
            raw.Seed = Seed;
            if (AnswersOnHostThread) raw.Answers = Native.AnswersHostThread;
            if (Record) raw.Record = 1;
            raw.RecordLimit = RecordLimit;
            if (IsolatedShared) raw.Shared = Native.SharedIsolated;
            if (Threaded) raw.Threaded = 1;
            return raw;
        }
    }

    /// <summary>A running store of one feature, in pull mode. Dispose frees it (the finalizer
    /// does, if never disposed).</summary>
    public sealed partial class Store : IDisposable
    {
        readonly StoreHandle handle;

        /// <summary>A store of <paramref name="feature"/>, from <paramref name="stateJson"/> (a
        /// snapshot, as State returns it) or its default state. Throws DllNotFoundException,
        /// saying where it looked, when libtca cannot be found (Loader.cs).</summary>
        public Store(string feature, Options options = null, string stateJson = null)
            : this(Loaded(() => Create(feature, options, stateJson)))
        {
        }

        Store(StoreHandle made) { handle = made; }

        // NB: every path into the library starts here or in another static entry point: libtca
        // is found (Loader) before a method that calls it is compiled (Mono resolves a P/Invoke
        // when it compiles its caller), and Mono's DllNotFoundException says what to set.
        static T Loaded<T>(Func<T> body)
        {
            Loader.EnsureLoaded();
            try
            {
                return body();
            }
            catch (DllNotFoundException error)
            {
                throw Loader.Explain(error);
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static StoreHandle Create(string feature, Options options, string stateJson)
        {
            NativeOptions raw = (options ?? new Options()).ToNative();
            byte[] name = Utf8(feature ?? "");
            byte[] state = stateJson == null ? null : Utf8(stateJson);
            StoreHandle made;
            int status = Native.tca_store_new_v2(name, Length(name), state,
                state == null ? UIntPtr.Zero : Length(state), ref raw, out made);
            return Made(status, made);
        }

        static StoreHandle Made(int status, StoreHandle made)
        {
            if (status != 0)
            {
                if (made != null) made.Dispose();
                throw Error(status);
            }
            return made;
        }

        /// <summary>The SafeHandle over the C store.</summary>
        public StoreHandle Handle { get { return handle; } }

        /// <summary>The library's version, "MAJOR.MINOR.PATCH".</summary>
        public static string LibraryVersion { get { return Loaded(() => LibraryVersionLoaded()); } }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static string LibraryVersionLoaded() { return FromC(Native.tca_version()); }

        /// <summary>The features compiled into the library, as JSON: [{"name":"counter",
        /// "description":…,"requests":[…],"initialState":{…}}, …] (Json.Parse reads it).
        /// </summary>
        public static string Features() { return Loaded(() => FeaturesLoaded()); }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static string FeaturesLoaded()
        {
            IntPtr text = Native.tca_features();
            if (text == IntPtr.Zero) throw Error((int)Status.NoMemory);
            try { return FromC(text); }
            finally { Native.tca_string_free(text); }
        }

        /// <summary>The schema of <paramref name="feature"/> (docs/schema.md), as JSON: JSON
        /// Schema of its state, actions and requests (Json.Parse reads it).</summary>
        public static string Schema(string feature) { return Loaded(() => SchemaLoaded(feature)); }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static string SchemaLoaded(string feature)
        {
            byte[] name = Utf8(feature);
            IntPtr json;
            UIntPtr length;
            return Take(Native.tca_feature_schema_n(name, Length(name), out json, out length),
                json, length);
        }

        /// <summary>The canonical JSON of an action of <paramref name="feature"/> given in any
        /// form its stores accept: ""incrementButtonTapped"" gives
        /// "{"incrementButtonTapped":{}}".</summary>
        public static string CanonicalAction(string feature, string actionJson)
        {
            return Loaded(() => CanonicalActionLoaded(feature, actionJson));
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static string CanonicalActionLoaded(string feature, string actionJson)
        {
            byte[] name = Utf8(feature), action = Utf8(actionJson);
            IntPtr json;
            UIntPtr length;
            return Take(Native.tca_canonical_action_n(name, Length(name), action, Length(action),
                out json, out length), json, length);
        }

        /// <summary>What a status means in general (tca_status_str).</summary>
        internal static string Describe(Status status)
        {
            try
            {
                Loader.EnsureLoaded();
                return DescribeLoaded(status);
            }
            catch (DllNotFoundException)
            {
                return status.ToString();  // a JSON helper's error, with no library to ask
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static string DescribeLoaded(Status status)
        {
            return FromC(Native.tca_status_str((int)status));
        }

        /// <summary>Sends one action (JSON): store.Send("\"rollButtonTapped\"").</summary>
        public unsafe void Send(string actionJson)
        {
            if (actionJson == null) throw new ArgumentNullException("actionJson");
            // NB: a game loop sends the same few literals again and again: the last action's
            // bytes are kept (an immutable pair, so a racing thread sees an old or a new pair,
            // never a torn one) and reused when the same string object comes again.
            LastAction last = lastAction;
            if (last == null || !ReferenceEquals(last.Text, actionJson))
                lastAction = last = new LastAction(actionJson, Encode(actionJson));
            byte[] bytes8 = last.Bytes;
            // NB: the fast path passes the raw handle (IntPtr marshals for free, a SafeHandle
            // parameter costs a marshaling stub) and takes no reference on the SafeHandle
            // (DangerousAddRef and DangerousRelease: two interlocked operations a send). The
            // library makes that safe: a tca_store * is a token it looks up, never reused, and
            // tca_store_free waits for a call in progress; a send that races Dispose gets
            // TCA_ERR_INVALID_HANDLE, and a disposed store still fails clearly.
            if (handle.IsClosed) throw new ObjectDisposedException("Tca.Store");
            byte empty = 0;  // NB: "" pins to null; C gets a valid pointer and length 0
            int status;
            fixed (byte* pinned = bytes8)
                status = Native.tca_store_send_raw(handle.DangerousGetHandle(),
                    pinned == null ? &empty : pinned, new UIntPtr((uint)bytes8.Length));
            if (status != 0)
            {
                if (handle.IsClosed) throw new ObjectDisposedException("Tca.Store");
                throw Error(status);
            }
            if (failures.Pending != null) failures.Rethrow();
        }

        sealed class LastAction
        {
            public readonly string Text;
            public readonly byte[] Bytes;
            public LastAction(string text, byte[] bytes) { Text = text; Bytes = bytes; }
        }
        LastAction lastAction;

        /// <summary>UTF-8 of text: chars below 0x80 copied by hand, Encoding.UTF8 otherwise.</summary>
        static byte[] Encode(string text)
        {
            for (int i = 0; i < text.Length; i++)
                if (text[i] >= 0x80) return Encoding.UTF8.GetBytes(text);
            var bytes = new byte[text.Length];
            for (int i = 0; i < text.Length; i++) bytes[i] = (byte)text[i];
            return bytes;
        }

        /// <summary>The whole state, as JSON.</summary>
        public string State()
        {
            IntPtr json;
            UIntPtr length;
            return Take(Native.tca_store_state(handle, out json, out length), json, length);
        }

        /// <summary>
        /// Reads the whole state as the library lends it, without a copy: <paramref name="read"/>
        /// gets a stream over the store's own text (UTF-8 JSON, possibly with runs of spaces
        /// between values; as JSON it equals State()). The stream is valid only inside
        /// <paramref name="read"/>, and is closed when it returns; <paramref name="read"/> must not
        /// call the store, nor may another thread meanwhile (tca_store_state_borrow).
        /// </summary>
        public unsafe T BorrowState<T>(Func<UnmanagedMemoryStream, T> read)
        {
            if (read == null) throw new ArgumentNullException("read");
            bool added = false;
            try
            {
                handle.DangerousAddRef(ref added);
                IntPtr json;
                UIntPtr length;
                Check(Native.tca_store_state_borrow(handle, out json, out length));
                long size = (long)length.ToUInt64();
                using (var stream = new UnmanagedMemoryStream((byte*)json, size, size,
                        FileAccess.Read))
                    return read(stream);
            }
            finally
            {
                if (added) handle.DangerousRelease();
            }
        }

        /// <summary>The value at a JSON Pointer ("/count"), as JSON.</summary>
        public string Get(string pointer)
        {
            byte[] bytes = Utf8(pointer);
            IntPtr json;
            UIntPtr length;
            return Take(Native.tca_store_get_n(handle, bytes, Length(bytes), out json, out length),
                json, length);
        }

        /// <summary>The state's version: changes exactly when the state does.</summary>
        public ulong Version
        {
            get
            {
                ulong version = Native.tca_store_version(handle);
                if (version == Native.VersionNone) throw Error((int)Status.InvalidHandle);
                return version;
            }
        }

        /// <summary>Moves the manual clock forward (60 Hz: 16 or 17 ms a frame).</summary>
        public void Advance(ulong milliseconds)
        {
            Check(Native.tca_store_advance(handle, milliseconds));
            if (failures.Pending != null) failures.Rethrow();
        }

        /// <summary>Runs what is due; how much ran.</summary>
        public uint Poll()
        {
            uint ran;
            Check(Native.tca_store_poll(handle, out ran));
            if (failures.Pending != null) failures.Rethrow();
            return ran;
        }

        /// <summary>Milliseconds until the next timer is due; -1 if none.</summary>
        public long NextDeadlineMs { get { return Native.tca_store_next_deadline_ms(handle); } }

        /// <summary>A descriptor readable exactly when Poll has work or requests wait: the store's
        /// (wait on it; never read or close it).</summary>
        public int Fd
        {
            get
            {
                int fd = Native.tca_store_fd(handle);
                if (fd < 0) throw Error((int)Status.System);
                return fd;
            }
        }

        /// <summary>The requests and cancellation notices waiting, oldest first; empty when none
        /// waits.</summary>
        public List<Request> TakeRequests()
        {
            IntPtr json;
            UIntPtr length;
            string text = Take(Native.tca_store_take_requests(handle, out json, out length), json, length);
            return text == "[]" ? new List<Request>() : Json.ReadRequests(text);
        }

        /// <summary>Answers request <paramref name="id"/> with a JSON value.</summary>
        public void Respond(ulong id, string responseJson)
        {
            byte[] bytes = Utf8(responseJson);
            Check(Native.tca_store_respond_n(handle, id, bytes, Length(bytes)));
            if (failures.Pending != null) failures.Rethrow();
        }

        /// <summary>Fails request <paramref name="id"/>: the feature gets the message.</summary>
        public void Fail(ulong id, string message)
        {
            byte[] bytes = Utf8(message);
            Check(Native.tca_store_fail_n(handle, id, bytes, Length(bytes)));
            if (failures.Pending != null) failures.Rethrow();
        }

        /// <summary>Ends stream <paramref name="id"/>.</summary>
        public void Complete(ulong id)
        {
            Check(Native.tca_store_complete(handle, id));
            if (failures.Pending != null) failures.Rethrow();
        }

        /// <summary>Frees the store; later calls throw TcaException (InvalidHandle).</summary>
        public void Dispose() { handle.Dispose(); }

        // ---- marshaling ----

        internal static byte[] Utf8(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            return Encoding.UTF8.GetBytes(text);
        }

        internal static UIntPtr Length(byte[] bytes) { return new UIntPtr((uint)bytes.Length); }

        internal static string FromC(IntPtr text)
        {
            int length = 0;
            while (Marshal.ReadByte(text, length) != 0) length++;
            var bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return Encoding.UTF8.GetString(bytes);
        }

        internal static TcaException Error(int status)
        {
            return new TcaException((Status)status, FromC(Native.tca_last_error()));
        }

        void Check(int status)
        {
            if (status != 0) throw Error(status);
        }

        /// <summary>Copies a string the library returned and frees the library's.</summary>
        internal static string Take(int status, IntPtr json, UIntPtr length)
        {
            if (status != 0) throw Error(status);
            try
            {
                var bytes = new byte[(int)length.ToUInt64()];
                Marshal.Copy(json, bytes, 0, bytes.Length);
                return Encoding.UTF8.GetString(bytes);
            }
            finally
            {
                Native.tca_string_free(json);
            }
        }
    }
}
