package dev.svc.chat.server;

import org.jspecify.annotations.Nullable;

/**
 * A change of the tenant's settings for {@link ServerClient#updateTenantSettings(TenantSettingsUpdate)}
 * ({@code PATCH /v1/tenant/settings}): only the settings set here change.
 *
 * <pre>{@code
 * svc.updateTenantSettings(TenantSettingsUpdate.builder().autoCreateUsers(false).webhookUrl(url).build());
 * }</pre>
 */
public final class TenantSettingsUpdate {
  private final @Nullable Boolean autoCreateUsers;
  private final @Nullable Boolean callsEnabled;
  private final @Nullable String webhookUrl;
  private final boolean removeWebhookUrl;

  private TenantSettingsUpdate(Builder b) {
    this.autoCreateUsers = b.autoCreateUsers;
    this.callsEnabled = b.callsEnabled;
    this.webhookUrl = b.webhookUrl;
    this.removeWebhookUrl = b.removeWebhookUrl;
  }

  /**
   * Returns a builder of an update that changes nothing yet.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the new value of {@code autoCreateUsers}.
   *
   * @return the value, or null to leave it
   */
  public @Nullable Boolean autoCreateUsers() {
    return autoCreateUsers;
  }

  /**
   * Returns the new value of {@code callsEnabled}.
   *
   * @return the value, or null to leave it
   */
  public @Nullable Boolean callsEnabled() {
    return callsEnabled;
  }

  /**
   * Returns the new webhook URL.
   *
   * @return the URL, or null to leave it (or to remove it, see {@link #removesWebhookUrl()})
   */
  public @Nullable String webhookUrl() {
    return webhookUrl;
  }

  /**
   * Returns whether the update removes the webhook URL, which stops deliveries.
   *
   * @return true if it does
   */
  public boolean removesWebhookUrl() {
    return removeWebhookUrl;
  }

  String toJson() {
    return Wire.body("autoCreateUsers", autoCreateUsers, "callsEnabled", callsEnabled,
        "webhookUrl", removeWebhookUrl ? Wire.JSON_NULL : webhookUrl);
  }

  @Override
  public String toString() {
    return "TenantSettingsUpdate" + toJson();
  }

  /** Builds a {@link TenantSettingsUpdate}. */
  public static final class Builder {
    private @Nullable Boolean autoCreateUsers;
    private @Nullable Boolean callsEnabled;
    private @Nullable String webhookUrl;
    private boolean removeWebhookUrl;

    private Builder() {
    }

    /**
     * Sets whether minting a token for an unknown user creates it.
     *
     * @param autoCreateUsers the new value
     * @return this builder
     */
    public Builder autoCreateUsers(boolean autoCreateUsers) {
      this.autoCreateUsers = autoCreateUsers;
      return this;
    }

    /**
     * Sets whether call operations are enabled.
     *
     * @param callsEnabled the new value
     * @return this builder
     */
    public Builder callsEnabled(boolean callsEnabled) {
      this.callsEnabled = callsEnabled;
      return this;
    }

    /**
     * Sets the URL webhooks are delivered to.
     *
     * @param webhookUrl an absolute http or https URL
     * @return this builder
     */
    public Builder webhookUrl(String webhookUrl) {
      if (webhookUrl == null) throw new NullPointerException("webhookUrl == null");
      this.webhookUrl = webhookUrl;
      this.removeWebhookUrl = false;
      return this;
    }

    /**
     * Removes the webhook URL: no more webhooks are delivered.
     *
     * @return this builder
     */
    public Builder removeWebhookUrl() {
      this.webhookUrl = null;
      this.removeWebhookUrl = true;
      return this;
    }

    /**
     * Returns the update.
     *
     * @return a new immutable update
     */
    public TenantSettingsUpdate build() {
      return new TenantSettingsUpdate(this);
    }
  }
}
