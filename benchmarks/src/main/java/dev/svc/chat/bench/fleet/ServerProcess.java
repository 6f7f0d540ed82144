package dev.svc.chat.bench.fleet;

import dev.svc.chat.bench.support.EndsWithParent;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The reference server in a JVM of its own on loopback, and the tenant backend's token minting. */
final class ServerProcess implements AutoCloseable {
    static final String API_KEY = "sk_bench_fleet_key";
    private static final Pattern LISTENING = Pattern.compile("listening on (\\S+)");

    final Process process;
    final String apiUrl;

    private ServerProcess(Process process, String apiUrl) {
        this.process = process;
        this.apiUrl = apiUrl;
    }

    static ServerProcess start() throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xss512k", "-Xmx3g", "-cp", System.getProperty("java.class.path"),
                EndsWithParent.class.getName(), "dev.svc.chat.reference.Main",
                "--host", "127.0.0.1", "--port", "0", "--tenant", "bench:" + API_KEY,
                "--send-rate", "1000000", "--send-burst", "1000000"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        StringBuilder seen = new StringBuilder();
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                Thread drain = new Thread(() -> {
                    try {
                        while (out.readLine() != null) {
                            // keep the pipe from filling
                        }
                    } catch (IOException ignored) {
                        // the server ended
                    }
                }, "server-output");
                drain.setDaemon(true);
                drain.start();
                return new ServerProcess(p, m.group(1));
            }
        }
        p.destroyForcibly();
        throw new IOException("the reference server did not start:\n" + seen);
    }

    static String java() {
        return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    }

    /** Mints one token per user, {@code parallel} requests at a time. */
    List<String> mint(List<String> users, int parallel) throws Exception {
        String origin = apiUrl.replaceFirst("/v1/?$", "");
        HttpClient http = HttpClient.newBuilder().build();
        Semaphore window = new Semaphore(parallel);
        List<CompletableFuture<String>> tokens = new ArrayList<>();
        Pattern token = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");
        for (String user : users) {
            window.acquire();
            HttpRequest req = HttpRequest.newBuilder(URI.create(origin + "/v1/auth/token"))
                    .header("x-api-key", API_KEY).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"userId\":\"" + user + "\",\"expiresIn\":36000}"))
                    .build();
            tokens.add(http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> window.release())
                    .thenApply(r -> {
                        Matcher m = token.matcher(r.body());
                        if (r.statusCode() != 200 || !m.find()) {
                            throw new IllegalStateException("mint failed: " + r.statusCode() + " " + r.body());
                        }
                        return m.group(1);
                    }));
        }
        List<String> out = new ArrayList<>();
        for (CompletableFuture<String> f : tokens) out.add(f.get(60, TimeUnit.SECONDS));
        return out;
    }

    /** Creates a room with these members; returns its id. */
    String createRoom(String name, List<String> members) throws Exception {
        String origin = apiUrl.replaceFirst("/v1/?$", "");
        StringBuilder body = new StringBuilder("{\"name\":\"" + name + "\",\"memberIds\":[");
        for (int i = 0; i < members.size(); i++) body.append(i == 0 ? "" : ",").append('"').append(members.get(i)).append('"');
        body.append("]}");
        HttpRequest req = HttpRequest.newBuilder(URI.create(origin + "/v1/chat/rooms"))
                .header("x-api-key", API_KEY).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
        HttpResponse<String> r = HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
        if (r.statusCode() != 201 || !m.find()) throw new IllegalStateException("room: " + r.statusCode() + " " + r.body());
        return m.group(1);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
    }
}
