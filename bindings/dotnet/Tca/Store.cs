// libtca from C#: a Store over a SafeHandle, in pull mode (no delegate is ever handed to the
// library, so none has to be kept alive), failures as TcaException with the library's message.
//
//   using (var store = new Tca.Store("counter"))
//   {
//       store.Send("\"incrementButtonTapped\"");
//       Console.WriteLine(store.Get("/count"));    // 1
//   }
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;

namespace Tca
{
    /// <summary>A failed call: the status and the library's message (which names the function
    /// and the place).</summary>
    public class TcaException : Exception
    {
        public Status Status { get; private set; }
        public TcaException(Status status, string message) : base(message) { Status = status; }
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
    }

    /// <summary>A running store of one feature, in pull mode. Dispose frees it (the finalizer
    /// does, if never disposed).</summary>
    public sealed class Store : IDisposable
    {
        readonly StoreHandle handle;

        /// <summary>A store of <paramref name="feature"/>, from <paramref name="stateJson"/> (a
        /// snapshot, as State returns it) or its default state.</summary>
        public Store(string feature, Options options = null, string stateJson = null)
        {
            var raw = new NativeOptions();
            Native.tca_options_init(ref raw);
            raw.Requests = Native.RequestsQueued;
            if (options != null)
            {
                if (options.ManualClock) raw.Clock = Native.ClockManual;
                raw.Seed = options.Seed;
                if (options.AnswersOnHostThread) raw.Answers = Native.AnswersHostThread;
            }
            byte[] name = Utf8(feature ?? "");
            byte[] state = stateJson == null ? null : Utf8(stateJson);
            StoreHandle made;
            int status = Native.tca_store_new_v2(name, Length(name), state,
                state == null ? UIntPtr.Zero : Length(state), ref raw, out made);
            if (status != 0)
            {
                if (made != null) made.Dispose();
                throw Error(status);
            }
            handle = made;
        }

        /// <summary>The SafeHandle over the C store.</summary>
        public StoreHandle Handle { get { return handle; } }

        /// <summary>The library's version, "MAJOR.MINOR.PATCH".</summary>
        public static string LibraryVersion { get { return FromC(Native.tca_version()); } }

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
            // NB: the fast path passes the raw pointer (IntPtr marshals for free, a SafeHandle
            // parameter costs a marshaling stub). DangerousAddRef keeps the handle from being
            // released while the call runs, and throws ObjectDisposedException after Dispose,
            // so a disposed store still fails clearly and never reaches C.
            bool added = false;
            try
            {
                handle.DangerousAddRef(ref added);
                byte empty = 0;  // NB: "" pins to null; C gets a valid pointer and length 0
                fixed (byte* pinned = bytes8)
                    Check(Native.tca_store_send_raw(handle.DangerousGetHandle(),
                        pinned == null ? &empty : pinned, new UIntPtr((uint)bytes8.Length)));
            }
            finally
            {
                if (added) handle.DangerousRelease();
            }
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
        public void Advance(ulong milliseconds) { Check(Native.tca_store_advance(handle, milliseconds)); }

        /// <summary>Runs what is due; how much ran.</summary>
        public uint Poll()
        {
            uint ran;
            Check(Native.tca_store_poll(handle, out ran));
            return ran;
        }

        /// <summary>Milliseconds until the next timer is due; -1 if none.</summary>
        public long NextDeadlineMs { get { return Native.tca_store_next_deadline_ms(handle); } }

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
        }

        /// <summary>Fails request <paramref name="id"/>: the feature gets the message.</summary>
        public void Fail(ulong id, string message)
        {
            byte[] bytes = Utf8(message);
            Check(Native.tca_store_fail_n(handle, id, bytes, Length(bytes)));
        }

        /// <summary>Ends stream <paramref name="id"/>.</summary>
        public void Complete(ulong id) { Check(Native.tca_store_complete(handle, id)); }

        /// <summary>Frees the store; later calls throw TcaException (InvalidHandle).</summary>
        public void Dispose() { handle.Dispose(); }

        // ---- marshaling ----

        static byte[] Utf8(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            return Encoding.UTF8.GetBytes(text);
        }

        static UIntPtr Length(byte[] bytes) { return new UIntPtr((uint)bytes.Length); }

        static string FromC(IntPtr text)
        {
            int length = 0;
            while (Marshal.ReadByte(text, length) != 0) length++;
            var bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return Encoding.UTF8.GetString(bytes);
        }

        static TcaException Error(int status)
        {
            return new TcaException((Status)status, FromC(Native.tca_last_error()));
        }

        void Check(int status)
        {
            if (status != 0) throw Error(status);
        }

        /// <summary>Copies a string the library returned and frees the library's.</summary>
        string Take(int status, IntPtr json, UIntPtr length)
        {
            Check(status);
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
