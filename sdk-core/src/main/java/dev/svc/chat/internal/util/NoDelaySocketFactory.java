package dev.svc.chat.internal.util;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;

import javax.net.SocketFactory;

/**
 * Sets TCP_NODELAY on every socket: OkHttp never does, and Nagle's algorithm with delayed ACKs stalls small
 * chat frames by tens of milliseconds.
 */
final class NoDelaySocketFactory extends SocketFactory {
  private final SocketFactory delegate;

  NoDelaySocketFactory(SocketFactory delegate) {
    this.delegate = delegate;
  }

  @Override
  public Socket createSocket() throws IOException {
    return noDelay(delegate.createSocket());
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return noDelay(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
    return noDelay(delegate.createSocket(host, port, localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return noDelay(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return noDelay(delegate.createSocket(address, port, localAddress, localPort));
  }

  private static Socket noDelay(Socket socket) throws IOException {
    socket.setTcpNoDelay(true);
    return socket;
  }
}
