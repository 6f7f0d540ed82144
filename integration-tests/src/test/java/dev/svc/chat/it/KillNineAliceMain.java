package dev.svc.chat.it;

import dev.svc.chat.ChatClient;
import dev.svc.chat.ConnectionState;
import dev.svc.chat.EventType;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.RecoveryEvent;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.store.sqlite.SqliteChatStore;
import dev.svc.chat.testing.Await;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Collections;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM by {@link StoreKillNineTest}: "alice" with the SQLite store, who receives, marks read and
 * sends, until she is killed. Arguments: apiUrl token storeDir sendLog seed mode room...
 *
 * <p>Each send is numbered on from the count of lines in the send log: {@code alice-<n>} (text
 * {@code alice <n>}) goes to room {@code n % rooms}, and its line is appended to the log BEFORE
 * {@code sendMessage} is called, so the log holds every send the app made, including one whose outbox row
 * a kill prevented. Every event, send and receipt prints one progress line ({@code + ...}) for the test to
 * pick a kill point by. Mode {@code run} replies to some of bob's messages and marks some read; mode
 * {@code sync} sends nothing new, prints {@code synced} once the restart's recovery finished and the outbox
 * is empty, and closes the client when its standard input says {@code close}.
 */
public final class KillNineAliceMain {
  private static final Object OUT = new Object();

  private final ChatClient client;
  private final File sendLog;
  private final String[] rooms;
  private final Random random;
  private int sent;

  private KillNineAliceMain(ChatClient client, File sendLog, String[] rooms, long seed) throws IOException {
    this.client = client;
    this.sendLog = sendLog;
    this.rooms = rooms;
    this.random = new Random(seed);
    this.sent = sendLog.exists() ? Files.readAllLines(sendLog.toPath()).size() : 0;
  }

  public static void main(String[] args) throws Exception {
    String[] rooms = new String[args.length - 6];
    System.arraycopy(args, 6, rooms, 0, rooms.length);
    boolean run = "run".equals(args[5]);
    ChatClient client = Svc.init(SvcOptions.builder(args[0])
        .store(SqliteChatStore.provider(new File(args[2])))
        .reconnectDelay(50, 500).build());
    KillNineAliceMain alice = new KillNineAliceMain(client, new File(args[3]), rooms, Long.parseLong(args[4]));
    CountDownLatch recovered = new CountDownLatch(1);
    client.on(EventType.NEW_MESSAGE, m -> alice.received(m, run));
    client.on(EventType.MESSAGE_UPDATED, m -> print("+ updated " + m.id() + " rev " + m.rev()));
    client.on(EventType.ROOM_READ, r -> print("+ read " + r.userId() + " " + r.seq()));
    client.on(EventType.CLIENT_ERROR, e -> print("error " + e));
    client.on(EventType.CONNECTION_STATE, c -> {
      if (c.current() == ConnectionState.CONNECTED) print("connected");
    });
    client.on(EventType.RECOVERY, e -> {
      if (e.roomId() == null && e.phase() == RecoveryEvent.Phase.FINISHED) {
        print("recovered");
        recovered.countDown();
      }
    });
    client.connect("alice", args[1]);
    print("started");
    if (run) {
      alice.send(); // queued before the connection is up: the outbox row is the only copy
      Thread.sleep(TimeUnit.MINUTES.toMillis(5)); // killed long before this
      System.exit(3);
    }
    if (!recovered.await(60, TimeUnit.SECONDS)) fail("no recovery");
    Await.until("no send pending", Duration.ofSeconds(60), () -> client.pendingSends().isEmpty(),
        client::pendingSends);
    print("synced");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null && !line.equals("close"); ) {
      // only "close" ends the run
    }
    client.close();
    print("closed");
    System.exit(0);
  }

  private void received(Message m, boolean run) {
    print("+ message " + m.roomId() + " " + m.seq() + " " + m.senderId());
    if (!run || !"bob".equals(m.senderId())) return;
    if (random.nextInt(4) == 0) {
      client.markRead(m.roomId(), m.id());
      print("+ markRead " + m.seq());
    }
    if (random.nextInt(2) == 0) send();
  }

  /** Numbers the next send, logs it, then hands it to the SDK (whose outbox stores it). */
  private synchronized void send() {
    int n = ++sent;
    try (OutputStream out = new FileOutputStream(sendLog, true)) {
      out.write(("alice-" + n + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      fail("send log: " + e);
    }
    client.sendMessage(rooms[n % rooms.length], Collections.singletonList(MessagePart.text("alice " + n)),
        "alice-" + n);
    print("+ sent alice-" + n);
  }

  private static void print(String line) {
    synchronized (OUT) {
      System.out.println(line);
      System.out.flush();
    }
  }

  private static void fail(String why) {
    print("failed: " + why);
    System.exit(2);
  }
}
