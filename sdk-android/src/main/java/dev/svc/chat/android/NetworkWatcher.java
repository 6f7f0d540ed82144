package dev.svc.chat.android;

import android.net.ConnectivityManager;
import android.net.Network;
import org.jspecify.annotations.Nullable;

/**
 * Follows the device's default network ({@link ConnectivityManager#registerDefaultNetworkCallback}, API
 * 24). Android calls it on its own connectivity thread, not the main thread, so its state is guarded and its
 * listener must be thread-safe.
 *
 * <p>A switch from one network to another (Wi-Fi to mobile) arrives as {@code onAvailable} of the new
 * network; the {@code onLost} of the old one that may follow is ignored, since it is no longer the default.
 */
final class NetworkWatcher extends ConnectivityManager.NetworkCallback {
  /** Receives the changes, on Android's connectivity thread. */
  interface Listener {
    /** Invoked when a network became the default one (also once at registration, if there is one). */
    void onNetworkAvailable();

    /** Invoked when the default network was lost and no other took its place. */
    void onNetworkLost();
  }

  private final Listener listener;
  // guarded by this
  private @Nullable Network current;

  NetworkWatcher(Listener listener) {
    this.listener = listener;
  }

  @Override
  public void onAvailable(Network network) {
    synchronized (this) {
      current = network;
    }
    listener.onNetworkAvailable();
  }

  @Override
  public void onLost(Network network) {
    synchronized (this) {
      if (current != null && !current.equals(network)) return; // an old network, already replaced
      current = null;
    }
    listener.onNetworkLost();
  }
}
