package dev.svc.chat.internal.realtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.squareup.moshi.JsonDataException;
import com.squareup.moshi.JsonReader;

import dev.svc.chat.internal.json.IsoTimestamps;
import dev.svc.chat.internal.json.Json;

/**
 * Where a connection's delivery starts, from the gateway's CONNECT answer (contract section 8): each of the user's
 * rooms with its {@code seq} and {@code rev}, read by the service after the connection joined the user's channel,
 * so every message above the seq and every change above the rev is delivered on the connection; and the service's
 * time {@code at}. An answer without {@code rooms} (an API-key connection, a service that does not give
 * positions) gives none: {@link #given()} is false. Immutable.
 */
public final class StartPositions {
  /** No positions: the answer had none, or could not be read. */
  public static final StartPositions NONE = new StartPositions(null, 0, false);

  private final List<RoomPosition> rooms;
  private final long at;
  private final boolean handover;

  private StartPositions(List<RoomPosition> rooms, long at, boolean handover) {
    this.rooms = rooms;
    this.at = at;
    this.handover = handover;
  }

  /** Returns positions for {@code rooms} at the service's time {@code at} (0: not known); tests and parsing. */
  public static StartPositions of(List<RoomPosition> rooms, long at) {
    return new StartPositions(Collections.unmodifiableList(new ArrayList<>(rooms)), at, false);
  }

  /**
   * Reads the CONNECT answer's payload. A malformed {@code rooms} entry makes the whole list unusable (none is
   * given, so recovery falls back to listing the rooms) rather than starting a room at a wrong place.
   */
  static StartPositions parse(String data) {
    if (data == null) return NONE;
    List<RoomPosition> rooms = null;
    long at = 0;
    try {
      JsonReader reader = Json.reader(data);
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        if (name.equals("rooms") && reader.peek() == JsonReader.Token.BEGIN_ARRAY) {
          rooms = readRooms(reader);
        } else if (name.equals("at") && reader.peek() == JsonReader.Token.STRING) {
          at = parseTime(reader.nextString());
        } else {
          reader.skipValue();
        }
      }
    } catch (IOException | JsonDataException | IllegalArgumentException e) {
      return NONE;
    }
    return rooms == null ? new StartPositions(null, at, false) : new StartPositions(rooms, at, false);
  }

  private static List<RoomPosition> readRooms(JsonReader reader) throws IOException {
    List<RoomPosition> rooms = new ArrayList<>();
    reader.beginArray();
    while (reader.hasNext()) {
      String id = null;
      long seq = -1;
      long rev = -1;
      reader.beginObject();
      while (reader.hasNext()) {
        String name = reader.nextName();
        if (name.equals("id")) {
          id = reader.nextString();
        } else if (name.equals("seq")) {
          seq = reader.nextLong();
        } else if (name.equals("rev")) {
          rev = reader.nextLong();
        } else {
          reader.skipValue();
        }
      }
      reader.endObject();
      if (id == null || id.isEmpty() || seq < 0 || rev < 0) throw new JsonDataException("a room position without id, seq or rev");
      rooms.add(new RoomPosition(id, seq, rev));
    }
    reader.endArray();
    return Collections.unmodifiableList(rooms);
  }

  private static long parseTime(String text) {
    try {
      return IsoTimestamps.parse(text);
    } catch (IllegalArgumentException e) {
      return 0; // for display only: an unreadable time is no reason to distrust the positions
    }
  }

  /** Returns these positions, marked as those of a token refresh's new connection while the old one delivered. */
  StartPositions duringHandover() {
    return new StartPositions(rooms, at, true);
  }

  /** Returns whether the answer carried positions. */
  public boolean given() {
    return rooms != null;
  }

  /** Returns the rooms' positions; empty when none were given. */
  public List<RoomPosition> rooms() {
    return rooms == null ? Collections.<RoomPosition>emptyList() : rooms;
  }

  /** Returns the service's time of the answer, epoch milliseconds; 0 when not given. */
  public long at() {
    return at;
  }

  /**
   * Returns whether the connection was accepted during a token refresh's handover, while the old connection still
   * delivered: what the client holds may then be above a position without the service having gone back.
   */
  public boolean handover() {
    return handover;
  }

  @Override
  public String toString() {
    return "StartPositions{" + (rooms == null ? "none" : rooms.size() + " rooms") + ", at=" + at
        + (handover ? ", handover" : "") + "}";
  }
}
