// evtapp: a workload with known runtime event counts for tests/dotnet.bats.
//
//   dotnet evtapp.dll [--wait GOFILE] [--exceptions N] [--gcs G]
//                     [--contentions C] [--hot-ms MS] [--marker-syscalls K]
//                     [--events E] [--bench N] [--async-ms MS]
//                     [--async-fill-ms MS] [--chain-ms MS] [--rounds R] [--mixed M]
//                     [--linger]
//
// Prints "READY <pid>" and, with --wait, polls for GOFILE before the
// workload; prints "DONE" after it, and before that the runtime's own
// counts of the workload: "COUNTS gen0=A gen1=B gen2=C exceptions=N
// contentions=M", GCs by the deepest generation each collected (what
// GCStart's Depth says; GC.CollectionCount(g) also counts the deeper ones),
// first-chance exceptions, Monitor.LockContentionCount.  --linger then sleeps until killed, so
// a collector can stop its session (rundown) while the process lives.
// --bench N fires N marker events and prints one JSON line: the calling
// thread's CPU time per event (ns) and the wall time
// (tests/bench/bench_eventpipe.sh).
// --rounds R throws the N exceptions R times: round 0 after GOFILE, round
// K after GOFILE.K appears, each followed by "ROUND K NS", the throwing
// thread's CPU ns per throw (tests/tracepoint_shim.bats: the same process's
// cost before tracing, traced, and after its tracer was killed).
// --mixed M throws exception i ("evtapp i") and then writes EvtApp-Marker
// event i, for i in 0..M-1, on one thread: a runtime event and an
// EventSource event alternate, so a trace that merges two paths (the
// tracepoint shim and EventPipe, tests/tracepoint_shim.bats) must have
// them in that order by their timestamps.
// --async-ms MS runs 4 async workers for MS ms, each looping over
// allocations (EvtAppAllocate: arrays the runtime clears), Random.Next
// spins, a lock and a rare exception, then Task.Yield: the worker loop of
// tests/unwind.bats, whose samples must end in the method doing the work,
// not in the state machine's MoveNext that calls it.
// --async-fill-ms MS runs 4 async workers with all their work in managed
// loops without calls: EvtAppFill writes a reused buffer where
// EvtAppAllocate had the runtime allocate and clear it, EvtAppSum reads it
// back; no lock, no exception, a Task.Yield every 16 rounds.  The runtime's
// own sampler stops threads only at safe points, which a thread inside the
// allocator does not reach, and code with calls reaches only where a call
// returns; a loop without calls it can stop anywhere, so on this one its
// view and a CPU sampler's can be compared (tests/unwind.bats).
// --chain-ms MS runs 4 threads in a managed call chain 3 deep for MS ms:
// EvtAppChainWorker -> EvtAppChainA -> EvtAppChainB -> EvtAppChainC, whose
// time is a loop without calls and Random.Next calls (ReadyToRun code of
// System.Private.CoreLib): every sample below EvtAppChainC must carry the
// whole chain (tests/unwind.bats).
using System;
using System.Diagnostics.Tracing;
using System.IO;
using System.Runtime.InteropServices;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

sealed class EvtAppTestException : Exception
{
    public EvtAppTestException(int i) : base("evtapp " + i) { }
}

[EventSource(Name = "EvtApp-Marker")]
sealed class MarkerSource : EventSource
{
    public static readonly MarkerSource Log = new MarkerSource();
    [Event(1, Level = EventLevel.Informational)]
    public void Marker(int Index) { WriteEvent(1, Index); }
}

static class Program
{
    static readonly object Gate = new object();
    static volatile int sink;
    // EvtAppFill and EvtAppSum's buffer: writing it and reading it back
    // take about as long, so that neither share is near 0 or 100 %
    const int FillBytes = 2048;
    static int thrown;

    static long[] GcCounts()
    {
        long[] c = new long[4];
        for (int g = 0; g <= 2; g++)
            c[g] = GC.CollectionCount(g);
        c[3] = Monitor.LockContentionCount;
        return c;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void EvtAppThrowOne(int i)
    {
        try { throw new EvtAppTestException(i); }
        catch (EvtAppTestException) { sink++; }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void EvtAppInduceGcs(int g)
    {
        for (int i = 0; i < g; i++)
            GC.Collect(2, GCCollectionMode.Forced, true);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void EvtAppContend(int c)
    {
        for (int i = 0; i < c; i++) {
            using var held = new ManualResetEventSlim(false);
            var holder = new Thread(() => {
                lock (Gate) { held.Set(); Thread.Sleep(60); }
            });
            holder.Start();
            held.Wait();
            lock (Gate) { sink++; }
            holder.Join();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int EvtAppAllocate(int r)
    {
        byte[] b = new byte[16 * 1024 + r];
        b[r] = (byte)r;
        return b.Length;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int EvtAppSpin(Random rnd)
    {
        int s = 0;
        for (int i = 0; i < 200; i++)
            s += rnd.Next(100);
        return s;
    }

    static async Task EvtAppAsyncWorker(int id, long until)
    {
        var rnd = new Random(id);
        while (Ns(1) < until) {
            for (int i = 0; i < 32; i++)
                sink += EvtAppAllocate(rnd.Next(64));
            sink += EvtAppSpin(rnd);
            lock (Gate) { sink += rnd.Next(10); }
            if (rnd.Next(200) == 0)
                EvtAppThrowOne(id);
            await Task.Yield();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int EvtAppFill(byte[] b, int r)
    {
        for (int i = 0; i < b.Length; i++)
            b[i] = (byte)(i + r);
        return b[r];
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int EvtAppSum(byte[] b)
    {
        int s = 0;
        for (int i = 0; i < b.Length; i++)
            s = s * 31 + b[i];
        return s;
    }

    static async Task EvtAppFillWorker(long until)
    {
        var buf = new byte[FillBytes];
        while (Ns(1) < until) {
            // few Task.Yields: a thread the runtime suspends in the
            // dispatcher's code runs on to a safe point, which may be in
            // EvtAppFill, so the dispatcher's time would count for it
            for (int i = 0; i < 16; i++) {
                sink += EvtAppFill(buf, i);
                sink += EvtAppSum(buf);
            }
            await Task.Yield();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int EvtAppChainC(Random rnd, byte[] b)
    {
        int s = 0;
        for (int i = 0; i < b.Length; i++)
            s = s * 31 + b[i];
        for (int i = 0; i < 64; i++)
            s += rnd.Next(100);
        return s;
    }

    // the + 1: a call in tail position could become a jump
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int EvtAppChainB(Random rnd, byte[] b) => EvtAppChainC(rnd, b) + 1;

    [MethodImpl(MethodImplOptions.NoInlining)]
    static int EvtAppChainA(Random rnd, byte[] b) => EvtAppChainB(rnd, b) + 1;

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void EvtAppChainWorker(int id, long until)
    {
        var rnd = new Random(id);
        var buf = new byte[FillBytes];
        while (Ns(1) < until)
            sink += EvtAppChainA(rnd, buf);
    }

    static void EvtAppChain(long ms)
    {
        long until = Ns(1) + ms * 1000000;
        var threads = new Thread[4];
        for (int i = 0; i < threads.Length; i++) {
            int id = i;
            threads[i] = new Thread(() => EvtAppChainWorker(id, until));
            threads[i].Start();
        }
        foreach (var t in threads)
            t.Join();
    }

    static void EvtAppAsync(long ms, bool fill)
    {
        long until = Ns(1) + ms * 1000000;
        var tasks = new Task[4];
        for (int i = 0; i < tasks.Length; i++) {
            int id = i;
            tasks[i] = fill ? Task.Run(() => EvtAppFillWorker(until))
                            : Task.Run(() => EvtAppAsyncWorker(id, until));
        }
        Task.WaitAll(tasks);
    }

    // The CPU-bound phase: all time in this one method (no calls).
    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    static long EvtAppHotLoop(long ms)
    {
        long end = Environment.TickCount64 + ms, x = 1;
        while (Environment.TickCount64 < end)
            for (int i = 0; i < 200000; i++)
                x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    // Marker events each right after a syscall the kernel side sees (a
    // 1-byte write to /dev/null): their order in the trace is checked.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static void EvtAppMarkers(int k)
    {
        using var f = new FileStream("/dev/null", FileMode.Open, FileAccess.Write);
        var one = new byte[1];
        for (int i = 0; i < k; i++) {
            f.Write(one, 0, 1);
            f.Flush();
            MarkerSource.Log.Marker(i);
            Thread.Sleep(2);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void EvtAppManyEvents(int e)
    {
        for (int i = 0; i < e; i++)
            MarkerSource.Log.Marker(i);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void EvtAppMixed(int m)
    {
        for (int i = 0; i < m; i++) {
            EvtAppThrowOne(i);
            MarkerSource.Log.Marker(i);
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    struct Timespec { public long Sec; public long Nsec; }

    [DllImport("libc", EntryPoint = "clock_gettime")]
    static extern int ClockGettime(int clock, out Timespec ts);

    static long Ns(int clock)
    {
        ClockGettime(clock, out Timespec ts);
        return ts.Sec * 1000000000L + ts.Nsec;
    }

    // CLOCK_MONOTONIC 1, CLOCK_THREAD_CPUTIME_ID 3
    static void Bench(int n)
    {
        EvtAppManyEvents(1000);	// JIT and EventSource set-up outside the timing
        long c0 = Ns(3), w0 = Ns(1);
        EvtAppManyEvents(n);
        long c1 = Ns(3), w1 = Ns(1);
        Console.WriteLine("{\"events\":" + n + ",\"cpu_ns_per_event\":" +
                          ((double)(c1 - c0) / n).ToString("F1") + ",\"seconds\":" +
                          ((w1 - w0) / 1e9).ToString("F3") + "}");
    }

    static int Main(string[] args)
    {
        string go = null;
        int n = 0, g = 0, c = 0, k = 0, e = 0, bench = 0, rounds = 0, mixed = 0;
        long hot = 0, asyncMs = 0, fillMs = 0, chainMs = 0;
        bool linger = false;
        for (int i = 0; i < args.Length; i++) {
            switch (args[i]) {
            case "--wait": go = args[++i]; break;
            case "--exceptions": n = int.Parse(args[++i]); break;
            case "--gcs": g = int.Parse(args[++i]); break;
            case "--contentions": c = int.Parse(args[++i]); break;
            case "--hot-ms": hot = long.Parse(args[++i]); break;
            case "--marker-syscalls": k = int.Parse(args[++i]); break;
            case "--events": e = int.Parse(args[++i]); break;
            case "--bench": bench = int.Parse(args[++i]); break;
            case "--async-ms": asyncMs = long.Parse(args[++i]); break;
            case "--async-fill-ms": fillMs = long.Parse(args[++i]); break;
            case "--chain-ms": chainMs = long.Parse(args[++i]); break;
            case "--rounds": rounds = int.Parse(args[++i]); break;
            case "--mixed": mixed = int.Parse(args[++i]); break;
            case "--linger": linger = true; break;
            default: Console.Error.WriteLine("evtapp: unknown argument " + args[i]); return 64;
            }
        }
        Console.WriteLine("READY " + Environment.ProcessId);
        Console.Out.Flush();
        while (go != null && !File.Exists(go))
            Thread.Sleep(10);
        AppDomain.CurrentDomain.FirstChanceException += (o, a) => Interlocked.Increment(ref thrown);
        long[] c0 = GcCounts();
        for (int r = 0; r < Math.Max(rounds, 1); r++) {
            while (r > 0 && !File.Exists(go + "." + r))
                Thread.Sleep(10);
            // without --rounds no clock call: its P/Invoke stub would be
            // JIT-compiled inside the workload other suites count events of
            long t0 = rounds > 0 ? Ns(3) : 0;
            for (int i = 0; i < n; i++)
                EvtAppThrowOne(i);
            if (rounds > 0) {
                Console.WriteLine("ROUND " + r + " " + ((double)(Ns(3) - t0) / n).ToString("F1"));
                Console.Out.Flush();
            }
        }
        if (mixed > 0)	// not JIT-compiled otherwise: suites list the workload's methods
            EvtAppMixed(mixed);
        EvtAppInduceGcs(g);
        EvtAppContend(c);
        if (hot > 0)
            sink += (int)EvtAppHotLoop(hot);
        if (asyncMs > 0)
            EvtAppAsync(asyncMs, false);
        if (fillMs > 0)
            EvtAppAsync(fillMs, true);
        if (chainMs > 0)
            EvtAppChain(chainMs);
        EvtAppMarkers(k);
        EvtAppManyEvents(e);
        if (bench > 0)
            Bench(bench);
        long[] c1 = GcCounts();
        long g2 = c1[2] - c0[2], g1 = c1[1] - c0[1] - g2, g0 = c1[0] - c0[0] - g2 - g1;
        Console.WriteLine("COUNTS gen0=" + g0 + " gen1=" + g1 + " gen2=" + g2 + " exceptions=" +
                          Volatile.Read(ref thrown) + " contentions=" + (c1[3] - c0[3]));
        Console.WriteLine("DONE");
        Console.Out.Flush();
        while (linger)
            Thread.Sleep(1000);
        return 0;
    }
}
