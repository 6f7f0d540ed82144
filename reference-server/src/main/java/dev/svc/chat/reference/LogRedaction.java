package dev.svc.chat.reference;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Redacts credentials from the server's log, line by line: the value of an {@code Authorization} or
 * {@code x-api-key} header however a logger spells it (Jetty at DEBUG prints request headers verbatim), the
 * {@code token} and {@code apiKey} of a Socket.IO CONNECT payload ({@code auth}), and anything shaped like a
 * session token (a compact JWT), an API key ({@code sk_...}) or a webhook secret ({@code whsec_...}) wherever
 * it appears. {@link Main} routes the log (slf4j-simple writes to {@code System.err}) through it.
 */
final class LogRedaction {

    /** What a redacted value is replaced with. */
    static final String MASK = "[redacted]";

    private static final Pattern HEADER = Pattern.compile(
            "(?i)((?:authorization|x-api-key)\\s*[:=]\\s*)(?:bearer\\s+|basic\\s+)?[^\\s,;\\]}\"']+");
    private static final Pattern AUTH_FIELD = Pattern.compile(
            "(?i)(\\\\?\"(?:token|apiKey)\\\\?\"\\s*:\\s*\\\\?\")[^\"\\\\]*");
    private static final Pattern JWT = Pattern.compile(
            "eyJ[A-Za-z0-9_\\-]*\\.[A-Za-z0-9_\\-+/=]*\\.[A-Za-z0-9_\\-+/=]*");
    private static final Pattern SECRET = Pattern.compile("\\b(?:sk|whsec)_[^\\s\"',;&\\]}]+");

    private LogRedaction() {
    }

    /** Returns {@code line} with every credential replaced by {@link #MASK}. */
    static String redact(String line) {
        String s = HEADER.matcher(line).replaceAll("$1" + MASK);
        s = AUTH_FIELD.matcher(s).replaceAll("$1" + MASK);
        s = JWT.matcher(s).replaceAll(MASK);
        return SECRET.matcher(s).replaceAll(MASK);
    }

    /** Returns a print stream that writes complete lines to {@code target}, each redacted. */
    static PrintStream redacting(PrintStream target) {
        return new PrintStream(new LineRedactor(target), true, StandardCharsets.UTF_8);
    }

    /** Collects bytes up to each line break, then writes the line redacted. */
    private static final class LineRedactor extends OutputStream {
        private final PrintStream target;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineRedactor(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                emit();
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }

        @Override
        public synchronized void flush() {
            if (line.size() > 0 && line.toByteArray()[line.size() - 1] == '\n') {
                emit();
            }
            target.flush();
        }

        private void emit() {
            target.print(redact(line.toString(StandardCharsets.UTF_8)));
            target.flush();
            line.reset();
        }
    }
}
