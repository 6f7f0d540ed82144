package dev.svc.chat.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiles every Java snippet of the README, docs/*.md and docs/internals/*.md against the published artifacts,
 * so that what the documents show works as written. A snippet of statements becomes a method's body, a snippet of classes
 * member classes (those of one document in one class), in a class that extends {@link SnippetContext} (the names the documents leave to the reader's
 * app: {@code client}, {@code roomId}, {@code show(m)} ...). A snippet preceded by the line
 * {@code <!-- snippet: no-compile: why -->} is left out.
 */
class DocSnippetsCompileTest {
  /** The line before a snippet that is not meant to compile: {@code <!-- snippet: no-compile: the reason -->}. */
  static final String SKIP_MARKER = "<!-- snippet: no-compile";

  private static final String IMPORTS = String.join("\n",
      "import dev.svc.chat.*;",
      "import dev.svc.chat.Call;",
      "import dev.svc.chat.Message;",
      "import dev.svc.chat.server.*;",
      "import dev.svc.chat.session.*;",
      "import dev.svc.chat.slf4j.*;",
      "import dev.svc.chat.store.sqlite.*;",
      "import dev.svc.chat.transport.jdk.*;",
      "import dev.svc.chat.android.*;",
      "import dev.svc.chat.reference.*;",
      "import dev.svc.chat.testkit.*;",
      "import java.io.File;",
      "import java.time.Duration;",
      "import java.util.*;",
      "import java.util.concurrent.*;",
      "import okhttp3.CookieJar;",
      "import okhttp3.OkHttpClient;",
      "import org.junit.jupiter.api.Test;",
      "import org.junit.jupiter.api.extension.RegisterExtension;",
      "import android.app.Application;",
      "import android.os.Bundle;",
      "import androidx.appcompat.app.AppCompatActivity;",
      "import androidx.lifecycle.*;",
      "import org.jspecify.annotations.Nullable;",
      "");

  /** A snippet of a document: where it starts and its text. */
  record Snippet(String document, int line, String code) {
    /** Returns whether the snippet declares classes (else it is statements). */
    boolean declaresClasses() {
      return code.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("//"))
          .findFirst().map(l -> l.matches("(public |final |abstract )*(class|interface|record|enum) .*|@.*"))
          .orElse(false);
    }

    /** Returns the snippet as a member of the wrapper class: statements in a method, classes as they are. */
    String member() {
      String body = declaresClasses() ? code : "void snippet() throws Exception {\n" + code + "}\n";
      return "// " + document + ", line " + line + "\n" + body;
    }
  }

  /**
   * Returns the compilation units: each snippet of statements in a class of its own, the snippets of classes
   * of one document together in one class (a document's later snippet uses the classes of an earlier one).
   */
  static Map<String, String> units(List<Snippet> snippets) {
    Map<String, StringBuilder> members = new LinkedHashMap<>();
    for (Snippet s : snippets) {
      String name = "Snippet_" + s.document().replaceAll("[^A-Za-z0-9]", "_")
          + (s.declaresClasses() ? "_classes" : "_" + s.line());
      members.computeIfAbsent(name, n -> new StringBuilder()).append(s.member());
    }
    Map<String, String> units = new LinkedHashMap<>();
    members.forEach((name, body) -> units.put(name, "package snippets;\n" + IMPORTS
        + "abstract class " + name + " extends dev.svc.chat.release.SnippetContext {\n" + body + "}\n"));
    return units;
  }

  static List<Snippet> snippets(Path root) throws IOException {
    List<Path> documents = new ArrayList<>();
    documents.add(root.resolve("README.md"));
    try (Stream<Path> docs = Stream.concat(Files.list(root.resolve("docs")),
        Files.list(root.resolve("docs/internals")))) {
      documents.addAll(docs.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
    }
    List<Snippet> snippets = new ArrayList<>();
    for (Path document : documents) {
      List<String> lines = Files.readAllLines(document, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (!lines.get(i).trim().equals("```java")) continue;
        boolean skip = i > 0 && lines.get(i - 1).trim().startsWith(SKIP_MARKER);
        int start = i + 1;
        StringBuilder code = new StringBuilder();
        for (i = start; i < lines.size() && !lines.get(i).trim().equals("```"); i++) {
          code.append(lines.get(i)).append('\n');
        }
        if (!skip) snippets.add(new Snippet(root.relativize(document).toString(), start + 1, code.toString()));
      }
    }
    return snippets;
  }

  @Test
  void everyJavaSnippetOfTheDocumentsCompiles(@TempDir Path out) throws IOException {
    Path root = Paths.get(System.getProperty("project.root", ".."));
    List<Snippet> snippets = snippets(root);
    assertTrue(snippets.size() >= 10, "found only " + snippets.size() + " Java snippets: is the extraction broken?");

    Path sources = Files.createDirectories(out.resolve("snippets"));
    List<Path> files = new ArrayList<>();
    for (Map.Entry<String, String> unit : units(snippets).entrySet()) {
      Path file = sources.resolve(unit.getKey() + ".java");
      Files.write(file, unit.getValue().getBytes(StandardCharsets.UTF_8));
      files.add(file);
    }
    try (Stream<Path> stubs = Files.walk(Paths.get("src/test/snippet-stubs"))) {
      stubs.filter(p -> p.toString().endsWith(".java")).forEach(files::add);
    }

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter errors = new StringWriter();
    try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      Iterable<? extends JavaFileObject> units = fm.getJavaFileObjectsFromPaths(files);
      List<String> options = List.of("-proc:none", "-Xlint:none", "-d", out.resolve("classes").toString(),
          "-classpath", System.getProperty("java.class.path"));
      boolean ok = javac.getTask(errors, fm, null, options, null, units).call();
      assertEquals("", ok ? "" : errors.toString(), "the documents' Java snippets do not compile (" + sources + ")");
    }
  }
}
