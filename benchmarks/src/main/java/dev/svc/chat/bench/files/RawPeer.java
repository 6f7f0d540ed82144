package dev.svc.chat.bench.files;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.javalin.Javalin;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSink;
import okio.ByteString;
import okio.Okio;

/**
 * The peers of the SDK's transfers, on a plain {@link OkHttpClient}: a PUT of a file's bytes to a sink of ours
 * (Javalin on Jetty, as the reference server, that writes the body to a file through a 64 KiB buffer and forces
 * it to the disk once at the end); the same tus requests as the SDK's (create, then one PATCH of the whole file,
 * without {@code Upload-Checksum}) to the reference server, without the SDK's bookkeeping (no hashing, no record);
 * and a GET of a file's route of the
 * reference server into a file through Okio.
 */
final class RawPeer implements AutoCloseable {
    private static final MediaType OCTETS = MediaType.get("application/octet-stream");
    private static final MediaType OFFSET_STREAM = MediaType.get("application/offset+octet-stream");

    private final OkHttpClient http = new OkHttpClient.Builder().readTimeout(2, TimeUnit.MINUTES)
            .writeTimeout(2, TimeUnit.MINUTES).build();
    private final Javalin sink;
    private final String sinkUrl;

    RawPeer(Path sinkDir) {
        sink = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.startupWatcherEnabled = false;
        });
        sink.put("/sink/{name}", ctx -> {
            Path target = sinkDir.resolve(ctx.pathParam("name"));
            try (InputStream in = ctx.req().getInputStream();
                 RandomAccessFile out = new RandomAccessFile(target.toFile(), "rw")) {
                out.setLength(0);
                byte[] buffer = new byte[64 * 1024];
                for (int n; (n = in.read(buffer)) >= 0; ) out.write(buffer, 0, n);
                out.getFD().sync();
            }
            Files.delete(target);
            ctx.status(204);
        });
        sink.start("127.0.0.1", 0);
        sinkUrl = "http://127.0.0.1:" + sink.port() + "/sink/";
    }

    /** PUTs the file's bytes to the sink. */
    void put(File file) throws IOException {
        Request request = new Request.Builder().url(sinkUrl + file.getName()).put(RequestBody.create(file, OCTETS))
                .build();
        try (Response response = http.newCall(request).execute()) {
            if (response.code() != 204) throw new IOException("the sink answered " + response.code());
        }
    }

    /** Uploads the file with tus to the reference server: create, then one PATCH of the whole file, as the SDK. */
    void tus(String apiUrl, String token, File file) throws IOException {
        long length = file.length();
        Request create = new Request.Builder().url(apiUrl + "/uploads").header("Authorization", "Bearer " + token)
                .header("Tus-Resumable", "1.0.0").header("Upload-Length", Long.toString(length))
                .header("Upload-Metadata", "filename " + ByteString.encodeUtf8(file.getName()).base64())
                .post(RequestBody.create(new byte[0], null)).build();
        String location;
        try (Response response = http.newCall(create).execute()) {
            location = response.header("Location");
            if (response.code() != 201 || location == null) throw new IOException("create: " + response.code());
        }
        Request patch = new Request.Builder().url(create.url().resolve(location)).header("Authorization", "Bearer "
                + token).header("Tus-Resumable", "1.0.0").header("Upload-Offset", "0")
                .patch(RequestBody.create(file, OFFSET_STREAM)).build();
        try (Response response = http.newCall(patch).execute()) {
            if (response.code() != 204) throw new IOException("PATCH: " + response.code());
        }
    }

    /** GETs the file's route of the reference server into {@code target}. */
    void get(String apiUrl, String token, String fileId, File target) throws IOException {
        Request request = new Request.Builder().url(apiUrl + "/files/" + fileId)
                .header("Authorization", "Bearer " + token).build();
        try (Response response = http.newCall(request).execute();
             BufferedSink out = Okio.buffer(Okio.sink(target))) {
            if (response.code() != 200 || response.body() == null) throw new IOException("GET: " + response.code());
            out.writeAll(response.body().source());
        }
    }

    @Override
    public void close() {
        sink.stop();
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }
}
