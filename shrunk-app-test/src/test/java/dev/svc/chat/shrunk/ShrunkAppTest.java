package dev.svc.chat.shrunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.chat.ChatClient;
import dev.svc.chat.EventType;
import dev.svc.chat.Svc;
import dev.svc.chat.reference.ReferenceServer;
import dev.svc.chat.server.MintedToken;
import dev.svc.chat.server.ServerClient;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import proguard.Configuration;
import proguard.ConfigurationParser;
import proguard.ProGuard;

/**
 * Shrinks {@link ChatApp} and every jar it ships with ProGuard, optimisation on, keeping nothing but its
 * {@code main}: the only other rules are the ones the jars ship in {@code META-INF/proguard/} (what R8 reads
 * from an Android app's dependencies), and the JDK stands in for {@code android.jar}. The shrunk jar then
 * chats with the reference server in a child JVM.
 *
 * <p>ProGuard's default optimisations break Okio ({@code VerifyError: Bad return type}); an OkHttp-only app
 * breaks the same way. The line that avoids it belongs in the app's ProGuard configuration, which
 * docs/android.md gives, not in the SDK's consumer rules: R8 ignores {@code -optimizations}, and in ProGuard a
 * library's {@code -optimizations} would change the optimisation of the whole app. Both runs are here: with the
 * documented line the app chats; with the shipped rules alone it fails to verify, which is why the docs carry it.
 */
class ShrunkAppTest {
  /** The line docs/android.md tells ProGuard users to add. */
  static final String RETURN_TYPE_LINE = "-optimizations !method/specialization/returntype";
  /** Kotlin metadata that only the Kotlin compiler reads: about 450 KB uncompressed if kept. */
  static final String KOTLIN_METADATA_FILTER = "!META-INF/*.kotlin_module,!**.kotlin_builtins,!**.kotlin_metadata";
  private static final Pattern KOTLIN_METADATA = Pattern.compile(
      "META-INF/[^/]*\\.kotlin_module|.*\\.kotlin_builtins|.*\\.kotlin_metadata");

  private static Path shrinkDir;
  private static Path appClasses;
  private static List<Path> appJars;
  private static List<Path> shippedRules;

  @BeforeAll
  static void extractTheShippedRules() throws IOException {
    shrinkDir = Paths.get(System.getProperty("shrink.dir"));
    appClasses = Paths.get(System.getProperty("app.classes"));
    String classpath = new String(Files.readAllBytes(Paths.get(System.getProperty("app.classpath.file"))),
        StandardCharsets.UTF_8).trim();
    appJars = Arrays.stream(classpath.split(File.pathSeparator)).map(Paths::get).collect(Collectors.toList());
    Path rulesDir = Files.createDirectories(shrinkDir.resolve("shipped-rules"));
    shippedRules = new ArrayList<>();
    for (Path entry : appJars) {
      shippedRules.addAll(copyRules(entry, rulesDir));
    }
  }

  /** Copies the {@code META-INF/proguard/*.pro} files of a jar (or of a reactor module's classes directory). */
  private static List<Path> copyRules(Path entry, Path rulesDir) throws IOException {
    List<Path> copied = new ArrayList<>();
    if (Files.isDirectory(entry)) {
      Path dir = entry.resolve("META-INF/proguard");
      if (!Files.isDirectory(dir)) return copied;
      try (Stream<Path> files = Files.list(dir)) {
        for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".pro"))::iterator) {
          Path target = rulesDir.resolve(p.getFileName().toString());
          Files.copy(p, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          copied.add(target);
        }
      }
      return copied;
    }
    try (ZipFile zip = new ZipFile(entry.toFile())) {
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        ZipEntry z = e.nextElement();
        if (z.getName().startsWith("META-INF/proguard/") && z.getName().endsWith(".pro")) {
          Path target = rulesDir.resolve(z.getName().substring("META-INF/proguard/".length()));
          try (InputStream in = zip.getInputStream(z)) {
            Files.copy(in, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          }
          copied.add(target);
        }
      }
    }
    return copied;
  }

  @Test
  void theShrunkAppWithTheDocumentedLineChatsWithTheReferenceServer() throws Exception {
    String docs = new String(Files.readAllBytes(Paths.get(System.getProperty("docs.dir"), "android.md")),
        StandardCharsets.UTF_8);
    assertTrue(docs.contains(RETURN_TYPE_LINE), "docs/android.md gives ProGuard users the line");
    assertTrue(docs.contains(KOTLIN_METADATA_FILTER), "docs/android.md gives ProGuard users the Kotlin metadata filter");
    for (Path rules : shippedRules) {
      assertFalse(new String(Files.readAllBytes(rules), StandardCharsets.UTF_8).contains("-optimizations"),
          rules + " changes the app's optimisations");
    }

    Path jar = shrink("documented", RETURN_TYPE_LINE);
    String out = runAgainstReferenceServer(jar);
    assertTrue(out.contains("ready as alice"), out);
    assertTrue(out.contains("received from bob: hello back"), out);
    assertTrue(out.endsWith("closed\n"), out);
    report(jar);
  }

  @Test
  void withTheShippedRulesAloneProGuardsDefaultOptimisationsBreakOkio() throws Exception {
    Path jar = shrink("default-optimisations", "");
    String out = runAgainstReferenceServer(jar);
    assertTrue(out.contains("crashed in ") && out.contains("java.lang.VerifyError: Bad return type"), out);
  }

  /** Runs ProGuard on the app and its jars with the shipped rules and {@code extraRules}; returns the jar. */
  private static Path shrink(String name, String extraRules) throws Exception {
    Path out = shrinkDir.resolve(name + ".jar");
    Files.deleteIfExists(out);
    String javaHome = System.getProperty("java.home");
    StringBuilder config = new StringBuilder();
    config.append("-injars '").append(appClasses).append("'\n");
    for (Path jar : appJars) {
      config.append("-injars '").append(jar).append("'(").append(KOTLIN_METADATA_FILTER)
          .append(",!META-INF/versions/**,!**module-info.class,!META-INF/MANIFEST.MF,!META-INF/proguard/**)\n");
    }
    config.append("-outjars '").append(out).append("'\n");
    for (String module : new String[] {"java.base", "java.logging"}) {
      config.append("-libraryjars '").append(javaHome).append("/jmods/").append(module)
          .append(".jmod'(!**.jar;!module-info.class)\n");
    }
    for (Path rules : shippedRules) {
      config.append("-include '").append(rules).append("'\n");
    }
    // the app's own rule: its entry point (an Android app's come from its manifest)
    config.append("-keep public class dev.svc.chat.shrunk.ChatApp { public static void main(java.lang.String[]); }\n");
    config.append("-dontnote\n"); // ProGuard's notes on the libraries' reflection would fill the build log
    config.append(extraRules).append('\n');
    Path configFile = shrinkDir.resolve(name + ".pro");
    Files.write(configFile, config.toString().getBytes(StandardCharsets.UTF_8));

    Configuration configuration = new Configuration();
    try (ConfigurationParser parser = new ConfigurationParser(configFile.toFile(), System.getProperties())) {
      parser.parse(configuration);
    }
    assertTrue(configuration.optimize, "optimisation is on");
    new ProGuard(configuration).execute();
    return out;
  }

  /** Starts a reference server and bob, who answers alice; runs the shrunk app as alice; returns its output. */
  private static String runAgainstReferenceServer(Path jar) throws Exception {
    OkHttpClient http = new OkHttpClient();
    try (ReferenceServer server = ReferenceServer.builder().port(0).build().start()) {
      ServerClient admin = ServerClient.builder(server.apiUrl(), server.apiKey()).okHttpClient(http).build();
      String room = admin.createRoom("shrunk", List.of("alice", "bob")).id();
      MintedToken alice = admin.mintToken("alice");
      try (ChatClient bob = Svc.init(server.apiUrl())) {
        bob.on(EventType.NEW_MESSAGE, m -> {
          if (m.senderId().equals("alice")) bob.sendText(room, "hello back");
        });
        bob.connect("bob", admin.mintToken("bob").token()).get(10, TimeUnit.SECONDS);

        Path output = shrinkDir.resolve(jar.getFileName() + ".out");
        Process app = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", jar.toString(), ChatApp.class.getName(), server.apiUrl(), "alice", alice.token(),
            Long.toString(alice.expiresAtMillis()), room)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
        try {
          assertTrue(app.waitFor(60, TimeUnit.SECONDS), "the shrunk app still runs after 60 s");
        } finally {
          app.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        return new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
      }
    } finally {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
  }

  /** Prints and checks the sizes: the shrunk jar, and the Kotlin metadata its inputs carry. */
  private static void report(Path jar) throws IOException {
    long shrunk = Files.size(jar);
    long inputs = Files.walk(appClasses).filter(Files::isRegularFile).mapToLong(ShrunkAppTest::size).sum();
    long metadataCompressed = 0;
    long metadataRaw = 0;
    for (Path p : appJars) {
      inputs += size(p);
      if (Files.isDirectory(p)) continue;
      try (ZipFile zip = new ZipFile(p.toFile())) {
        for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
          ZipEntry z = e.nextElement();
          if (KOTLIN_METADATA.matcher(z.getName()).matches()) {
            metadataCompressed += z.getCompressedSize();
            metadataRaw += z.getSize();
          }
        }
      }
    }
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      assertEquals(0, zip.stream().filter(z -> KOTLIN_METADATA.matcher(z.getName()).matches()).count());
    }
    String line = String.format("shrunk app: %d bytes compressed (inputs: %d bytes); Kotlin metadata dropped: "
        + "%d bytes compressed, %d uncompressed", shrunk, inputs, metadataCompressed, metadataRaw);
    System.out.println(line);
    Files.write(shrinkDir.resolve("sizes.txt"), (line + "\n").getBytes(StandardCharsets.UTF_8));
    // about 715 KB when this bound was set: a jump well past the SDK's own growth means something stopped being
    // shrunk
    assertTrue(shrunk < 760_000, line);
  }

  private static long size(Path p) {
    try {
      if (!Files.isDirectory(p)) return Files.size(p);
      try (Stream<Path> files = Files.walk(p)) {
        return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
