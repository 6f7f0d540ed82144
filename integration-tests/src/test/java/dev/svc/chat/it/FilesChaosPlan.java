package dev.svc.chat.it;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The seeded workload of {@link FilesChaosTest}: per user, which sends it makes, in which room, and for a file send
 * the file (random bytes of a size between 1 KiB and 8 MiB, log-uniform, written before the run) and its sha256.
 * The first send of the first user is a file of 8 MiB and the second one of 1 KiB, so that both ends of the range
 * are in every run; a file that would take the run past 40 MiB of files (per 10 sends a user) is sent as a text
 * instead. The same seed gives the same plan.
 */
final class FilesChaosPlan {
  static final int MIN_BYTES = 1024;
  static final int MAX_BYTES = 8 * 1024 * 1024;
  private static final double FILE_CHANCE = 0.45;
  /** The file bytes of a run at scale 1, at most: a file drawn past it is sent as a text (CI's minute). */
  private static final long BUDGET = 40L * 1024 * 1024;

  /** One send: a text message when {@code file} is null, else a message of one file part and a caption. */
  record Send(String userId, String roomId, String clientMessageId, File file, String sha256) {
    boolean isFile() {
      return file != null;
    }

    ChaosReport.Send asReported() {
      return new ChaosReport.Send(userId, roomId, clientMessageId);
    }
  }

  final List<Send> sends;

  private FilesChaosPlan(List<Send> sends) {
    this.sends = List.copyOf(sends);
  }

  /**
   * Plans {@code perUser} sends for each user of {@code roomsOf} (user to its rooms, in a stable order), writing
   * the files into {@code dir}.
   */
  static FilesChaosPlan make(long seed, Map<String, List<String>> roomsOf, int perUser, Path dir) throws Exception {
    Random rnd = new Random(seed);
    List<Send> sends = new ArrayList<>();
    long budget = BUDGET * perUser / 10;
    boolean first = true;
    for (Map.Entry<String, List<String>> user : roomsOf.entrySet()) {
      for (int i = 1; i <= perUser; i++) {
        String room = user.getValue().get(rnd.nextInt(user.getValue().size()));
        String clientMessageId = user.getKey() + "-" + i;
        boolean forced = first && i <= 2;
        if (!forced && rnd.nextDouble() >= FILE_CHANCE) {
          sends.add(new Send(user.getKey(), room, clientMessageId, null, null));
          continue;
        }
        int size = forced ? (i == 1 ? MAX_BYTES : MIN_BYTES) : logUniform(rnd);
        if (size > budget) {
          sends.add(new Send(user.getKey(), room, clientMessageId, null, null));
          continue;
        }
        budget -= size;
        File file = dir.resolve(clientMessageId + ".bin").toFile();
        FilesEndToEndTest.randomFile(file.toPath(), size, rnd.nextLong());
        sends.add(new Send(user.getKey(), room, clientMessageId, file, FilesEndToEndTest.sha256(file)));
      }
      first = false;
    }
    return new FilesChaosPlan(sends);
  }

  /** Returns the sends of {@code userId}, in order. */
  List<Send> of(String userId) {
    return sends.stream().filter(s -> s.userId().equals(userId)).toList();
  }

  List<Send> files() {
    return sends.stream().filter(Send::isFile).toList();
  }

  long fileBytes() {
    return files().stream().mapToLong(s -> s.file().length()).sum();
  }

  private static int logUniform(Random rnd) {
    double low = Math.log(MIN_BYTES);
    double high = Math.log(MAX_BYTES);
    return (int) Math.min(MAX_BYTES, Math.round(Math.exp(low + rnd.nextDouble() * (high - low))));
  }
}
