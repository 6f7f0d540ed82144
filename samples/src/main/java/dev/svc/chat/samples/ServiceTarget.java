package dev.svc.chat.samples;

import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.ServerClient;

/**
 * The service a sample talks to: the reference server started in the sample's JVM with its embedded defaults,
 * or, given {@code --api-url}, a running one whose API key is in {@code SVC_API_KEY}.
 */
public final class ServiceTarget implements AutoCloseable {
  private final ReferenceServer server;
  private final String apiUrl;
  private final String apiKey;

  private ServiceTarget(ReferenceServer server, String apiUrl, String apiKey) {
    this.server = server;
    this.apiUrl = apiUrl;
    this.apiKey = apiKey;
  }

  /**
   * Starts the embedded server when {@code apiUrl} is null (and prints its URL and its console's); else takes the running one,
   * exiting with a message when {@code SVC_API_KEY} is not set.
   *
   * @param apiUrl the {@code --api-url} given, or null
   * @return the target; close it to stop an embedded server
   */
  public static ServiceTarget start(String apiUrl) {
    if (apiUrl == null) {
      ReferenceServer server = ReferenceServer.builder().port(0).build().start();
      System.out.println("reference server: " + server.apiUrl());
      // A generated key of a server that lives as long as this JVM: printed so that the console can be used.
      server.consoleUrl().ifPresent(url -> System.out.println("console: " + url + " (sign in with the API key "
          + server.apiKey() + "; --keep-running keeps it up)"));
      return new ServiceTarget(server, server.apiUrl(), server.apiKey());
    }
    String key = System.getenv("SVC_API_KEY");
    if (key == null || key.isEmpty()) {
      System.err.println("--api-url needs the server's API key in SVC_API_KEY");
      System.exit(2);
    }
    return new ServiceTarget(null, apiUrl, key);
  }

  /** Returns the API URL, such as {@code http://127.0.0.1:8080/v1}. */
  public String apiUrl() {
    return apiUrl;
  }

  /** Returns the API key (server side only: never in an app). */
  public String apiKey() {
    return apiKey;
  }

  /** Returns whether the server runs in this JVM. */
  public boolean embedded() {
    return server != null;
  }

  /** Returns an API-key client of the service. */
  public ServerClient serverClient() {
    return ServerClient.create(apiUrl, apiKey);
  }

  /** Stops the embedded server, if any. */
  @Override
  public void close() {
    if (server != null) server.close();
  }
}
