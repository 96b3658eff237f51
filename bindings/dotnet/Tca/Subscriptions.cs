// What changed: Store.Patch (RFC 6902 text), Store.Changes (parsed, never "gone"), and
// subscribers the library calls (Store.Subscribe, Store.SubscribeState), each an IDisposable.
//
//   using (store.Subscribe(version => Redraw()))
//   {
//       store.Send("\"incrementButtonTapped\"");   // Redraw runs before Send returns
//   }
using System;
using System.Collections.Generic;
using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tca
{
    public sealed partial class Store
    {
        /// <summary>What changed since version <paramref name="since"/>: an RFC 6902 JSON Patch,
        /// "[]" when nothing did. Throws TcaException (VersionGone) when the store no longer keeps
        /// that version (it keeps its last 16): read State, or use Changes.</summary>
        public string Patch(ulong since)
        {
            IntPtr json;
            UIntPtr length;
            return Take(Native.tca_store_patch(handle, since, out json, out length), json, length);
        }

        /// <summary>What changed since version <paramref name="since"/>, parsed (a list of
        /// operations for Json.ApplyPatch), and in <paramref name="version"/> the version it
        /// brings you to. A version no longer kept gives one operation replacing the whole
        /// state.</summary>
        public List<object> Changes(ulong since, out ulong version)
        {
            while (true)
            {
                ulong before = Version;
                IntPtr json;
                UIntPtr length;
                int status = Native.tca_store_patch(handle, since, out json, out length);
                List<object> operations = status == (int)Status.VersionGone
                    ? new List<object> { Json.Operation("replace", "", Json.Parse(State())) }
                    : (List<object>)Json.Parse(Take(status, json, length));
                // NB: a threaded store's own thread may change the state meanwhile: read again.
                if (Version == before)
                {
                    version = before;
                    return operations;
                }
            }
        }

        /// <summary>
        /// Calls <paramref name="fn"/>(version) at the end of each call into the store that
        /// changed its state (Send, Respond, Fail, Complete, Poll, Advance; once per call), on
        /// that call's thread — a threaded store's own thread too. Dispose what it returns to
        /// stop the calls; until then (or until the store is freed) the library holds
        /// <paramref name="fn"/>, so a delegate that captures the store keeps it from the
        /// finalizer: dispose one or the other. An exception thrown by <paramref name="fn"/>
        /// cannot cross the library: it is thrown again by the Store call that ran it (or, from a
        /// threaded store's thread, by the next such call).
        /// </summary>
        public IDisposable Subscribe(Action<ulong> fn)
        {
            if (fn == null) throw new ArgumentNullException("fn");
            return Add(new Subscriber(failures, fn, null));
        }

        /// <summary>Subscribe, with the new state's JSON (copied for <paramref name="fn"/>; null
        /// if the state cannot be encoded): tca_store_subscribe_state.</summary>
        public IDisposable SubscribeState(Action<ulong, string> fn)
        {
            if (fn == null) throw new ArgumentNullException("fn");
            return Add(new Subscriber(failures, null, fn));
        }

        Subscription Add(Subscriber subscriber)
        {
            GCHandle userdata = GCHandle.Alloc(subscriber);
            lock (handle.callbacks) handle.callbacks.Add(userdata);
            ulong token;
            int status;
            try
            {
                IntPtr pointer = GCHandle.ToIntPtr(userdata);
                status = subscriber.Version != null
                    ? Native.tca_store_subscribe(handle, OnState, pointer, out token)
                    : Native.tca_store_subscribe_state(handle, OnStateJson, pointer, out token);
            }
            catch
            {
                Release(userdata);
                throw;
            }
            if (status != 0)
            {
                Release(userdata);
                throw Error(status);
            }
            return new Subscription(this, token, userdata);
        }

        void Release(GCHandle userdata)
        {
            lock (handle.callbacks)
            {
                // NB: freed by StoreHandle.ReleaseHandle instead when the store went first.
                if (handle.callbacks.Remove(userdata)) userdata.Free();
            }
        }

        // NB: static delegates: the library holds their native thunks for as long as the process
        // may call them, and a delegate the collector took would crash it.
        static readonly Native.StateFn OnState = (userdata, store, version) =>
        {
            var subscriber = (Subscriber)GCHandle.FromIntPtr(userdata).Target;
            try { subscriber.Version(version); }
            catch (Exception error) { subscriber.Failures.Add(error); }
        };

        static readonly Native.StateJsonFn OnStateJson = (userdata, store, version, json, length) =>
        {
            var subscriber = (Subscriber)GCHandle.FromIntPtr(userdata).Target;
            try
            {
                string text = json == IntPtr.Zero ? null : Utf8Text(json, length);
                subscriber.State(version, text);
            }
            catch (Exception error) { subscriber.Failures.Add(error); }
        };

        static string Utf8Text(IntPtr json, UIntPtr length)
        {
            var bytes = new byte[(int)length.ToUInt64()];
            Marshal.Copy(json, bytes, 0, bytes.Length);
            return System.Text.Encoding.UTF8.GetString(bytes);
        }

        /// <summary>Exceptions subscribers threw, thrown again by the next Store call that
        /// checks (the hot path reads one field).</summary>
        readonly Failures failures = new Failures();

        internal sealed class Failures
        {
            // NB: not volatile: Interlocked's operations are full barriers, and the hot path's
            // plain read at worst sees a failure one call late (tca.h: a threaded store's
            // subscriber runs on its own thread).
            public Exception Pending;

            public void Add(Exception error)
            {
                // NB: the first is kept; later ones while it waits are dropped (it is the cause).
                Interlocked.CompareExchange(ref Pending, error, null);
            }

            public void Rethrow()
            {
                Exception error = Interlocked.Exchange(ref Pending, null);
                if (error != null) ExceptionDispatchInfo.Capture(error).Throw();
            }
        }

        /// <summary>What the library's userdata points to: no reference to the Store, so that a
        /// store nobody holds is still finalized.</summary>
        sealed class Subscriber
        {
            public readonly Failures Failures;
            public readonly Action<ulong> Version;
            public readonly Action<ulong, string> State;
            public Subscriber(Failures failures, Action<ulong> version, Action<ulong, string> state)
            {
                Failures = failures;
                Version = version;
                State = state;
            }
        }

        sealed class Subscription : IDisposable
        {
            readonly Store store;
            readonly ulong token;
            readonly GCHandle userdata;
            int disposed;

            public Subscription(Store store, ulong token, GCHandle userdata)
            {
                this.store = store;
                this.token = token;
                this.userdata = userdata;
            }

            /// <summary>Ends the subscription: once this returns, the delegate is not called
            /// again. Twice is fine; so is after the store's Dispose.</summary>
            public void Dispose()
            {
                if (Interlocked.Exchange(ref disposed, 1) != 0) return;
                StoreHandle handle = store.handle;
                if (!handle.IsClosed)
                {
                    try { Native.tca_store_unsubscribe(handle, token); }
                    catch (ObjectDisposedException) { }  // the store went meanwhile
                }
                store.Release(userdata);
            }
        }
    }
}
