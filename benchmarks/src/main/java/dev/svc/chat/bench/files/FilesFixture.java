package dev.svc.chat.bench.files;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.reference.ReferenceServer;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * The reference server in this JVM on its data-directory backend (a temporary directory), its tenant's
 * {@code maxFileBytes} raised for files of a GiB and more, one room of two users, and their session tokens.
 */
final class FilesFixture implements AutoCloseable {
    static final String API_KEY = "sk_bench_files_0123456789";
    static final String SENDER = "files-sender";
    static final String READER = "files-reader";
    private static final MediaType JSON = MediaType.get("application/json");
    private static final Pattern ID = Pattern.compile("\"(?:id|token)\"\\s*:\\s*\"([^\"]+)\"");

    final ReferenceServer server;
    final String apiUrl;
    final String room;
    final String senderToken;
    final String readerToken;
    private final OkHttpClient admin = new OkHttpClient();

    FilesFixture(Path dataDir) throws IOException {
        server = ReferenceServer.builder().host("127.0.0.1").port(0).dataDir(dataDir).apiKey(API_KEY)
                .sendRateLimit(1_000_000, 1_000_000).build().start();
        apiUrl = server.apiUrl();
        call("PATCH", "/tenant/settings", "{\"maxFileBytes\":" + (4L << 30) + "}");
        senderToken = token(SENDER);
        readerToken = token(READER);
        room = id(call("POST", "/chat/rooms", "{\"name\":\"files\",\"memberIds\":[\"" + SENDER + "\",\"" + READER
                + "\"]}"));
    }

    /** A client of the sender's, connected, through {@code url} (the server's, or a proxy's), on SDK defaults. */
    ChatClient sender(String url) throws Exception {
        return sender(SvcOptions.builder(url).build());
    }

    /** A client of the sender's with these options, connected. */
    ChatClient sender(SvcOptions options) throws Exception {
        ChatClient client = Svc.init(options);
        client.connect(SENDER, senderToken).get(60, TimeUnit.SECONDS);
        return client;
    }

    /** A client of the reader's, connected to the server. */
    ChatClient reader() throws Exception {
        ChatClient client = Svc.init(SvcOptions.builder(apiUrl).build());
        client.connect(READER, readerToken).get(60, TimeUnit.SECONDS);
        return client;
    }

    private String token(String user) throws IOException {
        return id(call("POST", "/auth/token", "{\"userId\":\"" + user + "\",\"expiresIn\":36000}"));
    }

    private String call(String method, String path, String body) throws IOException {
        Request request = new Request.Builder().url(apiUrl + path).header("x-api-key", API_KEY)
                .method(method, RequestBody.create(body, JSON)).build();
        try (Response response = admin.newCall(request).execute()) {
            String text = response.body() == null ? "" : response.body().string();
            if (!response.isSuccessful()) throw new IOException(method + " " + path + ": " + response.code() + " " + text);
            return text;
        }
    }

    private static String id(String body) throws IOException {
        Matcher m = ID.matcher(body);
        if (!m.find()) throw new IOException("no id in " + body);
        return m.group(1);
    }

    @Override
    public void close() {
        server.close();
        admin.dispatcher().executorService().shutdown();
        admin.connectionPool().evictAll();
    }
}
