package dev.svc.chat.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.svc.chat.MessagePage;
import org.junit.jupiter.api.Test;

/**
 * A page the service answered is queued for the store before the app sees it: an app that closes the client as
 * soon as its read answers (a short-lived bot, a test, an activity finishing) must find the page stored at its next
 * start. OfflineStoreEndToEndTest failed once under load on exactly that ("Failed to connect" for a page that
 * should have come from the store).
 */
class StoredSessionKeepTest {

  @Test
  void thePageIsKeptBeforeTheAppsCallbackRuns() {
    List<String> order = Collections.synchronizedList(new ArrayList<String>());
    CompletableFuture<MessagePage> service = new CompletableFuture<>();
    CompletableFuture<MessagePage> answer = StoredSession.askAndKeep(() -> service, messages -> order.add("kept"));
    answer.thenRun(() -> order.add("the app saw the page")); // where an app would call close()

    service.complete(new MessagePage(Collections.<dev.svc.chat.Message>emptyList(), false));

    assertEquals(java.util.Arrays.asList("kept", "the app saw the page"), order);
  }
}
