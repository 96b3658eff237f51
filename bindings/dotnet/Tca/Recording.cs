// Recording and time travel: a store made with Options.Record keeps a journal (Store.Journal) that
// Store.Replay rebuilds at any version, and can log the actions it reduces (a test's view).
//
//   using (var store = new Store("counter", new Options { ManualClock = true, Record = true }))
//   {
//       store.Send("\"incrementButtonTapped\"");
//       using (Store before = Store.Replay(store.Journal(), 0))
//           Console.WriteLine(before.Get("/count"));   // 0
//   }
using System;
using System.Runtime.CompilerServices;

namespace Tca
{
    public sealed partial class Store
    {
        /// <summary>The journal (JSON Lines: a header, then one line per input;
        /// docs/wire-format.md, "Journals") of a store made with Options.Record, or replayed.
        /// </summary>
        public string Journal()
        {
            IntPtr json;
            UIntPtr length;
            return Take(Native.tca_store_journal(handle, out json, out length), json, length);
        }

        /// <summary>
        /// Time travel: a new store rebuilt from <paramref name="journal"/> up to state version
        /// <paramref name="to"/> (ulong.MaxValue, the default: all of it), its state byte for
        /// byte the recorded store's at that version. It runs on a manual clock with the
        /// journal's seed, records, and is in pull mode: requests the journal leaves unanswered
        /// wait for TakeRequests. From <paramref name="options"/> it takes AnswersOnHostThread
        /// and Threaded. Throws TcaException naming the line of a journal it cannot read.
        /// </summary>
        public static Store Replay(string journal, ulong to = ulong.MaxValue,
            Options options = null)
        {
            if (journal == null) throw new ArgumentNullException("journal");
            return new Store(Loaded(() => ReplayLoaded(journal, to, options)));
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static StoreHandle ReplayLoaded(string journal, ulong to, Options options)
        {
            NativeOptions raw = (options ?? new Options()).ToNative();
            byte[] text = Utf8(journal);
            StoreHandle made;
            int status = Native.tca_store_replay(text, Length(text), to, ref raw, out made);
            return Made(status, made);
        }

        /// <summary>Starts (true) or stops and drops (false) the log of the actions a recording
        /// store reduces, for TakeReductions.</summary>
        public void LogReductions(bool enabled)
        {
            Check(Native.tca_store_log_reductions(handle, enabled ? 1 : 0));
        }

        /// <summary>The actions reduced since the last take, oldest first, as JSON:
        /// [{"origin":"host","action":{…},"state":{…}}, …] ("effect" for an action an effect
        /// fed back); Json.Parse reads it.</summary>
        public string TakeReductions()
        {
            IntPtr json;
            UIntPtr length;
            return Take(Native.tca_store_take_reductions(handle, out json, out length), json,
                length);
        }
    }
}
