// make bench's C# row: Store.Send against Mono's P/Invoke floor (libc's abs), samples
// interleaved in one run; one JSON row for Benchmarks/run.py.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

static class Bench
{
    [DllImport("libc.so.6")] static extern int abs(int value);

    static double TimeNs(Action<long> body, long n)
    {
        var watch = Stopwatch.StartNew();
        body(n);
        return watch.Elapsed.TotalMilliseconds * 1e6 / n;
    }

    static string Side(string label, string kind, List<double> values, long n)
    {
        values.Sort();
        return string.Format(CultureInfo.InvariantCulture,
            "{{\"label\":\"{0}\",\"kind\":\"{1}\",\"median\":{2:F3},\"min\":{3:F3},\"max\":{4:F3},\"samples\":{5},\"iterations\":{6}}}",
            label, kind, values[values.Count / 2], values[0], values[values.Count - 1], values.Count, n);
    }

    static int Env(string name, int fallback)
    {
        int value;
        return int.TryParse(Environment.GetEnvironmentVariable(name), out value) ? value : fallback;
    }

    static void Main()
    {
        int samples = Math.Max(3, Env("BENCH_SAMPLES", 41));
        double sampleMs = Math.Max(1, Env("BENCH_SAMPLE_MS", 120));
        using (var store = new Tca.Store("counter"))
        {
            long sink = 0;
            Action<long> ours = n => { for (long i = 0; i < n; i++) store.Send("\"incrementButtonTapped\""); };
            Action<long> floor = n => { for (long i = 0; i < n; i++) sink += abs((int)i); };
            TimeNs(ours, 10000);
            TimeNs(floor, 10000);
            long nOurs = Math.Max(1000, (long)(sampleMs * 1e6 / Math.Max(TimeNs(ours, 10000), 0.1)));
            long nFloor = Math.Max(1000, (long)(sampleMs * 1e6 / Math.Max(TimeNs(floor, 10000), 0.1)));
            var a = new List<double>();
            var b = new List<double>();
            for (int s = 0; s < samples; s++)
            {
                a.Add(TimeNs(ours, nOurs));
                b.Add(TimeNs(floor, nFloor));
            }
            Console.WriteLine("{\"group\":\"Bindings\",\"workload\":\"C# Store.Send \\\"incrementButtonTapped\\\" (counter)\","
                + "\"unit\":\"ns/op\",\"note\":\"bindings/dotnet on Mono; floor: libc abs() through P/Invoke\","
                + "\"target\":{\"floor_plus_c_send\":1.2},\"ours\":" + Side("Store.Send", "ours", a, nOurs)
                + ",\"alt\":" + Side("C# P/Invoke abs() (floor)", "floor", b, nFloor) + "}");
            if (sink == -1) Console.WriteLine();
        }
    }
}
