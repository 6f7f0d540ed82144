import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The API guard of the SDK modules (run by the build, see the parent pom's {@code api-guard} profile): dumps the
 * public and protected signatures of the compiled classes outside {@code internal} packages with {@code javap},
 * and compares them with the module's checked-in {@code api/<artifactId>.api}.
 *
 * <pre>
 * java build-tools/ApiDump.java check  target/classes api/svc-chat-sdk-core.api svc-chat-sdk-core
 * java build-tools/ApiDump.java update target/classes api/svc-chat-sdk-core.api svc-chat-sdk-core
 * </pre>
 */
public final class ApiDump {
  public static void main(String[] args) throws IOException {
    if (args.length != 4 || !(args[0].equals("check") || args[0].equals("update"))) {
      System.err.println("usage: ApiDump check|update <classes dir> <api file> <module>");
      System.exit(2);
    }
    Path classes = Paths.get(args[1]);
    Path apiFile = Paths.get(args[2]);
    String module = args[3];
    String actual = dump(classes);
    if (args[0].equals("update")) {
      Files.createDirectories(apiFile.toAbsolutePath().getParent());
      Files.write(apiFile, actual.getBytes(StandardCharsets.UTF_8));
      System.out.println("[api-guard] wrote " + apiFile);
      return;
    }
    String expected = Files.exists(apiFile) ? new String(Files.readAllBytes(apiFile), StandardCharsets.UTF_8) : "";
    if (expected.equals(actual)) return;
    Set<String> was = new LinkedHashSet<>(List.of(expected.split("\n")));
    Set<String> now = new LinkedHashSet<>(List.of(actual.split("\n")));
    StringBuilder diff = new StringBuilder();
    for (String line : was) if (!now.contains(line)) diff.append("  - ").append(line.trim()).append('\n');
    for (String line : now) if (!was.contains(line)) diff.append("  + ").append(line.trim()).append('\n');
    System.err.println("[api-guard] The public API of " + module + " differs from " + apiFile + ":\n" + diff
        + "[api-guard] If the change is intended, update the file and commit it:  mvn -o -pl :" + module
        + " -am process-classes -Dapi.update");
    System.exit(1);
  }

  /** Returns the API of the classes: one block per public type, in name order. */
  static String dump(Path classes) throws IOException {
    List<String> files;
    try (Stream<Path> walk = Files.walk(classes)) {
      files = walk.filter(p -> p.toString().endsWith(".class"))
          .filter(p -> !classes.relativize(p).toString().replace('\\', '/').matches("(.*/)?internal/.*"))
          .filter(p -> !p.getFileName().toString().matches("(module|package)-info\\.class"))
          .map(Path::toString).sorted().collect(Collectors.toList());
    }
    if (files.isEmpty()) return "";
    ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow(() -> new IllegalStateException("no javap"));
    List<String> args = new ArrayList<>(List.of("-protected"));
    args.addAll(files);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = javap.run(new PrintWriter(out), new PrintWriter(err), args.toArray(new String[0]));
    if (status != 0) throw new IllegalStateException("javap failed: " + err);
    TreeMap<String, String> types = new TreeMap<>();
    StringBuilder block = null;
    String header = null;
    for (String line : out.toString().split("\\R")) {
      if (line.startsWith("Compiled from")) continue;
      // how a method locks is no part of its signature
      line = line.replace(" synchronized ", " ");
      if (block == null) {
        header = line;
        block = new StringBuilder(line).append('\n');
      } else {
        block.append(line).append('\n');
      }
      if (line.equals("}")) {
        if (header.matches("(public|protected) .*")) types.put(typeName(header), block.toString());
        block = null;
      }
    }
    return String.join("\n", types.values());
  }

  private static String typeName(String header) {
    for (String word : header.split("[ <{]")) if (word.contains(".")) return word;
    return header;
  }
}
