package dev.svc.chat.store.sqlite;

import static dev.svc.chat.store.sqlite.Fixtures.batch;
import static dev.svc.chat.store.sqlite.Fixtures.range;
import static dev.svc.chat.store.sqlite.Fixtures.room;
import static dev.svc.chat.store.sqlite.Fixtures.roomIds;
import static dev.svc.chat.store.sqlite.Fixtures.seqs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Collections;
import java.util.Random;

import dev.svc.chat.MessageQuery;
import dev.svc.chat.store.ChatStore;
import dev.svc.chat.store.StoreException;
import dev.svc.chat.store.StoreWrite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The provider's files: one database per user, owner-only modes, deletion, damaged files. */
class SqliteFilesTest {
  @TempDir File dir;

  @Test
  void eachUserHasADatabaseOfItsOwn() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    ChatStore alice = provider.open("alice");
    ChatStore bob = provider.open("bob");
    try {
      alice.write(batch("a-room", 1, 3).room(room("a-room", 1)));
      bob.write(batch("b-room", 1, 2).room(room("b-room", 1)));
      assertEquals(Collections.singletonList("a-room"), roomIds(alice));
      assertEquals(Collections.singletonList("b-room"), roomIds(bob));
      assertNull(alice.messages("b-room", MessageQuery.latest(2)));
      assertNotEquals(provider.file("alice"), provider.file("bob"));
    } finally {
      alice.close();
      bob.close();
    }
    ChatStore again = provider.open("alice");
    try {
      assertEquals(Collections.singletonList("a-room"), roomIds(again), "kept across a reopen");
      assertEquals(range(1, 3), seqs(again.messages("a-room", MessageQuery.latest(10))));
    } finally {
      again.close();
    }
  }

  @Test
  void aUserIdOfAnyCharactersNamesAFileInTheDirectory() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    String odd = "../../etc/passwd\u0000 ?*:\\ é 😀";
    File file = provider.file(odd);
    assertEquals(dir, file.getParentFile());
    assertTrue(file.getName().matches("svc-chat-[0-9a-f]{32}\\.db"), file.getName());
    provider.open(odd).close();
    assertTrue(file.isFile());
  }

  @Test
  void theDirectoryAndEveryFileAreTheOwnersOnly() throws Exception {
    assumeTrue(Files.getFileStore(dir.toPath()).supportsFileAttributeView("posix"), "a POSIX file system");
    File sub = new File(dir, "data/chat");
    SqliteChatStore provider = SqliteChatStore.provider(sub);
    ChatStore store = provider.open("alice");
    try {
      store.write(batch("r", 1, 3)); // the WAL holds it: the -wal and -shm files exist while the store is open
      File db = provider.file("alice");
      assertEquals("rwx------", mode(sub));
      for (String suffix : Arrays.asList("", "-wal", "-shm")) {
        File f = new File(db.getPath() + suffix);
        assertTrue(f.exists(), f + " exists");
        assertEquals("rw-------", mode(f), f.getName());
      }
    } finally {
      store.close();
    }
  }

  @Test
  void filesWithLooserModesAreRestrictedWhenOpened() throws Exception {
    assumeTrue(Files.getFileStore(dir.toPath()).supportsFileAttributeView("posix"), "a POSIX file system");
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    provider.open("alice").close();
    File db = provider.file("alice");
    Files.setPosixFilePermissions(db.toPath(), PosixFilePermissions.fromString("rw-r--r--"));
    provider.open("alice").close();
    assertEquals("rw-------", mode(db));
  }

  @Test
  void aSideFileDeletedBetweenTheCheckAndTheChmodIsNoFailureAndTheNextIsStillRestricted() throws Exception {
    assumeTrue(Files.getFileStore(dir.toPath()).supportsFileAttributeView("posix"), "a POSIX file system");
    File db = new File(dir, "race.db");
    File wal = new File(db.getPath() + "-wal");
    File shm = new File(db.getPath() + "-shm");
    for (File f : Arrays.asList(db, wal, shm)) {
      assertTrue(f.createNewFile());
      Files.setPosixFilePermissions(f.toPath(), PosixFilePermissions.fromString("rw-r--r--"));
    }
    // the check finds the WAL, then another connection's close deletes it before the chmod
    SqliteChatStore.restrict(db, p -> {
      boolean found = Files.exists(p);
      if (p.equals(wal.toPath())) assertTrue(wal.delete());
      return found;
    });
    assertFalse(wal.exists());
    assertEquals("rw-------", mode(db));
    assertEquals("rw-------", mode(shm), "the side file after the deleted one is restricted all the same");
  }

  @Test
  void deleteRemovesTheDatabaseAndItsSideFiles() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    ChatStore store = provider.open("alice");
    store.write(batch("r", 1, 3));
    store.close();
    File db = provider.file("alice");
    for (String suffix : Arrays.asList("-wal", "-shm", "-journal")) {
      File side = new File(db.getPath() + suffix);
      if (!side.exists()) assertTrue(side.createNewFile()); // as a killed process leaves them
    }
    ChatStore bob = provider.open("bob");
    bob.close();
    provider.delete("alice");
    for (String suffix : Arrays.asList("", "-wal", "-shm", "-journal")) {
      assertFalse(new File(db.getPath() + suffix).exists(), suffix);
    }
    assertTrue(provider.file("bob").exists(), "another user's file stays");
    ChatStore fresh = provider.open("alice");
    try {
      assertTrue(fresh.load().isEmpty());
    } finally {
      fresh.close();
    }
    provider.delete("nobody"); // nothing to delete: no failure
  }

  @Test
  void aFileThatIsNoDatabaseIsCorruptAtOpenThenDeletedAndRebuilt() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    byte[] garbage = new byte[8192];
    new Random(7).nextBytes(garbage);
    Files.write(provider.file("alice").toPath(), garbage);
    StoreException e = assertThrows(StoreException.class, () -> provider.open("alice"));
    assertEquals(StoreException.Kind.CORRUPT, e.kind(), e.getMessage());
    provider.delete("alice");
    ChatStore store = provider.open("alice");
    try {
      store.write(batch("r", 1, 1));
      assertEquals(range(1, 1), seqs(store.messages("r", MessageQuery.latest(1))));
    } finally {
      store.close();
    }
  }

  @Test
  void aTruncatedDatabaseIsCorruptAtOpen() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    ChatStore store = provider.open("alice");
    StoreWrite w = batch("r", 1, 300);
    store.write(w);
    store.close(); // the last connection checkpoints the WAL into the database file
    File db = provider.file("alice");
    assertFalse(new File(db.getPath() + "-wal").exists() && new File(db.getPath() + "-wal").length() > 0);
    try (RandomAccessFile raf = new RandomAccessFile(db, "rw")) {
      raf.setLength(raf.length() / 2);
    }
    StoreException e = assertThrows(StoreException.class, () -> provider.open("alice"));
    assertEquals(StoreException.Kind.CORRUPT, e.kind(), e.getMessage());
  }

  @Test
  void aDatabaseOfAnotherProgramIsCorrupt() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    try (java.sql.Connection c = Fixtures.connect(provider.file("alice"))) {
      c.createStatement().execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)");
    }
    StoreException e = assertThrows(StoreException.class, () -> provider.open("alice"));
    assertEquals(StoreException.Kind.CORRUPT, e.kind(), e.getMessage());
  }

  @Test
  void aRowThatDoesNotReadBackIsCorrupt() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    ChatStore store = provider.open("alice");
    try {
      store.write(batch("r", 1, 3));
      try (java.sql.Connection c = Fixtures.connect(provider.file("alice"))) {
        c.createStatement().executeUpdate("UPDATE messages SET json = '{\"id\":' WHERE seq = 2");
      }
      StoreException e = assertThrows(StoreException.class, () -> store.messages("r", MessageQuery.latest(3)));
      assertEquals(StoreException.Kind.CORRUPT, e.kind(), e.getMessage());
    } finally {
      store.close();
    }
  }

  @Test
  void clearLeavesNoTraceOfTheRowsInTheFiles() throws Exception {
    SqliteChatStore provider = SqliteChatStore.provider(dir);
    ChatStore store = provider.open("alice");
    try {
      StoreWrite w = new StoreWrite();
      for (long s = 1; s <= 200; s++) {
        w.message(Fixtures.message("r", s, s).newBuilder()
            .parts(Collections.singletonList(dev.svc.chat.MessagePart.text("secret-marker " + s))).build());
      }
      store.write(w.watermarks("r", 200, 200));
      store.clear();
      for (String suffix : Arrays.asList("", "-wal")) {
        File f = new File(provider.file("alice").getPath() + suffix);
        if (!f.exists()) continue;
        String bytes = new String(Files.readAllBytes(f.toPath()), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(bytes.contains("secret-marker"), f.getName() + " still holds a cleared message");
      }
      assertTrue(store.load().isEmpty());
    } finally {
      store.close();
    }
  }

  private static String mode(File f) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(f.toPath()));
  }
}
