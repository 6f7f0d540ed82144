package dev.svc.chat.reference.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.ThreadMXBean;
import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.model.Json;
import dev.svc.chat.reference.model.TenantSettings;
import dev.svc.chat.reference.store.InMemoryStore;
import dev.svc.chat.reference.store.TenantRecord;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import javax.management.ObjectName;

/**
 * Measures what the in-memory store keeps per stored message, and what a send allocates, as counts that hold on
 * a loaded machine: sends {@code n} messages (texts of 100 to 300 characters, a UUID clientMessageId, as the SDK
 * sends) to one room through {@link ChatService} with the server's encoder, the body parsed per send as the REST
 * route does and the sender's id a new string per send (as a token parsed per request gives it), then takes the
 * difference of two class histograms of live objects (each after a full collection) and divides by {@code n}.
 * Allocation is the sending thread's allocated bytes over the sends; the publisher is a no-op (fan-out is
 * measured by the fan-out benchmark).
 * Run as a program ({@code main}) to print the table; {@link RetainedPerMessageTest} guards the totals.
 */
final class RetainedPerMessage {

    /** What {@code n} sends left behind: per-class live objects and bytes, and bytes allocated per send. */
    record Result(int messages, Map<String, long[]> byClass, double allocatedPerSend, double parsedPerSend) {

        double objectsPerMessage() {
            return byClass.values().stream().mapToLong(v -> v[0]).sum() / (double) messages;
        }

        double bytesPerMessage() {
            return byClass.values().stream().mapToLong(v -> v[1]).sum() / (double) messages;
        }

        /** Returns the classes with 0.5 object or 4 bytes a message or more, most bytes first, as a markdown table. */
        String table() {
            StringBuilder out = new StringBuilder("| class | objects / message | bytes / message |\n|---|---:|---:|\n");
            byClass.entrySet().stream()
                    .filter(e -> Math.abs(e.getValue()[0]) * 2 >= messages
                            || Math.abs(e.getValue()[1]) >= 4L * messages)
                    .sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]))
                    .forEach(e -> out.append(String.format(Locale.ROOT, "| `%s` | %.2f | %.1f |%n", e.getKey(),
                            e.getValue()[0] / (double) messages, e.getValue()[1] / (double) messages)));
            out.append(String.format(Locale.ROOT, "| all | %.2f | %.1f |%n", objectsPerMessage(),
                    bytesPerMessage()));
            out.append(String.format(Locale.ROOT, "%nallocated per send (sending thread): %.0f bytes, of which "
                    + "parsing the body and reading its fields %.0f%n", allocatedPerSend, parsedPerSend));
            return out.toString();
        }
    }

    private RetainedPerMessage() {
    }

    /** Sends {@code n} messages into a room of two after a warm-up: {@link #measure(int, int)}. */
    static Result measure(int n) throws Exception {
        return measure(n, 2);
    }

    /** Sends {@code n} messages into a room of {@code members} after a warm-up; returns what they left and made. */
    static Result measure(int n, int members) throws Exception {
        ObjectMapper mapper = Json.newMapper();
        InMemoryStore store = new InMemoryStore();
        TenantRecord tenant = new TenantRecord("t1", "sk_test_t1", new byte[32]);
        store.createTenant(tenant, TenantSettings.defaults(true));
        ChatService service = new ChatService(store, Clock.systemUTC(),
                new SendRateLimiter(Clock.systemUTC(), 1_000_000, 1_000_000), (t, room, event, payload) -> { },
                null, new PayloadEncoder(mapper));
        List<String> memberIds = new ArrayList<>(List.of("alice"));
        for (int i = 1; i < members; i++) {
            memberIds.add("member-" + i);
        }
        String warmRoom = service.createRoom("t1", null, memberIds).id();
        String room = service.createRoom("t1", null, memberIds).id();
        Random random = new Random(21);
        List<byte[]> warmBodies = bodies(random, 5_000);
        List<byte[]> bodies = bodies(random, n);
        send(service, mapper, tenant, warmRoom, warmBodies);

        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        Map<String, long[]> before = histogram();
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        send(service, mapper, tenant, room, bodies);
        long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
        Map<String, long[]> after = histogram();
        long parsedBefore = threads.getCurrentThreadAllocatedBytes();
        for (byte[] body : bodies) {
            input(mapper, body);
        }
        long parsed = threads.getCurrentThreadAllocatedBytes() - parsedBefore;
        // The bodies are live in both histograms (held by this frame), so the difference is the store's.
        Map<String, long[]> diff = new HashMap<>();
        after.forEach((name, counts) -> {
            long[] was = before.getOrDefault(name, new long[2]);
            diff.put(name, new long[] {counts[0] - was[0], counts[1] - was[1]});
        });
        before.forEach((name, counts) -> diff.putIfAbsent(name, new long[] {-counts[0], -counts[1]}));
        if (service.room("t1", room).lastMessageSeq() != n || bodies.size() != n) {
            throw new AssertionError("not every message was stored");
        }
        return new Result(n, diff, allocated / (double) n, parsed / (double) n);
    }

    private static void send(ChatService service, ObjectMapper mapper, TenantRecord tenant, String roomId,
                             List<byte[]> bodies) {
        for (byte[] body : bodies) {
            Principal principal = new Principal(tenant, new String("alice".toCharArray()), null);
            service.send(principal, roomId, input(mapper, body));
        }
    }

    private static SendInput input(ObjectMapper mapper, byte[] body) {
        JsonNode parsed = StrictJson.parse(mapper, body);
        return SendInput.read(name -> SendInput.field(parsed, name));
    }

    /** Request bodies as the SDK sends them: one text part of 100 to 300 characters and a UUID. */
    private static List<byte[]> bodies(Random random, int n) {
        String words = "the quick brown fox jumps over a lazy dog while chat messages flow through the server ";
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int length = 100 + random.nextInt(201);
            StringBuilder text = new StringBuilder(length);
            while (text.length() < length) {
                text.append(words, random.nextInt(words.length() / 2), words.length());
            }
            text.setLength(length);
            String json = "{\"parts\":[{\"type\":\"text\",\"text\":\"" + text + "\"}],\"clientMessageId\":\""
                    + new UUID(random.nextLong(), random.nextLong()) + "\"}";
            out.add(json.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Returns the live objects by class (instances, bytes), after the full collection the histogram makes. */
    private static Map<String, long[]> histogram() throws Exception {
        String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        Map<String, long[]> out = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[0].endsWith(":")) {
                out.merge(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])},
                        (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
            }
        }
        return out;
    }

    /** Prints the table for {@code args[0]} messages (default 20,000) into a room of {@code args[1]} (2). */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int members = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        System.out.print(measure(n, members).table());
    }
}
