// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// TraceCheck --time: the TraceEvent side of the reader benchmark
// (tests/bench/bench_nettrace.c).  The bench keeps this process running and
// asks for one timed measurement at a time, between its own, so that both
// readers see the same machine at the same moment; the runtime's start and
// the first JIT compilations happen before the first answer, outside every
// measurement.
//
// Requests on stdin, one a line: "REPS FILE".  FILE is read REPS times with
// EventPipeEventSource, one callback on every event (AllEvents, counting
// it), as the bench's own reader delivers every event and decodes no field.
// Answer on stdout: "EVENTS SECONDS" (events of one pass, seconds of all
// REPS passes).  A file that cannot be read ends the process: one line on
// stderr naming the file and the cause, exit 1.  Exit 0 at the end of stdin.
using System.Diagnostics;
using System.Globalization;
using Microsoft.Diagnostics.Tracing;

namespace TraceCheck;

static class Timing
{
	public static int Serve()
	{
		string? line;
		while ((line = Console.In.ReadLine()) != null) {
			int sp = line.IndexOf(' ');
			if (sp < 1 || !int.TryParse(line[..sp], out int reps) || reps < 1) {
				Console.Error.WriteLine($"tracecheck: --time: request \"{line}\" is not \"REPS FILE\"");
				return 64;
			}
			string file = line[(sp + 1)..];
			long events = 0;
			var sw = Stopwatch.StartNew();
			try {
				for (int i = 0; i < reps; i++)
					events = Pass(file);
			} catch (Exception ex) {
				Console.Error.WriteLine($"tracecheck: {file}: EventPipeEventSource: {ex.GetType().Name}: {ex.Message}");
				return 1;
			}
			sw.Stop();
			Console.Out.WriteLine(string.Create(CultureInfo.InvariantCulture,
							    $"{events} {sw.Elapsed.TotalSeconds:R}"));
			Console.Out.Flush();
		}
		return 0;
	}

	static long Pass(string file)
	{
		long n = 0;
		using var src = new EventPipeEventSource(file);
		src.AllEvents += _ => n++;
		src.Process();
		return n;
	}
}
