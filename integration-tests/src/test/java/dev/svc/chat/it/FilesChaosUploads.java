package dev.svc.chat.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.FileAttachment;
import dev.svc.chat.Message;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The uploads the reference server keeps in its data directory ({@code files/<id>.json}: the record with its
 * offset, length, completion and the messages recorded as referencing it; docs/internals/server.md, "Files"),
 * checked against the messages it stores: every file part of a message names a complete upload that records
 * the message, and every complete upload is referenced by a stored message that holds it. An unfinished upload
 * is no problem (one whose creation answer a cut or a kill lost, left to expire); it is counted.
 */
final class FilesChaosUploads {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One upload's record: its offset and length, whether complete, and its references as "room/message". */
  record Upload(String id, long offset, long length, boolean complete, Set<String> refs) {
  }

  final Map<String, Upload> uploads;

  private FilesChaosUploads(Map<String, Upload> uploads) {
    this.uploads = uploads;
  }

  /** Reads the records of the server's data directory {@code dataDir} (the server may be running). */
  static FilesChaosUploads read(Path dataDir) throws Exception {
    Map<String, Upload> uploads = new LinkedHashMap<>();
    List<Path> records;
    try (Stream<Path> paths = Files.list(dataDir.resolve("files"))) {
      records = paths.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    }
    for (Path path : records) {
      JsonNode n = JSON.readTree(path.toFile());
      Set<String> refs = new HashSet<>();
      for (JsonNode ref : n.path("refs")) refs.add(ref.get("roomId").asText() + "/" + ref.get("messageId").asText());
      Upload u = new Upload(n.get("id").asText(), n.get("offset").asLong(), n.get("length").asLong(),
          n.path("completedAt").isNumber(), refs);
      uploads.put(u.id(), u);
    }
    return new FilesChaosUploads(uploads);
  }

  long unfinished() {
    return uploads.values().stream().filter(u -> !u.complete()).count();
  }

  long complete() {
    return uploads.values().stream().filter(Upload::complete).count();
  }

  /** What is wrong between the uploads and {@code stored}, every message the server holds. */
  List<String> problems(List<Message> stored) {
    List<String> problems = new ArrayList<>();
    Map<String, Set<String>> holders = new LinkedHashMap<>(); // file id -> "room/message" of the messages holding it
    for (Message m : stored) {
      for (FileAttachment f : m.files()) {
        String where = m.roomId() + "/" + m.id();
        holders.computeIfAbsent(f.fileId(), k -> new HashSet<>()).add(where);
        Upload u = uploads.get(f.fileId());
        if (u == null) {
          problems.add("message " + m.clientMessageId() + " (" + where + ") references file " + f.fileId()
              + ", which the server does not hold");
        } else if (!u.complete()) {
          problems.add("message " + m.clientMessageId() + " references the unfinished upload " + f.fileId()
              + " (" + u.offset() + " of " + u.length() + " bytes)");
        } else if (!u.refs().contains(where)) {
          problems.add("message " + m.clientMessageId() + " references file " + f.fileId()
              + ", whose record does not list it (its room's members cannot read it): refs " + u.refs());
        }
      }
    }
    for (Upload u : uploads.values()) {
      if (u.complete() && !holders.containsKey(u.id())) {
        problems.add("the complete upload " + u.id() + " (" + u.length() + " bytes) is referenced by no stored message"
            + (u.refs().isEmpty() ? "" : " (its record lists " + u.refs() + ")"));
      }
    }
    return problems;
  }
}
