package dev.svc.chat.reference.gateway;

import java.time.Duration;

/**
 * The gateway's timing and limits.
 *
 * @param pingInterval how often the server pings
 * @param pingTimeout how long the server waits for the pong
 * @param connectTimeout how long a connection may stay without a Socket.IO session
 * @param maxPayload the largest frame accepted, in bytes (larger closes with 1009)
 * @param outboundLimit the most frames queued for one connection before it is dropped
 * @param outboundBytes the most bytes (UTF-8) queued for one connection before it is dropped
 * @param compression whether permessage-deflate is offered to clients (off by default, like the official
 *                    server: it compresses every frame once per member)
 */
public record GatewayConfig(Duration pingInterval, Duration pingTimeout, Duration connectTimeout, int maxPayload,
                            int outboundLimit, long outboundBytes, boolean compression) {

    /** The official server's maxPayload (maxHttpBufferSize), 1 MB. */
    public static final int DEFAULT_MAX_PAYLOAD = 1_000_000;
    /** Frames queued for one connection before it counts as stuck (chosen). */
    public static final int DEFAULT_OUTBOUND_LIMIT = 1_000;
    /**
     * Bytes queued for one connection before it counts as stuck (chosen: 4 MiB holds dozens of the largest
     * messages, while 1,000 frames of them would be over 100 MB).
     */
    public static final long DEFAULT_OUTBOUND_BYTES = 4L * 1024 * 1024;

    /** Checks the values. */
    public GatewayConfig {
        if (pingInterval.isNegative() || pingInterval.isZero() || pingTimeout.isNegative() || pingTimeout.isZero()
                || connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("durations must be positive");
        }
        if (maxPayload < 1 || outboundLimit < 1 || outboundBytes < 1) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }
}
