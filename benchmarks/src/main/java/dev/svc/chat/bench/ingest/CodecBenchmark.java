package dev.svc.chat.bench.ingest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.squareup.moshi.JsonReader;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.bench.support.Report;
import dev.svc.chat.internal.GatewayEvents;
import dev.svc.chat.internal.json.MessageJsonAdapter;
import dev.svc.chat.internal.socketio.EngineIoCodec;
import dev.svc.chat.internal.socketio.EngineIoPacket;
import dev.svc.chat.internal.socketio.MalformedFrameException;
import dev.svc.chat.internal.socketio.SocketIoCodec;
import dev.svc.chat.internal.socketio.SocketIoPacket;
import okio.Buffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * JMH micro-benchmarks of reading one {@code new-message} frame into a {@link Message}: the SDK's fast
 * path (the frame's head scanned in place, the arguments parsed once, by the connection's reused reader),
 * the same with a new reader per frame, its strict path (every other frame:
 * the packet checked whole, then the payload decoded), the head scan alone, and the OkHttp + Moshi peer
 * (the frame encoded to UTF-8 and decoded into a plain class by Moshi's reflective adapter). Run by
 * {@link #main} with short warm-up and measurement so it fits in about a minute and a half.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CodecBenchmark {
  static final String FRAME = "42[\"new-message\",{\"id\":\"9e3817e8-9e38-4e38-87e8-9e3817e89e38\","
      + "\"roomId\":\"5b0e7a5c-2f7e-4d1a-9c3b-7e0d2a4f6b18\",\"seq\":1,\"rev\":1,\"senderId\":\"user_1\","
      + "\"parts\":[{\"type\":\"text\",\"text\":\"Message 1: see you at the stand-up, bring notes\"}],"
      + "\"clientMessageId\":\"9e38b61f-9e38-4e38-861f-9e38b61f9e38\",\"createdAt\":\"2026-11-23T00:00:00.001Z\","
      + "\"reactions\":{}}]";

  private static final GatewayEvents.Decoder<?> DECODER = GatewayEvents.STANDARD.forName("new-message");
  private static final com.squareup.moshi.JsonAdapter<IngestConsumer.OkHttpMoshi.Msg> PEER =
      new com.squareup.moshi.Moshi.Builder().build().adapter(IngestConsumer.OkHttpMoshi.Msg.class);

  /** One connection's read-ahead: its reader's buffer and cache of repeated ids kept from frame to frame. */
  private final GatewayEvents.ReadAhead readAhead = GatewayEvents.STANDARD.readAhead();

  @Benchmark
  public Object fastPath() throws IOException {
    SocketIoPacket event = SocketIoCodec.fastEvent(FRAME);
    readAhead.read(event); // on the socket's reader thread
    return DECODER.decode(event); // on the actor: takes what was read ahead
  }

  @Benchmark
  public Object fastPathFreshReader() throws IOException {
    return DECODER.decode(SocketIoCodec.fastEvent(FRAME));
  }

  @Benchmark
  public Object fastHeadThenMoshi() throws IOException {
    JsonReader reader = SocketIoCodec.arguments(SocketIoCodec.fastEvent(FRAME));
    Object message = MessageJsonAdapter.INSTANCE.fromJson(reader);
    SocketIoCodec.endArguments(reader);
    return message;
  }

  @Benchmark
  public Object strictPath() throws IOException, MalformedFrameException {
    EngineIoPacket engineIo = EngineIoCodec.decode(FRAME);
    SocketIoPacket packet = SocketIoCodec.decode(engineIo.data);
    return DECODER.decode(packet);
  }

  @Benchmark
  public Object headScanOnly() {
    return SocketIoCodec.fastEvent(FRAME);
  }

  @Benchmark
  public Object okHttpMoshiPeer() throws IOException {
    JsonReader reader = JsonReader.of(new Buffer().writeUtf8(FRAME, 2, FRAME.length()));
    reader.beginArray();
    reader.nextString();
    return PEER.fromJson(reader);
  }

  public static void main(String[] args) throws Exception {
    SocketIoPacket check = SocketIoCodec.fastEvent(FRAME);
    GatewayEvents.STANDARD.readAhead().read(check);
    if (check.readAheadBy(DECODER) == null || !(DECODER.decode(SocketIoCodec.fastEvent(FRAME)) instanceof Message)
        || DECODER.type != EventType.NEW_MESSAGE) {
      throw new IllegalStateException("the frame does not decode");
    }
    boolean quick = java.util.Arrays.asList(args).contains("--quick");
    // thread CPU time and bytes allocated per frame, outside JMH: counts that other work on the machine
    // disturbs far less than throughput
    CodecBenchmark bench = new CodecBenchmark();
    Map<String, double[]> perFrame = new LinkedHashMap<>();
    perFrame.put("fastPath", cpuPerFrame(bench::fastPath, quick));
    perFrame.put("okHttpMoshiPeer", cpuPerFrame(bench::okHttpMoshiPeer, quick));
    Options options = new OptionsBuilder()
        .include(CodecBenchmark.class.getName() + "\\.")
        .forks(1)
        .warmupIterations(quick ? 1 : 2).warmupTime(TimeValue.seconds(quick ? 1 : 2))
        .measurementIterations(quick ? 2 : 4).measurementTime(TimeValue.seconds(quick ? 1 : 2))
        .jvmArgsAppend("-Xss512k")
        .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<String, double[]> scores = new LinkedHashMap<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      name = name.substring(name.lastIndexOf('.') + 1);
      scores.put(name, new double[] {r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()});
    }
    Report report = new Report("Codec: one new-message frame into a Message (JMH)");
    report.paragraph("JMH throughput, one fork, " + (quick ? "1 × 1 s warm-up, 2 × 1 s" : "2 × 2 s warm-up, 4 × 2 s")
        + " measured, one thread; the frame is the ingest benchmark's (" + FRAME.length() + " chars). fastPath:"
        + " what the SDK does for an event frame (head scanned in place, the Message read straight from the"
        + " String by the connection's FastMessageReader, on the socket's reader thread, with its buffer and its"
        + " cache of repeated ids kept; anything unusual is left to the Moshi adapter); fastPathFreshReader:"
        + " the same with a new reader per frame (no buffer or cache kept);"
        + " fastHeadThenMoshi: the head scanned in place, the arguments parsed once by the Moshi adapter over one"
        + " UTF-8 copy (what a message FastMessageReader does not take costs); strictPath: what it does for"
        + " every other frame (the packet checked whole, then the payload decoded: two parses); headScanOnly: the fast path's scan of type and name; okHttpMoshiPeer: the"
        + " frame encoded to UTF-8 and decoded by Moshi's reflective adapter into a plain class (no checks).");
    Report.Table table = report.table("benchmark", "frames/s", "± (99.9 %)", "fastPath ÷ this");
    double fast = scores.containsKey("fastPath") ? scores.get("fastPath")[0] : Double.NaN;
    List<String> order = new ArrayList<>(scores.keySet());
    for (String name : order) {
      double[] s = scores.get(name);
      table.row(name, Report.num(s[0], 0), Report.num(s[1], 0), Report.ratio(fast, s[0]));
    }
    table.end();
    int rounds = quick ? 3 : 8;
    report.paragraph("The same two paths measured as the CPU time of the thread that runs them and the bytes it"
        + " allocates, per frame (median of " + rounds + " rounds of " + Report.num(CPU_FRAMES, 0) + " frames after "
        + "as many warm-up rounds, one thread, outside JMH): counts that the other work on the machine disturbs"
        + " far less than a rate.");
    Report.Table cpu = report.table("path", "thread CPU ns/frame (median)", "bytes allocated/frame",
        "fastPath ÷ this (CPU)");
    double fastCpu = perFrame.get("fastPath")[0];
    for (Map.Entry<String, double[]> e : perFrame.entrySet()) {
      cpu.row(e.getKey(), Report.num(e.getValue()[0], 0), Report.num(e.getValue()[1], 0),
          Report.ratio(fastCpu, e.getValue()[0]));
    }
    cpu.end();
    report.write(args);
  }

  private static final int CPU_FRAMES = 200_000;

  /** A path of the benchmark, as a plain call. */
  interface Path {
    Object run() throws Exception;
  }

  static Object sink;

  /** Returns the median thread CPU ns per frame of {@code path} and its bytes allocated per frame. */
  static double[] cpuPerFrame(Path path, boolean quick) throws Exception {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    int rounds = quick ? 3 : 8;
    double[] cpu = new double[rounds];
    double bytes = 0;
    for (int r = -rounds; r < rounds; r++) {
      long c0 = threads.getCurrentThreadCpuTime();
      long b0 = threads.getCurrentThreadAllocatedBytes();
      for (int k = 0; k < CPU_FRAMES; k++) sink = path.run();
      if (r >= 0) {
        cpu[r] = (threads.getCurrentThreadCpuTime() - c0) / (double) CPU_FRAMES;
        bytes = (threads.getCurrentThreadAllocatedBytes() - b0) / (double) CPU_FRAMES;
      }
    }
    return new double[] {Report.median(cpu), bytes};
  }
}
