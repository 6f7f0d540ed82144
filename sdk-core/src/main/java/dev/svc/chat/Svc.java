package dev.svc.chat;

import dev.svc.chat.internal.RealChatClient;

/**
 * Creates chat clients: the entry point of the SDK, like the JS SDK's global {@code Svc}.
 *
 * <pre>{@code
 * ChatClient client = Svc.init(session.apiUrl());
 * client.connect(session.chatUserId(), session.token()).join();
 * client.on(EventType.NEW_MESSAGE, m -> show(m));
 * }</pre>
 */
public final class Svc {
  private Svc() {
  }

  /**
   * Creates a client with the given options. It does nothing on the network until
   * {@link ChatClient#connect(String, String)}.
   *
   * @param options the client's settings
   * @return a new client; close it when done
   */
  public static ChatClient init(SvcOptions options) {
    if (options == null) throw new NullPointerException("options == null");
    return new RealChatClient(options);
  }

  /**
   * Creates a client of the service at {@code apiUrl} with default settings.
   *
   * @param apiUrl the API base, {@code http(s)://host[:port]/v1}
   * @return a new client; close it when done
   * @throws IllegalArgumentException if the URL is not valid
   */
  public static ChatClient init(String apiUrl) {
    return init(SvcOptions.builder(apiUrl).build());
  }
}
