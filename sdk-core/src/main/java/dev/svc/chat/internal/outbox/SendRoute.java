package dev.svc.chat.internal.outbox;

import dev.svc.chat.internal.realtime.SocketSendChannel;

/**
 * How an attempt of a send travels, with the ordering rule that sets how many attempts of one room may be in
 * flight at once (its {@link #window()}). A closed set: {@link #REST}, and one socket route per gateway
 * connection that offered sends ({@link #socket}). The extension the socket route uses is specified once, in
 * docs/protocol.md, "Extension: sends over the socket"; the reference server's {@code send-message} handler
 * cites the same section.
 *
 * <ul>
 *   <li>{@link #REST}: {@code POST /v1/chat/rooms/{roomId}/messages}, window 1. Two requests of a room could
 *       travel on two HTTP connections and be stored in either order, so the next starts only after the
 *       previous answered.
 *   <li>Socket ({@link #socket}): a {@code send-message} event with an ack on one accepted WebSocket, window
 *       {@value #SOCKET_WINDOW}, within the connection's {@link SocketSendBudget} of bytes in flight, which its
 *       rooms share. The server reads a
 *       connection's events in order and stores each before it reads the next, and after a retryable refusal it
 *       refuses that room's later sends on the connection until the refused one is sent again: so sends in flight
 *       on one connection are stored in the order sent, and a refused one is never overtaken. The rule holds
 *       per connection only: two socket routes are equal only when they are of the same connection.
 * </ul>
 *
 * <p>Attempts of a room in flight are all on one route: before a room changes route (REST to socket, or one
 * connection to the next after a token refresh), every attempt in flight on the old one has answered.
 */
public abstract class SendRoute {
  /**
   * The sends of one room in flight at once on one gateway connection. By Little's law a room's rate is at most
   * the window divided by the acknowledgement's round trip: 256 keeps 5,000 sends a second flowing through a round
   * trip of 50 ms (a collector's pause in either process), where 32 queued them in the outbox past 6 ms.
   */
  public static final int SOCKET_WINDOW = 256;

  /** Over REST, one send of a room in flight at a time. */
  public static final SendRoute REST = new Rest();

  private SendRoute() {
  }

  /** Returns the route of sends over the gateway connection whose offer is {@code channel}. */
  public static SendRoute socket(SocketSendChannel channel) {
    if (channel == null) throw new NullPointerException("channel == null");
    return new Socket(channel);
  }

  /** Returns how many attempts of one room may be in flight at once on this route. */
  public abstract int window();

  /** Returns the connection of a socket route, or null for {@link #REST}. */
  public abstract SocketSendChannel channel();

  private static final class Rest extends SendRoute {
    @Override
    public int window() {
      return 1;
    }

    @Override
    public SocketSendChannel channel() {
      return null;
    }

    @Override
    public String toString() {
      return "REST";
    }
  }

  private static final class Socket extends SendRoute {
    private final SocketSendChannel channel;

    Socket(SocketSendChannel channel) {
      this.channel = channel;
    }

    @Override
    public int window() {
      return SOCKET_WINDOW;
    }

    @Override
    public SocketSendChannel channel() {
      return channel;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Socket && ((Socket) other).channel == channel; // one channel per connection
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(channel);
    }

    @Override
    public String toString() {
      return channel.toString();
    }
  }
}
