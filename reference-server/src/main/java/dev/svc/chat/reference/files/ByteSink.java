package dev.svc.chat.reference.files;

import java.io.IOException;

/** Where the bytes of one PATCH go while they are read, before they are committed or dropped. */
@FunctionalInterface
public interface ByteSink {

    /** Takes {@code len} bytes of {@code b} from {@code off}; they are the caller's again when this returns. */
    void write(byte[] b, int off, int len) throws IOException;
}
