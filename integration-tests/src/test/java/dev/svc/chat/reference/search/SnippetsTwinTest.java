package dev.svc.chat.reference.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.chat.MessagePart;
import dev.svc.chat.internal.search.SearchRules;
import dev.svc.chat.internal.search.SearchSnippet;
import dev.svc.chat.reference.model.Message;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The SDK's offline snippets ({@link SearchSnippet}, Java 8) and the reference server's {@link Snippets} make the
 * same snippet of the same message for the same query, so a result reads alike online and offline. In this
 * package because {@link Snippets} is the server's package-private class.
 */
class SnippetsTwinTest {

  /** Words of many scripts, with accents, ligatures, digits, emoji and joiners, and the separators between them. */
  private static final String[] WORDS = {
      "hello", "Hello", "HELLO", "café", "Café", "cafe", "naïve", "Straße", "strasse", "ﬃ", "İstanbul", "ΣΊΣΥΦΟΣ",
      "σίσυφος", "שלום", "東京都", "한국어", "x1", "42", "deploy", "deployed", "Deployer", "e\u0301", "🙂", "👍🏽",
      "\u200F", "don't", "e-mail", "a_b", "x".repeat(40),
  };
  private static final String[] SEPARATORS = {" ", " ", " ", ", ", ". ", "\n", "\t", "—", "-", "/", "  "};
  private static final String[] QUERY_WORDS = {"hello", "cafe", "naive", "strasse", "istanbul", "σισυφος", "東京都",
      "x1", "42", "deploy", "e", "don", "mail", "a_b", "b", "zzz"};

  private static String text(Random random, int words) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < words; i++) {
      if (i > 0) text.append(SEPARATORS[random.nextInt(SEPARATORS.length)]);
      text.append(WORDS[random.nextInt(WORDS.length)]);
    }
    return text.toString();
  }

  private static String query(Random random) {
    StringBuilder q = new StringBuilder();
    int terms = 1 + random.nextInt(3);
    for (int i = 0; i < terms; i++) {
      if (i > 0) q.append(' ');
      switch (random.nextInt(4)) {
        case 0:
          q.append(QUERY_WORDS[random.nextInt(QUERY_WORDS.length)].substring(0, 1)).append('*');
          break;
        case 1:
          q.append('"').append(QUERY_WORDS[random.nextInt(QUERY_WORDS.length)]).append(' ')
              .append(QUERY_WORDS[random.nextInt(QUERY_WORDS.length)]).append('"');
          break;
        default:
          q.append(QUERY_WORDS[random.nextInt(QUERY_WORDS.length)]);
      }
    }
    return q.toString();
  }

  private static String server(List<String> texts, String q) {
    List<JsonNode> parts = new ArrayList<>();
    for (String text : texts) {
      parts.add(JsonNodeFactory.instance.objectNode().put("type", "text").put("text", text));
    }
    Message message = new Message("m", "r", 1, 1, "alice", parts, "c", Instant.EPOCH, null, null, Map.of());
    return Snippets.of(message, QueryParser.parse(q));
  }

  private static String sdk(List<String> texts, String q) {
    dev.svc.chat.Message.Builder message = dev.svc.chat.Message.builder().id("m").roomId("r").seq(1)
        .senderId("alice").clientMessageId("c").createdAt(0);
    for (String text : texts) {
      message.addPart(MessagePart.text(text));
    }
    return SearchSnippet.of(message.build(), SearchRules.parse(q));
  }

  @Test
  void bothMakeTheSameSnippets() {
    Random random = new Random(20261129);
    for (int n = 0; n < 5_000; n++) {
      List<String> texts = new ArrayList<>();
      int parts = 1 + random.nextInt(3);
      for (int i = 0; i < parts; i++) {
        // Mostly short parts, one in four past the 200 code points of a snippet's window.
        texts.add(text(random, random.nextInt(4) == 0 ? 40 + random.nextInt(120) : 1 + random.nextInt(12)));
      }
      String q = query(random);
      assertEquals(server(texts, q), sdk(texts, q), "«" + q + "» in " + texts);
    }
  }
}
