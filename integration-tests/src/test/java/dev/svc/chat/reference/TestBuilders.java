package dev.svc.chat.reference;

/** The reference server's builder settings meant for tests, opened to the integration tests' own packages. */
public final class TestBuilders {
    private TestBuilders() {
    }

    /** Sets how many frames may wait for one connection before it is cut ({@code outboundQueueLimit}). */
    public static ReferenceServer.Builder outboundQueueLimit(ReferenceServer.Builder builder, int frames) {
        return builder.outboundQueueLimit(frames);
    }
}
