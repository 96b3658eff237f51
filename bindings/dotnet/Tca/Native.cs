// The raw C API of include/tca.h for P/Invoke (Store is the safe layer over it). The library is
// found by Loader (Loader.cs) before the first call.
using System;
using System.Runtime.InteropServices;

namespace Tca
{
    /// <summary>The status codes of tca.h (TCA_OK, TCA_ERR_*), with the same values.</summary>
    public enum Status
    {
        Ok = 0, InvalidArgument = 1, InvalidHandle = 2, UnknownFeature = 3, JsonSyntax = 4,
        JsonShape = 5, Unencodable = 6, UnknownRequest = 7, RequestFinished = 8,
        AlreadyAnswered = 9, NotAStream = 10, RealClock = 11, NotFound = 12, System = 13,
        NoMemory = 14, CallbackUnwound = 15, VersionGone = 16,
    }

    /// <summary>tca_options (version 2): 64 bytes, no hidden padding.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct NativeOptions
    {
        public uint Version;
        public int Clock;
        public int Threaded;
        public int Requests;
        public ulong Seed;
        public int Answers;
        public int Record;
        public ulong RecordLimit;
        public int Shared;
        public int Reserved32;
        public ulong Reserved1, Reserved2;
    }

    internal static class Native
    {
        // NB: the SONAME: what the loader finds by name after `make install`, and what Loader
        // maps to the file it chose.
        internal const string Library = "libtca.so.0";

        public const int ClockManual = 1;
        public const int RequestsQueued = 1;
        public const int AnswersHostThread = 1;
        public const int SharedIsolated = 1;
        public const ulong VersionNone = ulong.MaxValue;

        /// <summary>tca_state_fn.</summary>
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void StateFn(IntPtr userdata, IntPtr store, ulong version);

        /// <summary>tca_state_json_fn.</summary>
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate void StateJsonFn(IntPtr userdata, IntPtr store, ulong version, IntPtr json,
            UIntPtr length);

        [DllImport(Library)] public static extern IntPtr tca_version();
        [DllImport(Library)] public static extern IntPtr tca_features();
        [DllImport(Library)] public static extern void tca_string_free(IntPtr text);
        [DllImport(Library)] public static extern IntPtr tca_last_error();
        [DllImport(Library)] public static extern IntPtr tca_status_str(int status);
        [DllImport(Library)] public static extern void tca_options_init(ref NativeOptions options);
        [DllImport(Library)]
        public static extern int tca_store_new_v2(byte[] feature, UIntPtr featureLength,
            byte[] stateJson, UIntPtr stateLength, ref NativeOptions options,
            out StoreHandle store);
        [DllImport(Library)] public static extern void tca_store_free(IntPtr store);
        [DllImport(Library)]
        public static extern unsafe int tca_store_send_n(StoreHandle store, byte* action,
            UIntPtr length);
        // NB: Store.Send's fast path: the raw handle, a token the library looks up (see Send).
        [DllImport(Library, EntryPoint = "tca_store_send_n")]
        [System.Security.SuppressUnmanagedCodeSecurity]
        public static extern unsafe int tca_store_send_raw(IntPtr store, byte* action,
            UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_store_state(StoreHandle store, out IntPtr json,
            out UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_store_state_borrow(StoreHandle store, out IntPtr json,
            out UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_store_get_n(StoreHandle store, byte[] pointer,
            UIntPtr pointerLength, out IntPtr json, out UIntPtr length);
        [DllImport(Library)] public static extern ulong tca_store_version(StoreHandle store);
        [DllImport(Library)]
        public static extern int tca_store_patch(StoreHandle store, ulong since, out IntPtr json,
            out UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_store_subscribe(StoreHandle store, StateFn fn, IntPtr userdata,
            out ulong token);
        [DllImport(Library)]
        public static extern int tca_store_subscribe_state(StoreHandle store, StateJsonFn fn,
            IntPtr userdata, out ulong token);
        [DllImport(Library)]
        public static extern int tca_store_unsubscribe(StoreHandle store, ulong token);
        [DllImport(Library)]
        public static extern int tca_store_take_requests(StoreHandle store, out IntPtr json,
            out UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_store_respond_n(StoreHandle store, ulong id, byte[] json,
            UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_store_fail_n(StoreHandle store, ulong id, byte[] message,
            UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_store_complete(StoreHandle store, ulong id);
        [DllImport(Library)]
        public static extern int tca_store_poll(StoreHandle store, out uint ran);
        [DllImport(Library)]
        public static extern int tca_store_advance(StoreHandle store, ulong milliseconds);
        [DllImport(Library)]
        public static extern long tca_store_next_deadline_ms(StoreHandle store);
        [DllImport(Library)] public static extern int tca_store_fd(StoreHandle store);
        [DllImport(Library)]
        public static extern int tca_store_journal(StoreHandle store, out IntPtr json,
            out UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_store_replay(byte[] journal, UIntPtr length, ulong toVersion,
            ref NativeOptions options, out StoreHandle store);
        [DllImport(Library)]
        public static extern int tca_store_log_reductions(StoreHandle store, int enabled);
        [DllImport(Library)]
        public static extern int tca_store_take_reductions(StoreHandle store, out IntPtr json,
            out UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_feature_schema_n(byte[] feature, UIntPtr featureLength,
            out IntPtr json, out UIntPtr length);
        [DllImport(Library)]
        public static extern int tca_canonical_action_n(byte[] feature, UIntPtr featureLength,
            byte[] action, UIntPtr actionLength, out IntPtr json, out UIntPtr length);
    }

    /// <summary>
    /// A tca_store *, released by tca_store_free exactly once: by Store.Dispose, or by the
    /// finalizer if the Store was never disposed. It also holds what the library may call while
    /// the store lives (the subscribers' GCHandles), freed after the store.
    /// </summary>
    public sealed class StoreHandle : SafeHandle
    {
        StoreHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle()
        {
            Native.tca_store_free(handle);
            // NB: no callback of the store runs once tca_store_free has returned (tca.h).
            lock (callbacks)
            {
                foreach (GCHandle callback in callbacks) callback.Free();
                callbacks.Clear();
            }
            return true;
        }

        /// <summary>The raw pointer (for tests: the library refuses it once freed).</summary>
        public IntPtr Raw { get { return handle; } }

        /// <summary>The subscribers the library may call (their GCHandles are its userdata).
        /// </summary>
        internal readonly System.Collections.Generic.List<GCHandle> callbacks =
            new System.Collections.Generic.List<GCHandle>();
    }
}
