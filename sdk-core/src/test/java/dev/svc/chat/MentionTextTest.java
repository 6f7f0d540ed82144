package dev.svc.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** {@link MentionText}: composer text to parts and mentions, and back for display. */
class MentionTextTest {
  private static final Map<String, String> NAMES = new LinkedHashMap<>();

  static {
    NAMES.put("amy", "Amy Pond");
    NAMES.put("bob", "Bob");
    NAMES.put("bobby", "Bobby Tables");
  }

  @Test
  void namesAndIdsBecomeIdTokensAndMentions() {
    MentionText m = MentionText.parse("@Amy Pond and @bob, see @bobby.", NAMES);
    assertEquals("@amy and @bob, see @bobby.", m.text());
    assertEquals(Arrays.asList("amy", "bob", "bobby"), m.mentions());
    assertEquals(Collections.singletonList(MessagePart.text("@amy and @bob, see @bobby.")), m.parts());
    assertEquals(m.mentions(), m.options().threadId("root").build().mentions());
  }

  @Test
  void unknownNamesEmailsAndPartialWordsStayText() {
    MentionText m = MentionText.parse("@carol mail bob@example.com or @bobcat @", NAMES);
    assertEquals("@carol mail bob@example.com or @bobcat @", m.text());
    assertTrue(m.mentions().isEmpty());
  }

  @Test
  void aMemberNamedTwiceIsMentionedOnce() {
    MentionText m = MentionText.parse("@bob @Bob @BOB", NAMES);
    assertEquals("@bob @bob @bob", m.text());
    assertEquals(Collections.singletonList("bob"), m.mentions());
  }

  @Test
  void pastTwentyMembersFurtherNamesStayText() {
    List<String> ids = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 21; i++) {
      ids.add("u" + (char) ('a' + i));
      text.append("@u").append((char) ('a' + i)).append(' ');
    }
    MentionText m = MentionText.parse(text.toString() + "@ua", ids);
    assertEquals(SendOptions.MAX_MENTIONS, m.mentions().size());
    assertEquals(ids.subList(0, 20), m.mentions());
    assertTrue(m.text().endsWith("@uu @ua"), "the 21st as typed, a repeat of the first still a token");
  }

  @Test
  void displayShowsNamesOfMentionedUsersOnly() {
    Message sent = Message.builder().id("m").roomId("r").senderId("amy").clientMessageId("c")
        .addPart(MessagePart.text("@amy ping @bob and @bobby"))
        .links(MessageLinks.builder().mentions(Arrays.asList("amy", "bobby")).build()).build();
    assertEquals("@Amy Pond ping @bob and @Bobby Tables", MentionText.display(sent, NAMES));
    assertEquals("@zed hi", MentionText.display("@zed hi", Collections.singletonList("zed"), NAMES),
        "a user without a name keeps the id");
    MentionText round = MentionText.parse("hi @Bobby Tables", NAMES);
    assertEquals("hi @Bobby Tables", MentionText.display(round.text(), round.mentions(), NAMES));
  }
}
