package dev.svc.chat.it;

import static dev.svc.chat.it.Futures.apiError;
import static dev.svc.chat.it.Futures.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.svc.chat.ChatClient;
import dev.svc.chat.Message;
import dev.svc.chat.MessagePart;
import dev.svc.chat.SearchPage;
import dev.svc.chat.SearchQuery;
import dev.svc.chat.SearchResult;
import dev.svc.chat.Svc;
import dev.svc.chat.SvcOptions;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.ServerClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code ChatClient.searchMessages} against the reference server: what is found, snippets, paging, refusals. */
class SearchEndToEndTest {
  private ReferenceServer server;
  private ServerClient svc;
  private ChatClient alice;
  private ChatClient bob;
  private String roomId;

  @BeforeEach
  void setUp() throws Exception {
    server = ReferenceServer.builder().port(0).build().start();
    svc = ServerClient.create(server.apiUrl(), server.apiKey());
    roomId = svc.createRoom("search", List.of("alice", "bob")).id();
    alice = Svc.init(SvcOptions.builder(server.apiUrl()).build());
    bob = Svc.init(SvcOptions.builder(server.apiUrl()).build());
    await(alice.connect("alice", svc.mintToken("alice").token()));
    await(bob.connect("bob", svc.mintToken("bob").token()));
  }

  @AfterEach
  void tearDown() {
    if (alice != null) alice.close();
    if (bob != null) bob.close();
    if (server != null) server.close();
  }

  @Test
  void findsPagesAndMarksWhatAnotherUserSent() throws Exception {
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      sent.add(await(alice.sendText(roomId, "Déploiement numéro " + i)).id());
    }
    Collections.reverse(sent); // newest first
    List<String> found = new ArrayList<>();
    SearchQuery query = SearchQuery.of("deploiement").limit(2);
    SearchPage page = await(bob.searchMessages(query));
    int pages = 1;
    for (SearchResult r : page.results()) found.add(r.message().id());
    while (page.nextCursor() != null) {
      page = await(bob.searchMessages(query.after(page.nextCursor())));
      pages++;
      for (SearchResult r : page.results()) found.add(r.message().id());
    }
    assertEquals(sent, found);
    assertEquals(3, pages);

    SearchResult first = await(bob.searchMessages(SearchQuery.of("numero 4").sender("alice"))).results().get(0);
    assertEquals("Déploiement numéro 4", first.plainSnippet());
    assertEquals(2, first.highlights().size());
    assertArrayEquals(new int[] {12, 18}, first.highlights().get(0));
  }

  @Test
  void anEditIsFoundByItsNewTextOnly() throws Exception {
    Message m = await(alice.sendText(roomId, "first draft"));
    await(alice.updateMessage(roomId, m.id(), List.of(MessagePart.text("final wording"))));
    assertEquals(0, await(bob.searchMessages(SearchQuery.of("draft"))).results().size());
    SearchPage page = await(bob.searchMessages(SearchQuery.of("\"final wording\"").room(roomId)));
    assertEquals(m.id(), page.results().get(0).message().id());
    assertNull(page.nextCursor());
  }

  @Test
  void refusalsEndTheFuture() {
    assertEquals("bad_request", apiError(bob.searchMessages(SearchQuery.of("\" * -"))).code());
    String other = svc.createRoom("elsewhere", List.of("carol")).id();
    assertEquals("forbidden", apiError(bob.searchMessages(SearchQuery.of("x").room(other))).code());
    assertEquals("bad_request", apiError(bob.searchMessages(SearchQuery.of("x").after("forged"))).code());
  }
}
