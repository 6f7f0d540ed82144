package dev.svc.chat.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API guard (build-tools/ApiDump.java) against a released API: a small library's version 1 is the baseline,
 * version 2 changes it. Binary-incompatible changes fail the check, additions pass and are listed.
 */
class ApiGuardTest {
  @TempDir static Path work;
  private static Method run;

  private static final String V1 = String.join("\n",
      "package lib;",
      "public class Greeter<T extends CharSequence> implements java.io.Serializable {",
      "  public static final String HELLO = \"hello\";",
      "  public Greeter() {}",
      "  public String greet(T name) { return HELLO + name; }",
      "  public java.util.List<String> names() { return null; }",
      "  public static Greeter<String> create() { return new Greeter<>(); }",
      "}");

  @BeforeAll
  static void compileTheGuard() throws Exception {
    Path root = Paths.get(System.getProperty("project.root", ".."));
    Path classes = Files.createDirectories(work.resolve("guard"));
    compile(classes, List.of(root.resolve("build-tools/ApiDump.java")));
    URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null);
    run = loader.loadClass("ApiDump").getDeclaredMethod("run", String[].class, PrintStream.class, PrintStream.class);
    run.setAccessible(true);
  }

  @Test
  void anAddedMethodPassesAndIsListed() throws Exception {
    Result r = check("added", V1.replace("  public Greeter() {}",
        "  public Greeter() {}\n  public String farewell(T name) { return \"bye\"; }"));
    assertEquals(0, r.status, r.output);
    assertTrue(r.output.contains("1 addition(s)") && r.output.contains("+ lib.Greeter: public java.lang.String farewell(T)"),
        r.output);
  }

  @Test
  void aRemovedPublicMethodFails() throws Exception {
    Result r = check("removed", V1.replace("  public java.util.List<String> names() { return null; }\n", ""));
    assertEquals(1, r.status, r.output);
    assertTrue(r.output.contains("lib.Greeter: removed public java.util.List<java.lang.String> names()"), r.output);
  }

  @Test
  void incompatibleChangesFailEachWithItsReason() throws Exception {
    Map<String, String> changes = Map.of(
        "return type java.util.Collection", V1.replace("public java.util.List<String> names()", "public java.util.Collection<String> names()"),
        "static changed", V1.replace("public static Greeter<String> create()", "public Greeter<String> create()"),
        "became final", V1.replace("public class Greeter", "public final class Greeter"),
        "no longer implements java.io.Serializable", V1.replace(" implements java.io.Serializable", ""),
        "removed public lib.Greeter()", V1.replace("public Greeter() {}", "public Greeter(int x) {}")
            .replace("new Greeter<>()", "new Greeter<>(1)"),
        "greet(T) -> return type java.lang.CharSequence", V1.replace("public String greet(T name) { return HELLO + name; }",
            "public CharSequence greet(T name) { return name; }"));
    for (Map.Entry<String, String> change : changes.entrySet()) {
      Result r = check("break" + Math.abs(change.getKey().hashCode()), change.getValue());
      assertEquals(1, r.status, change.getKey() + ":\n" + r.output);
      assertTrue(r.output.contains(change.getKey()), change.getKey() + ":\n" + r.output);
    }
  }

  @Test
  void compatibleChangesPass() throws Exception {
    Map<String, String> changes = Map.of(
        "generic argument only", V1.replace("public java.util.List<String> names()", "public java.util.List<Object> names()"),
        "a new supertype between", V1.replace("public class Greeter<T extends CharSequence> implements java.io.Serializable",
            "public class Greeter<T extends CharSequence> extends Base implements java.io.Serializable")
            + "\nclass Base {}",
        "a method pulled up", V1.replace("public class Greeter<T extends CharSequence> implements java.io.Serializable {",
            "public class Greeter<T extends CharSequence> extends Named implements java.io.Serializable {")
            .replace("  public java.util.List<String> names() { return null; }\n", "")
            + "\nclass Named { public java.util.List<String> names() { return null; } }",
        "wider visibility, throws added", V1.replace("public static Greeter<String> create()",
            "public static Greeter<String> create() throws IllegalStateException"));
    for (Map.Entry<String, String> change : changes.entrySet()) {
      Result r = check("ok" + Math.abs(change.getKey().hashCode()), change.getValue());
      assertEquals(0, r.status, change.getKey() + ":\n" + r.output);
    }
  }

  record Result(int status, String output) {}

  /** Writes the baseline from V1, then checks the changed source against it. */
  private static Result check(String name, String changed) throws Exception {
    Path dir = Files.createDirectories(work.resolve(name));
    Path baseline = dir.resolve("api/lib.api");
    assertEquals(0, guard("update", build(dir.resolve("v1"), V1), baseline).status);
    return guard("check", build(dir.resolve("v2"), changed), baseline);
  }

  private static Result guard(String mode, Path classes, Path api) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    int status = (int) run.invoke(null, new String[] {mode, classes.toString(), api.toString(), "lib"}, print, print);
    return new Result(status, out.toString(StandardCharsets.UTF_8));
  }

  /** Compiles one source of package lib (its package-private helper classes included) into dir/classes. */
  private static Path build(Path dir, String source) throws IOException {
    Path src = Files.createDirectories(dir.resolve("src/lib")).resolve("Greeter.java");
    Files.write(src, source.getBytes(StandardCharsets.UTF_8));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    compile(classes, List.of(src));
    return classes;
  }

  private static void compile(Path classes, List<Path> sources) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> args = new ArrayList<>(List.of("-proc:none", "-Xlint:none", "-d", classes.toString()));
    sources.forEach(s -> args.add(s.toString()));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = javac.run(null, null, err, args.toArray(new String[0]));
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
  }
}
