package dev.svc.chat.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Checks that the README and every page under docs/ point only at what exists in the repository: each relative
 * Markdown link names a file that exists (and, with {@code #anchor}, a heading of it), no link leaves the
 * repository, and each section named in the text ({@code docs/server.md, "Send pacing"}) is a heading of that page.
 */
class DocLinksTest {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern SECTION_REF =
      Pattern.compile("`?((?:\\.\\./|docs/)?(?:internals/)?[\\w-]+\\.md)`?\\)?,\\s+\"([^\"]+)\"");
  private static final Pattern HEADING = Pattern.compile("#{1,6}\\s+(.*)");
  private static final Pattern FENCE = Pattern.compile("(?s)```.*?```");

  /** Returns the documents checked: the README and every Markdown page under docs/, relative to the root. */
  static List<Path> documents(Path root) throws IOException {
    List<Path> documents = new ArrayList<>();
    documents.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      documents.addAll(docs.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
    }
    return documents;
  }

  /** Returns the GitHub anchor of a heading's text: lower case, punctuation dropped, spaces as hyphens. */
  static String anchor(String heading) {
    return heading.trim().toLowerCase(Locale.ROOT).replace("`", "")
        .replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
  }

  /** Returns the headings of a page outside code fences, as text without backticks. */
  static List<String> headings(Path page) throws IOException {
    List<String> headings = new ArrayList<>();
    boolean fence = false;
    for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
      if (line.startsWith("```")) fence = !fence;
      Matcher m = HEADING.matcher(line);
      if (!fence && m.matches()) headings.add(m.group(1).trim());
    }
    return headings;
  }

  /** Returns the anchors of a page's headings, a repeated one numbered as GitHub does ({@code -1}, {@code -2}). */
  static List<String> anchors(Path page) throws IOException {
    Map<String, Integer> seen = new HashMap<>();
    List<String> anchors = new ArrayList<>();
    for (String heading : headings(page)) {
      String a = anchor(heading);
      int n = seen.merge(a, 1, Integer::sum) - 1;
      anchors.add(n == 0 ? a : a + "-" + n);
    }
    return anchors;
  }

  /** Returns the problems of one document: each a line naming the document and what does not resolve. */
  static List<String> problems(Path root, Path document) throws IOException {
    List<String> problems = new ArrayList<>();
    String name = root.relativize(document).toString();
    String text = FENCE.matcher(new String(Files.readAllBytes(document), StandardCharsets.UTF_8)).replaceAll("");
    Matcher link = LINK.matcher(text);
    while (link.find()) {
      String target = link.group(1);
      if (target.matches("[a-zA-Z][a-zA-Z+.-]*:.*")) {
        problems.add(name + ": a link outside the repository: " + target);
        continue;
      }
      int hash = target.indexOf('#');
      String file = hash < 0 ? target : target.substring(0, hash);
      Path resolved = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
      if (!resolved.startsWith(root) || !Files.exists(resolved)) {
        problems.add(name + ": no such file: " + target);
      } else if (hash >= 0 && resolved.toString().endsWith(".md")
          && !anchors(resolved).contains(target.substring(hash + 1))) {
        problems.add(name + ": no such heading: " + target);
      }
    }
    Matcher ref = SECTION_REF.matcher(text);
    while (ref.find()) {
      String file = ref.group(1);
      String section = ref.group(2).toLowerCase(Locale.ROOT);
      Path resolved = Stream.of(document.getParent().resolve(file), root.resolve(file), root.resolve("docs").resolve(file))
          .map(Path::normalize).filter(Files::exists).findFirst().orElse(null);
      if (resolved == null) {
        problems.add(name + ": a section of a page that does not exist: " + ref.group());
        continue;
      }
      boolean found = headings(resolved).stream().map(h -> h.replace("`", "").toLowerCase(Locale.ROOT))
          .anyMatch(h -> h.startsWith(section.replace("`", "")));
      if (!found) problems.add(name + ": no heading \"" + ref.group(2) + "\" in " + root.relativize(resolved));
    }
    return problems;
  }

  @Test
  void everyLinkAndSectionReferenceOfTheDocumentsResolves() throws IOException {
    Path root = Paths.get(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    List<Path> documents = documents(root);
    assertTrue(documents.size() >= 10, "found only " + documents.size() + " documents: is the listing broken?");
    List<String> problems = new ArrayList<>();
    for (Path document : documents) problems.addAll(problems(root, document));
    assertEquals("", String.join("\n", problems), "links or section references that do not resolve");
  }

  @Test
  void anchorsAreGitHubs() {
    assertEquals("the-server-sdk-svc-chat-server-sdk-package-devsvcchatserver-tenant-backends-and-bots-only",
        anchor("The server SDK (`svc-chat-server-sdk`, package `dev.svc.chat.server`, tenant backends and bots only)"));
    assertEquals("limits-counted-in-unicode-code-points-unless-noted",
        anchor("Limits (counted in Unicode code points unless noted)"));
  }
}
