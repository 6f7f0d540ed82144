package dev.svc.chat.reference.dev;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Whether the dev API and the console are served. Both are on by default when the server listens on a
 * loopback address only (a developer's own machine) and off otherwise; the dev API can be forced on for
 * another bind ({@code --dev-api on}), the console switched either way ({@code --console on|off}), but never
 * served without the dev API it calls.
 *
 * @param devApi whether {@code /v1/dev/} answers
 * @param console whether {@code /console/} is served
 */
public record DevAccess(boolean devApi, boolean console) {

    /**
     * Returns the access for a server listening on {@code host}, with the operator's choices ({@code null}
     * for the default).
     */
    public static DevAccess forBind(String host, Boolean devApiChoice, Boolean consoleChoice) {
        boolean loopback = isLoopback(host);
        boolean devApi = devApiChoice != null ? devApiChoice : loopback;
        boolean console = devApi && (consoleChoice != null ? consoleChoice : loopback);
        return new DevAccess(devApi, console);
    }

    /** Returns whether {@code host} names loopback addresses only ({@code 127.0.0.1}, {@code ::1}, {@code localhost}). */
    public static boolean isLoopback(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            InetAddress[] addresses = InetAddress.getAllByName(bare);
            for (InetAddress address : addresses) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return addresses.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
