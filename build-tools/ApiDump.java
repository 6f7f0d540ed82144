import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The API guard of the published modules (run by the build, see the parent pom's {@code sdk-publishing} profile).
 *
 * <p>{@code api/<artifactId>.api} is the module's released API: the public and protected signatures outside
 * {@code internal} packages, as {@code javap -protected} prints them, of the last release. {@code check} compares
 * the compiled classes with it and fails on binary-incompatible changes only (a type, method, field or constructor
 * removed, a changed return or field type, static changed, less visible, a class or method made final or
 * abstract, a supertype lost); additions and changes of generic type arguments alone are listed, not refused.
 * The current API is written to {@code target/api/<artifactId>.api} either way. {@code update} writes the current
 * API as the baseline: at a release, or when a break is accepted on purpose.
 *
 * <pre>
 * java build-tools/ApiDump.java check  target/classes api/svc-chat-sdk-core.api svc-chat-sdk-core
 * java build-tools/ApiDump.java update target/classes api/svc-chat-sdk-core.api svc-chat-sdk-core
 * </pre>
 */
public final class ApiDump {
  private static final Set<String> PRIMITIVES =
      Set.of("boolean", "byte", "char", "short", "int", "long", "float", "double", "void");

  public static void main(String[] args) throws IOException {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the guard; returns the exit status (0: compatible or updated, 1: incompatible, 2: usage). */
  static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    if (args.length != 4 || !(args[0].equals("check") || args[0].equals("update"))) {
      err.println("usage: ApiDump check|update <classes dir> <api file> <module>");
      return 2;
    }
    Path classes = Paths.get(args[1]);
    Path apiFile = Paths.get(args[2]);
    String module = args[3];
    String actual = dump(classes);
    if (args[0].equals("update")) {
      write(apiFile, actual);
      out.println("[api-guard] wrote " + apiFile);
      return 0;
    }
    Path current = classes.toAbsolutePath().getParent().resolve("api").resolve(apiFile.getFileName());
    write(current, actual);
    String baseline = Files.exists(apiFile) ? new String(Files.readAllBytes(apiFile), StandardCharsets.UTF_8) : "";
    Report report = compare(parse(baseline), parse(actual));
    if (!report.breaks.isEmpty()) {
      err.println("[api-guard] " + module + ": " + report.breaks.size() + " binary-incompatible change(s) against its"
          + " released API " + apiFile + ":\n" + lines("  - ", report.breaks)
          + "[api-guard] Users built against the last release would fail at run time. Keep the old signatures"
          + " (deprecate them), or accept the break on purpose (before 1.0, or in a major release) and commit the"
          + " new baseline:  mvn -o -pl :" + module + " -am process-classes -Dapi.update");
      if (!report.additions.isEmpty()) err.println("[api-guard] and additions:\n" + lines("  + ", report.additions).stripTrailing());
      return 1;
    }
    if (!report.additions.isEmpty()) {
      out.println("[api-guard] " + module + ": compatible with " + apiFile + "; " + report.additions.size()
          + " addition(s) since (the current API: " + current + "):\n" + lines("  + ", report.additions).stripTrailing());
    }
    return 0;
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  private static String lines(String prefix, List<String> items) {
    StringBuilder b = new StringBuilder();
    for (String item : items) b.append(prefix).append(item).append('\n');
    return b.toString();
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

  // ---- the comparison: the dump parsed into types and members, compared by erasure as the JVM links them

  /** A public or protected type of the dump. */
  static final class Type {
    String name;
    String kind;                      // class, interface
    Set<String> modifiers = new LinkedHashSet<>();
    String superclass = "java.lang.Object";
    Set<String> interfaces = new LinkedHashSet<>();
    String line;
    /** The erasure of each of the type's type variables. */
    Map<String, String> typeVars = new HashMap<>();
    /** Members by their linkage key: a method's name and erased parameters, a field's name. */
    Map<String, Member> members = new LinkedHashMap<>();
  }

  /** A method, constructor or field: its erased type and modifiers, and the line as the dump has it. */
  static final class Member {
    String key;
    String type;                      // erased return or field type; "" for a constructor
    Set<String> modifiers = new LinkedHashSet<>();
    String line;
  }

  static final class Report {
    final List<String> breaks = new ArrayList<>();
    final List<String> additions = new ArrayList<>();
  }

  static Map<String, Type> parse(String dump) {
    Map<String, Type> types = new LinkedHashMap<>();
    Type type = null;
    for (String raw : dump.split("\\R")) {
      String line = raw.trim();
      if (line.isEmpty()) continue;
      if (type == null) {
        type = parseHeader(line);
      } else if (line.equals("}")) {
        types.put(type.name, type);
        type = null;
      } else if (!line.startsWith("static {}")) {
        Member m = parseMember(line, type);
        type.members.put(m.key, m);
      }
    }
    return types;
  }

  private static Type parseHeader(String line) {
    Type t = new Type();
    t.line = line.replaceAll("\\s*\\{$", "");
    String rest = t.line.replaceAll(" permits .*$", "");
    Map<String, String> typeVars = t.typeVars;
    List<String> words = splitTopLevel(rest, ' ');
    int i = 0;
    while (i < words.size() && !words.get(i).equals("class") && !words.get(i).equals("interface")) {
      t.modifiers.add(words.get(i++));
    }
    t.kind = words.get(i++);
    String name = words.get(i++);
    int lt = name.indexOf('<');
    if (lt >= 0) {
      typeVars.putAll(typeParameters(name.substring(lt)));
      name = name.substring(0, lt);
    }
    t.name = name;
    String mode = "";
    for (; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("extends") || w.equals("implements")) {
        mode = w;
        continue;
      }
      for (String part : splitTopLevel(w, ',')) {
        if (part.isEmpty()) continue;
        String erased = erase(part, typeVars);
        if (mode.equals("extends") && t.kind.equals("class")) t.superclass = erased;
        else t.interfaces.add(erased);
      }
    }
    return t;
  }

  private static Member parseMember(String line, Type owner) {
    Member m = new Member();
    m.line = line.replaceAll(";$", "");
    String sig = m.line.replaceAll("\\) throws .*$", ")");
    Map<String, String> typeVars = new HashMap<>(owner.typeVars);
    int paren = sig.indexOf('(');
    String head = paren < 0 ? sig : sig.substring(0, paren);
    List<String> words = splitTopLevel(head, ' ');
    int i = 0;
    while (i < words.size() - 1 && isModifier(words.get(i))) m.modifiers.add(words.get(i++));
    if (words.get(i).startsWith("<")) typeVars.putAll(typeParameters(words.get(i++)));
    if (paren < 0) {
      m.type = erase(words.get(i), typeVars);
      m.key = "field " + words.get(i + 1);
      return m;
    }
    String name;
    if (i == words.size() - 1) {
      name = "<init>";                       // a constructor: the type's name, no return type
      m.type = "";
    } else {
      m.type = erase(words.get(i), typeVars);
      name = words.get(i + 1);
    }
    List<String> params = new ArrayList<>();
    for (String p : splitTopLevel(sig.substring(paren + 1, sig.lastIndexOf(')')), ',')) {
      if (!p.isBlank()) params.add(erase(p.trim(), typeVars));
    }
    m.key = name + "(" + String.join(", ", params) + ")";
    return m;
  }

  private static boolean isModifier(String word) {
    return Set.of("public", "protected", "static", "final", "abstract", "default", "native", "transient",
        "volatile", "strictfp").contains(word);
  }

  /** Returns the erasure of each type variable of a {@code <T extends A, U>} list. */
  private static Map<String, String> typeParameters(String list) {
    Map<String, String> vars = new HashMap<>();
    for (String p : splitTopLevel(list.substring(1, list.length() - 1), ',')) {
      String[] parts = p.trim().split(" extends ", 2);
      String bound = parts.length > 1 ? splitTopLevel(parts[1], '&').get(0).trim() : "java.lang.Object";
      vars.put(parts[0].trim(), bound);
    }
    // a variable bounded by another variable: resolve the chain
    for (Map.Entry<String, String> e : vars.entrySet()) e.setValue(erase(e.getValue(), vars));
    return vars;
  }

  /** Returns a type's erasure: no type arguments, varargs as an array, a type variable as its bound. */
  static String erase(String type, Map<String, String> typeVars) {
    String t = type.trim().replace("...", "[]");
    StringBuilder b = new StringBuilder();
    int depth = 0;
    for (char c : t.toCharArray()) {
      if (c == '<') depth++;
      else if (c == '>') depth--;
      else if (depth == 0) b.append(c);
    }
    String erased = b.toString().trim();
    int dims = erased.indexOf('[');
    String base = dims < 0 ? erased : erased.substring(0, dims);
    String suffix = dims < 0 ? "" : erased.substring(dims);
    if (!base.contains(".") && !PRIMITIVES.contains(base)) {
      base = typeVars.getOrDefault(base, "java.lang.Object");   // javap names classes in full: this is a variable
    }
    return base + suffix;
  }

  /** Splits at the separator outside angle brackets. */
  private static List<String> splitTopLevel(String s, char separator) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '<') depth++;
      if (c == '>') depth--;
      if (c == separator && depth == 0) {
        parts.add(b.toString().trim());
        b.setLength(0);
      } else {
        b.append(c);
      }
    }
    if (b.length() > 0) parts.add(b.toString().trim());
    parts.removeIf(String::isEmpty);
    return parts;
  }

  static Report compare(Map<String, Type> was, Map<String, Type> now) {
    Report r = new Report();
    for (Type old : was.values()) {
      Type t = now.get(old.name);
      if (t == null) {
        r.breaks.add("type removed (or no longer public): " + old.line);
        continue;
      }
      compareType(old, t, now, r);
    }
    for (Type t : now.values()) {
      Type old = was.get(t.name);
      if (old == null) {
        r.additions.add("type " + t.line);
        continue;
      }
      for (Member m : t.members.values()) {
        if (old.members.containsKey(m.key)) continue;
        boolean implementorsMust = m.modifiers.contains("abstract") && !old.modifiers.contains("final");
        r.additions.add(t.name + ": " + m.line
            + (implementorsMust ? "   (abstract: implementations outside the SDK must add it)" : ""));
      }
    }
    return r;
  }

  private static void compareType(Type old, Type t, Map<String, Type> now, Report r) {
    String where = old.name + ": ";
    if (!old.kind.equals(t.kind)) r.breaks.add(where + old.kind + " became " + t.kind);
    if (old.modifiers.contains("public") && !t.modifiers.contains("public")) r.breaks.add(where + "no longer public");
    if (!old.modifiers.contains("final") && t.modifiers.contains("final")) r.breaks.add(where + "became final");
    if (old.kind.equals("class") && !old.modifiers.contains("abstract") && t.modifiers.contains("abstract")) {
      r.breaks.add(where + "became abstract");
    }
    Set<String> supertypes = supertypes(t, now);
    if (!isSubtype(supertypes, old.superclass)) r.breaks.add(where + "no longer extends " + old.superclass);
    for (String i : old.interfaces) {
      if (!isSubtype(supertypes, i)) r.breaks.add(where + "no longer implements " + i);
    }
    for (Member m : old.members.values()) {
      Member n = findMember(t, m.key, now);
      if (n == null) {
        r.breaks.add(where + "removed " + m.line);
        continue;
      }
      String what = where + m.line + " -> ";
      if (!m.type.equals(n.type)) r.breaks.add(what + (m.key.startsWith("field ") ? "type" : "return type") + " " + n.type);
      if (m.modifiers.contains("static") != n.modifiers.contains("static")) r.breaks.add(what + "static changed");
      if (m.modifiers.contains("public") && !n.modifiers.contains("public")) r.breaks.add(what + "no longer public");
      if (!m.modifiers.contains("final") && n.modifiers.contains("final") && !old.modifiers.contains("final")
          && (m.key.startsWith("field ") || !m.modifiers.contains("static"))) {
        r.breaks.add(what + "became final");
      }
      if (!m.modifiers.contains("abstract") && n.modifiers.contains("abstract")) r.breaks.add(what + "became abstract");
    }
  }

  /** Returns the member of the type or of its supertypes in the module (a member pulled up stays linkable). */
  private static Member findMember(Type t, String key, Map<String, Type> types) {
    Deque<Type> todo = new ArrayDeque<>(List.of(t));
    Set<String> seen = new LinkedHashSet<>();
    while (!todo.isEmpty()) {
      Type x = todo.pop();
      if (!seen.add(x.name)) continue;
      Member m = x.members.get(key);
      if (m != null) return m;
      if (key.startsWith("<init>")) return null;   // constructors are not inherited
      for (String s : directSupertypes(x)) if (types.containsKey(s)) todo.add(types.get(s));
    }
    return null;
  }

  /** Returns every supertype of the type that the module's API shows, and the type itself. */
  private static Set<String> supertypes(Type t, Map<String, Type> types) {
    Set<String> all = new LinkedHashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of(t.name));
    while (!todo.isEmpty()) {
      String name = todo.pop();
      if (!all.add(name)) continue;
      Type x = types.get(name);
      if (x != null) todo.addAll(directSupertypes(x));
    }
    all.add("java.lang.Object");
    return all;
  }

  /** Returns whether one of the supertypes is the wanted type or, for the JDK's types, a subtype of it. */
  private static boolean isSubtype(Set<String> supertypes, String wanted) {
    if (supertypes.contains(wanted)) return true;
    for (String s : supertypes) {
      try {
        if (Class.forName(wanted, false, null).isAssignableFrom(Class.forName(s, false, null))) return true;
      } catch (ClassNotFoundException | LinkageError notTheJdks) {
        // a type of the module or of a library: its supertypes are in the dump or unknown
      }
    }
    return false;
  }

  private static List<String> directSupertypes(Type t) {
    List<String> s = new ArrayList<>(t.interfaces);
    s.add(t.superclass);
    return s;
  }
}
