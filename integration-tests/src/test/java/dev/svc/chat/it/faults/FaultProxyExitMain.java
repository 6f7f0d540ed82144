package dev.svc.chat.it.faults;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;

/**
 * Run in a child JVM by {@link FaultProxyTest}: a proxy with non-daemon threads, busy connections, a stall, a
 * throttle and a random run going on; then {@code close()} and return from main. The JVM must exit by itself.
 */
public final class FaultProxyExitMain {
  private FaultProxyExitMain() {
  }

  public static void main(String[] args) throws Exception {
    try (EchoServer echo = new EchoServer()) {
      FaultProxy proxy = FaultProxy.start("127.0.0.1", echo.port(), 11, false);
      Socket[] sockets = new Socket[3];
      for (int i = 0; i < sockets.length; i++) {
        sockets[i] = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        sockets[i].setSoTimeout(5000);
        OutputStream out = sockets[i].getOutputStream();
        InputStream in = sockets[i].getInputStream();
        out.write('x');
        if (in.read() != 'x') throw new AssertionError("no echo");
      }
      proxy.stallOne(FaultProxy.Direction.BOTH, null);
      proxy.latency(Duration.ofSeconds(30));
      sockets[2].getOutputStream().write('y');
      proxy.startRandom(RandomFaults.of(11, Duration.ofMinutes(10)));
      proxy.close();
      for (Socket s : sockets) s.close();
    }
    System.out.println("closed");
  }
}
