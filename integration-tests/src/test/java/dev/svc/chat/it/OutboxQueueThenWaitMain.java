package dev.svc.chat.it;

import dev.svc.chat.ChatClient;
import dev.svc.chat.MessagePart;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.testing.Await;
import java.io.File;
import java.util.Collections;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM by {@link OutboxCrashRecoveryTest}: a client of an unreachable service with a file-backed
 * outbox queues N sends ({@code crash-1} ... {@code crash-N}, texts {@code msg 1} ...), prints {@code queued}
 * once all are in the outbox, and waits to be killed. Arguments: apiUrl userId token roomId outboxDir N.
 */
public final class OutboxQueueThenWaitMain {
  private OutboxQueueThenWaitMain() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[5]);
    ChatClient client = Svc.init(SvcOptions.builder(args[0]).outboxDirectory(new File(args[4]))
        .reconnectDelay(50, 200).build());
    client.connect(args[1], args[2]); // never succeeds: nothing listens there
    for (int i = 1; i <= n; i++) {
      client.sendMessage(args[3], Collections.singletonList(MessagePart.text("msg " + i)), "crash-" + i);
    }
    Await.until(n + " sends queued", () -> client.pendingSends().size() >= n, () -> client.pendingSends().size());
    System.out.println("queued");
    System.out.flush();
    Thread.sleep(TimeUnit.MINUTES.toMillis(5)); // killed long before this
    System.exit(3);
  }
}
