package dev.svc.chat.reference.http;

import org.eclipse.jetty.server.HttpConfiguration;

/** Jetty's HTTP settings of the REST API: how request headers are read. */
public final class HttpSettings {

    private HttpSettings() {
    }

    /**
     * Applies the settings to Jetty's HTTP configuration. The request headers are at most
     * {@link ContractErrorHandler#MAX_HEADER_BYTES} (431 past that). Jetty's per-connection header cache is off:
     * by default it matches Authorization and Cookie values case-insensitively, so a token differing from an
     * earlier one only in letter case would be read as the earlier one; and case-sensitive, its 1,024 characters
     * do not hold a session token with the other cacheable headers, so it was cleared and refilled on every
     * request (6 % of the server's samples in the fan-out benchmark's profile at 10 members).
     */
    public static void apply(HttpConfiguration http) {
        http.setHeaderCacheSize(0);
        http.setHeaderCacheCaseSensitive(true);
        http.setRequestHeaderSize(ContractErrorHandler.MAX_HEADER_BYTES);
    }
}
