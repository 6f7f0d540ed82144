package dev.svc.chat.server;

import org.jspecify.annotations.Nullable;

/** The tenant's settings: {@code GET /v1/tenant/settings}. */
public final class TenantSettings {
  private final boolean autoCreateUsers;
  private final boolean callsEnabled;
  private final @Nullable String webhookUrl;

  TenantSettings(boolean autoCreateUsers, boolean callsEnabled, @Nullable String webhookUrl) {
    this.autoCreateUsers = autoCreateUsers;
    this.callsEnabled = callsEnabled;
    this.webhookUrl = webhookUrl;
  }

  /**
   * Returns whether minting a token for an unknown user creates it.
   *
   * @return true by default
   */
  public boolean autoCreateUsers() {
    return autoCreateUsers;
  }

  /**
   * Returns whether call operations are enabled.
   *
   * @return true by default
   */
  public boolean callsEnabled() {
    return callsEnabled;
  }

  /**
   * Returns the URL webhooks are delivered to.
   *
   * @return the URL, or null when unset
   */
  public @Nullable String webhookUrl() {
    return webhookUrl;
  }

  @Override
  public String toString() {
    return "TenantSettings{autoCreateUsers=" + autoCreateUsers + ", callsEnabled=" + callsEnabled
        + ", webhookUrl=" + webhookUrl + "}";
  }
}
