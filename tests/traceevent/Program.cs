// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// TraceCheck: open .nettrace files with the real TraceEvent library, the way
// PerfView and dotnet-trace do, and report what it made of them.
//
//   1. EventPipeEventSource read to the end with the CLR, CLR-rundown,
//      sample-profiler, dynamic and GC-dynamic parsers attached (the CLR
//      parser hands the runtime's GCDynamicEvent, id 39, to the GC-dynamic
//      parser, which dispatches it as GC/CommittedUsage etc. only to its
//      own subscribers: without it those events are read but neither
//      dispatched nor unhandled, and the count falls short of the file's
//      by exactly their number): events dispatched per
//      "Provider/EventName", events no parser knew (UnhandledEvents),
//      payloads whose fields could not be decoded, and EventsLost.
//   2. TraceLog.CreateFromEventPipeDataFile (what PerfView runs before any
//      view opens) into a temporary ETLX, then every event's call stack:
//      frames, and frames whose code address has a method (symbol lookup
//      off, so names come only from the trace's own method events).
//
// Usage: TraceCheck [options] FILE...
//   --json             one JSON object per file (one line each)
//   --min-named R      fail when named frames / frames < R (default 0.99)
//   --expect-lost N    fail unless EventsLost == N
//   --top N            unnamed (and, with --frames, named) frames listed (10)
//   --frames           also list every named frame "module!method" with counts
//   --module-files     list (--json: "module_files") every module file
//                      TraceLog knows: path, ELF build id (from the
//                      Universal.System ProcessMappingMetadata events),
//                      image size
//   --sample-stacks OUT  write each CPU sample's (Thread/Sample) stack as
//                      TraceLog names it, root first, one line per sample:
//                      frames "MODULE!METHOD" or "MODULE!?0xADDR" (no method;
//                      MODULE "?" without one) joined by TAB
//   --universal        (--json: "universal") TraceLog's reading of the
//                      Universal.Events cpu and cswitch events: per-thread
//                      counts, top leaf frames of the cpu stacks, CPU and
//                      Thread Time as PerfView computes them (Universal.cs);
//                      without --json, "  cpu|cswitch|top_frames KEY N" lines
//   --no-tracelog      step 1 only
//   --show KEY         list (--json: "shown") the first 50 events KEY
//                      ("Provider/EventName") with process, thread,
//                      activity id and every field's value
//   --names            (implies --no-tracelog) instead of the summary, one
//                      line per event kind: "PROVIDER ID VERSION NAME COUNT",
//                      the name TraceEvent gives it (EventName, which
//                      is "EventID(N)" when no parser knows the id)
//   TraceCheck --time  timing server of the reader benchmark (Timing.cs)
// --json also gives "by_process": events dispatched per process id.
// Exit: 0 all files pass, 1 a file failed (one line per failure on stderr
// naming the file and the cause), 64 usage.
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.EventPipe;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace TraceCheck;

sealed class Options
{
	public bool Json, Frames, NoTraceLog, Names, ModuleFiles, Universal;
	public string? Show, SampleStacks;
	public double MinNamed = 0.99;
	public long? ExpectLost;
	public int Top = 10;
	public List<string> Files = new();

	public static Options? Parse(string[] args)
	{
		var o = new Options();
		for (int i = 0; i < args.Length; i++) {
			string a = args[i];
			string? Next() => i + 1 < args.Length ? args[++i] : null;
			switch (a) {
			case "--json": o.Json = true; break;
			case "--frames": o.Frames = true; break;
			case "--module-files": o.ModuleFiles = true; break;
			case "--universal": o.Universal = true; break;
			case "--no-tracelog": o.NoTraceLog = true; break;
			case "--names": o.Names = o.NoTraceLog = true; break;
			case "--show":
				if ((o.Show = Next()) == null)
					return null;
				break;
			case "--min-named":
				if (!double.TryParse(Next(), System.Globalization.CultureInfo.InvariantCulture, out o.MinNamed))
					return null;
				break;
			case "--expect-lost":
				if (!long.TryParse(Next(), out long l))
					return null;
				o.ExpectLost = l;
				break;
			case "--sample-stacks":
				if ((o.SampleStacks = Next()) == null)
					return null;
				break;
			case "--top":
				if (!int.TryParse(Next(), out o.Top))
					return null;
				break;
			default:
				if (a.StartsWith("--"))
					return null;
				o.Files.Add(a);
				break;
			}
		}
		return o.Files.Count > 0 ? o : null;
	}
}

/// What the plain EventPipe reader dispatched.
sealed class ReadResult
{
	public long Events, Unhandled, BadPayloads, Lost;
	public SortedDictionary<string, long> ByEvent = new(StringComparer.Ordinal);
	public SortedDictionary<string, long> UnhandledByEvent = new(StringComparer.Ordinal);
	public SortedDictionary<string, long> ByProcess = new(StringComparer.Ordinal);
	public SortedDictionary<string, long> ByIdName = new(StringComparer.Ordinal);
	public JsonArray Shown = new();
	public string? FirstBadPayload;
}

/// What TraceLog made of the stacks.
sealed class StackResult
{
	public long Events, EventsWithStack, Frames, Named;
	public List<KeyValuePair<string, long>> TopUnnamed = new(), NamedFrames = new();
	public JsonArray ModuleFiles = new();
	public JsonObject? Universal;
	public double Ratio => Frames == 0 ? 1.0 : (double)Named / Frames;
}

static class Reader
{
	static string Key(TraceEvent e) => e.ProviderName + "/" + e.EventName;

	static void Bump(SortedDictionary<string, long> d, string k) =>
		d[k] = d.TryGetValue(k, out long n) ? n + 1 : 1;

	// Every field decoded, as a viewer showing the event would.
	static void Decode(TraceEvent e, ReadResult r)
	{
		try {
			var names = e.PayloadNames;
			for (int i = 0; i < names.Length; i++)
				_ = e.PayloadValue(i);
		} catch (Exception ex) {
			r.BadPayloads++;
			r.FirstBadPayload ??= $"{Key(e)} at {e.TimeStampRelativeMSec:f3} ms: {ex.GetType().Name}: {ex.Message}";
		}
	}

	// A field value as text; arrays element by element.
	static string? Text(object? v) => v is Array a && v is not byte[]
		? "[" + string.Join(", ", a.Cast<object?>().Select(Text)) + "]"
		: v?.ToString();

	// One event as --show lists it (the object is reused after the callback).
	static JsonObject Describe(TraceEvent e)
	{
		var fields = new JsonObject();
		for (int i = 0; i < e.PayloadNames.Length; i++)
			fields[e.PayloadNames[i]] = Text(e.PayloadValue(i));
		return new JsonObject {
			["pid"] = e.ProcessID, ["tid"] = e.ThreadID, ["version"] = (int)e.Version,
			["activity_id"] = e.ActivityID.ToString(), ["fields"] = fields,
		};
	}

	public static ReadResult Read(string file, string? show)
	{
		var r = new ReadResult();
		using var src = new EventPipeEventSource(file);
		Action<TraceEvent> onEvent = e => {
			r.Events++;
			Bump(r.ByEvent, Key(e));
			Bump(r.ByProcess, e.ProcessID.ToString());
			Bump(r.ByIdName, $"{e.ProviderName} {(int)e.ID} {e.Version} {e.EventName}");
			Decode(e, r);
			if (show == Key(e) && r.Shown.Count < 50)
				r.Shown.Add(Describe(e));
		};
		src.Clr.All += onEvent;
		new ClrRundownTraceEventParser(src).All += onEvent;
		new SampleProfilerTraceEventParser(src).All += onEvent;
		src.Dynamic.All += onEvent;
		new GCDynamicTraceEventParser(src).All += onEvent;
		src.UnhandledEvents += e => {
			r.Unhandled++;
			Bump(r.UnhandledByEvent, Key(e));
		};
		src.Process();
		r.Lost = src.EventsLost;
		return r;
	}
}

static class Stacks
{
	public static StackResult Walk(string file, int top, bool listNamed, string? sampleStacks,
				       bool universal)
	{
		string dir = Path.Combine(Path.GetTempPath(), "tracecheck-" + Guid.NewGuid().ToString("N"));
		Directory.CreateDirectory(dir);
		try {
			string etlx = Path.Combine(dir, "t.etlx");
			var opts = new TraceLogOptions {
				ShouldResolveSymbols = _ => false,
				ConversionLog = TextWriter.Null,
			};
			TraceLog.CreateFromEventPipeDataFile(file, etlx, opts);
			using var log = new TraceLog(etlx);
			if (sampleStacks != null)
				WriteSamples(log, sampleStacks);
			var res = Count(log, top, listNamed);
			if (universal)
				res.Universal = TraceCheck.Universal.Check(log, top);
			foreach (var mf in log.ModuleFiles)
				res.ModuleFiles.Add(new JsonObject {
					["path"] = mf.FilePath, ["name"] = mf.Name,
					["build_id"] = mf.ElfInfo?.BuildId, ["image_size"] = mf.ImageSize,
				});
			return res;
		} finally {
			Directory.Delete(dir, true);
		}
	}

	// A frame as --sample-stacks writes it (Universal.cs names leaves by it too).
	internal static string FrameName(TraceLog log, CallStackIndex i)
	{
		var code = log.CodeAddresses;
		var ca = log.CallStacks.CodeAddressIndex(i);
		var mi = code.MethodIndex(ca);
		string mod = code.ModuleFile(ca)?.Name ?? "?";
		if (mi != MethodIndex.Invalid && code.Methods.FullMethodName(mi).Length > 0)
			return mod + "!" + code.Methods.FullMethodName(mi);
		return $"{mod}!?0x{code.Address(ca):x}";
	}

	static void WriteSamples(TraceLog log, string path)
	{
		using var w = new StreamWriter(path);
		var frames = new List<string>();
		foreach (var e in log.Events) {
			if (e.ProviderName != "Microsoft-DotNETCore-SampleProfiler" || e.EventName != "Thread/Sample")
				continue;
			frames.Clear();
			for (var i = e.CallStackIndex(); i != CallStackIndex.Invalid; i = log.CallStacks.Caller(i))
				frames.Add(FrameName(log, i));
			frames.Reverse();
			w.WriteLine(string.Join("\t", frames));
		}
	}

	// Events per exact stack, then summed onto every caller: a frame's
	// weight is how many event stacks contain it at that position.
	static StackResult Count(TraceLog log, int top, bool listNamed)
	{
		var res = new StackResult();
		var stacks = log.CallStacks;
		var weight = new long[stacks.Count];
		foreach (var e in log.Events) {
			res.Events++;
			var idx = e.CallStackIndex();
			if (idx == CallStackIndex.Invalid)
				continue;
			res.EventsWithStack++;
			weight[(int)idx]++;
		}
		for (int i = stacks.Count - 1; i >= 0; i--) {
			var caller = stacks.Caller((CallStackIndex)i);
			if (caller != CallStackIndex.Invalid)
				weight[(int)caller] += weight[i];
		}
		Tally(log, weight, res, top, listNamed);
		return res;
	}

	static void Tally(TraceLog log, long[] weight, StackResult res, int top, bool listNamed)
	{
		var stacks = log.CallStacks;
		var code = log.CodeAddresses;
		var unnamed = new Dictionary<string, long>();
		var named = new Dictionary<string, long>();
		for (int i = 0; i < weight.Length; i++) {
			if (weight[i] == 0)
				continue;
			var ca = stacks.CodeAddressIndex((CallStackIndex)i);
			var mi = code.MethodIndex(ca);
			res.Frames += weight[i];
			string mod = code.ModuleFile(ca)?.Name ?? "?";
			if (mi != MethodIndex.Invalid && code.Methods.FullMethodName(mi).Length > 0) {
				res.Named += weight[i];
				if (listNamed)
					Add(named, mod + "!" + code.Methods.FullMethodName(mi), weight[i]);
			} else {
				Add(unnamed, $"{mod}!0x{code.Address(ca):x}", weight[i]);
			}
		}
		res.TopUnnamed = Sorted(unnamed, top);
		res.NamedFrames = Sorted(named, int.MaxValue);
	}

	static void Add(Dictionary<string, long> d, string k, long n) =>
		d[k] = d.TryGetValue(k, out long v) ? v + n : n;

	static List<KeyValuePair<string, long>> Sorted(Dictionary<string, long> d, int n) =>
		d.OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key, StringComparer.Ordinal)
		 .Take(n).ToList();
}

static class Program
{
	static int Main(string[] args)
	{
		if (args.Length == 1 && args[0] == "--time")
			return Timing.Serve();
		var o = Options.Parse(args);
		if (o == null) {
			Console.Error.WriteLine("usage: TraceCheck [--json] [--min-named R] [--expect-lost N] [--top N] [--frames] [--module-files] [--universal] [--sample-stacks OUT] [--no-tracelog] [--names] [--show KEY] FILE...");
			return 64;
		}
		int failed = 0;
		foreach (var f in o.Files)
			failed += CheckOne(f, o) ? 0 : 1;
		return failed == 0 ? 0 : 1;
	}

	static bool CheckOne(string file, Options o)
	{
		ReadResult? rd = null;
		StackResult? st = null;
		string? error = null;
		try {
			rd = Reader.Read(file, o.Show);
			if (!o.NoTraceLog)
				st = Stacks.Walk(file, o.Top, o.Frames, o.SampleStacks, o.Universal);
		} catch (Exception ex) {
			error = $"{(rd == null ? "EventPipeEventSource" : "TraceLog")}: {ex.GetType().Name}: {ex.Message}";
			if (Environment.GetEnvironmentVariable("TRACECHECK_TRACE") != null)
				Console.Error.WriteLine(ex);
		}
		var causes = Causes(rd, st, error, o);
		Print(file, rd, st, error, causes, o);
		foreach (var c in causes)
			Console.Error.WriteLine($"tracecheck: {file}: {c}");
		return causes.Count == 0;
	}

	static List<string> Causes(ReadResult? rd, StackResult? st, string? error, Options o)
	{
		var c = new List<string>();
		if (error != null)
			c.Add(error);
		if (rd != null && rd.Unhandled > 0)
			c.Add($"{rd.Unhandled} events no parser handled (first: {rd.UnhandledByEvent.First().Key})");
		if (rd != null && rd.BadPayloads > 0)
			c.Add($"{rd.BadPayloads} payloads failed to decode (first: {rd.FirstBadPayload})");
		if (rd != null && o.ExpectLost is long want && rd.Lost != want)
			c.Add($"EventsLost {rd.Lost}, expected {want}");
		if (st != null && st.Ratio < o.MinNamed)
			c.Add($"{st.Named} of {st.Frames} frames named ({100 * st.Ratio:f2} %), below {100 * o.MinNamed:f2} %; first unnamed: {string.Join(", ", st.TopUnnamed.Take(3).Select(kv => kv.Key))}");
		return c;
	}

	static void Print(string file, ReadResult? rd, StackResult? st, string? error,
			  List<string> causes, Options o)
	{
		if (o.Names && rd != null) {
			foreach (var kv in rd.ByIdName)
				Console.WriteLine($"{kv.Key} {kv.Value}");
			return;
		}
		if (!o.Json) {
			string s = rd == null ? "" : $"events {rd.Events} lost {rd.Lost}";
			if (st != null)
				s += $" frames {st.Frames} named {st.Named} ({100 * st.Ratio:f3} %)";
			Console.WriteLine($"{(causes.Count == 0 ? "ok" : "FAIL")} {file}: {s}");
			if (st?.Universal is JsonObject u)
				foreach (var key in new[] { "cpu", "cswitch", "top_frames" })
					foreach (var kv in u[key]!.AsObject())
						Console.WriteLine($"  {key} {kv.Key} {kv.Value}");
			return;
		}
		var j = new JsonObject {
			["file"] = file,
			["ok"] = causes.Count == 0,
			["error"] = error,
			["causes"] = new JsonArray(causes.Select(c => (JsonNode?)c).ToArray()),
		};
		if (rd != null)
			AddRead(j, rd);
		if (st != null)
			AddStacks(j, st, o.Frames, o.ModuleFiles);
		Console.WriteLine(j.ToJsonString(new JsonSerializerOptions { WriteIndented = false }));
	}

	static JsonObject Counts(IEnumerable<KeyValuePair<string, long>> kvs)
	{
		var o = new JsonObject();
		foreach (var kv in kvs)
			o[kv.Key] = kv.Value;
		return o;
	}

	static void AddRead(JsonObject j, ReadResult rd)
	{
		j["events"] = rd.Events;
		j["lost"] = rd.Lost;
		j["unhandled"] = rd.Unhandled;
		j["bad_payloads"] = rd.BadPayloads;
		j["by_event"] = Counts(rd.ByEvent);
		j["unhandled_by_event"] = Counts(rd.UnhandledByEvent);
		j["by_process"] = Counts(rd.ByProcess);
		if (rd.Shown.Count > 0)
			j["shown"] = rd.Shown;
	}

	static void AddStacks(JsonObject j, StackResult st, bool frames, bool moduleFiles)
	{
		j["tracelog"] = new JsonObject {
			["events"] = st.Events,
			["events_with_stack"] = st.EventsWithStack,
			["frames"] = st.Frames,
			["named"] = st.Named,
			["named_ratio"] = Math.Round(st.Ratio, 6),
			["top_unnamed"] = Counts(st.TopUnnamed),
		};
		if (frames)
			j["tracelog"]!["named_frames"] = Counts(st.NamedFrames);
		if (moduleFiles)
			j["tracelog"]!["module_files"] = st.ModuleFiles;
		if (st.Universal != null)
			j["universal"] = st.Universal;
	}
}
