package dev.svc.chat.reference.gateway;

/**
 * Points in the fan-out and the handshake where a test can hold a thread, to drive an interleaving of the
 * two without timing. Production uses {@link #NONE}; an implementation must not call into the gateway.
 */
interface FanOutSeam {

    /** The seam of production: does nothing. */
    FanOutSeam NONE = new FanOutSeam() {
    };

    /**
     * Called on the fan-out thread, with {@link FanOut}'s delivery order held (read side), just before a room
     * event is handed to {@code connection}.
     */
    default void delivering(GatewayConnection connection) {
    }

    /** Called on a handshake's thread just before {@code connection} is indexed (the delivery order's write side). */
    default void registering(GatewayConnection connection) {
    }

    /**
     * Called on a handshake's thread after {@code connection} was indexed and before the positions of its
     * user's rooms are read (session-token connections only).
     */
    default void readingPositions(GatewayConnection connection) {
    }

    /** Called on a handshake's thread after the positions were read and before the answer is queued. */
    default void answering(GatewayConnection connection) {
    }
}
