package dev.svc.chat.internal.socketio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class EngineIoCodecTest {
  @Test
  void decodesEveryPacketType() throws Exception {
    assertEquals(new EngineIoPacket(EngineIoPacket.Type.OPEN, "{}"), EngineIoCodec.decode("0{}"));
    assertEquals(new EngineIoPacket(EngineIoPacket.Type.CLOSE, ""), EngineIoCodec.decode("1"));
    assertEquals(new EngineIoPacket(EngineIoPacket.Type.PING, ""), EngineIoCodec.decode("2"));
    assertEquals(new EngineIoPacket(EngineIoPacket.Type.PONG, "probe"), EngineIoCodec.decode("3probe"));
    assertEquals(new EngineIoPacket(EngineIoPacket.Type.MESSAGE, "40"), EngineIoCodec.decode("440"));
    assertEquals(new EngineIoPacket(EngineIoPacket.Type.UPGRADE, ""), EngineIoCodec.decode("5"));
    assertEquals(new EngineIoPacket(EngineIoPacket.Type.NOOP, ""), EngineIoCodec.decode("6"));
  }

  @Test
  void roundTrips() throws Exception {
    for (EngineIoPacket.Type t : EngineIoPacket.Type.values()) {
      String frame = EngineIoCodec.encode(t, "x");
      assertEquals(new EngineIoPacket(t, "x"), EngineIoCodec.decode(frame));
    }
    assertEquals("3", EngineIoCodec.encode(EngineIoPacket.Type.PONG, ""));
    assertEquals("42[\"a\"]", EngineIoCodec.message("2[\"a\"]"));
  }

  @Test
  void rejectsEmptyAndUnknownTypes() {
    assertThrows(MalformedFrameException.class, () -> EngineIoCodec.decode(""));
    assertThrows(MalformedFrameException.class, () -> EngineIoCodec.decode("7"));
    assertThrows(MalformedFrameException.class, () -> EngineIoCodec.decode("x"));
    assertThrows(MalformedFrameException.class, () -> EngineIoCodec.decode("{\"sid\":1}"));
  }

  @Test
  void parsesTheOpenPacketOfTheOfficialServer() throws Exception {
    EngineIoHandshake h = EngineIoCodec.parseOpen(
        "{\"sid\":\"ZNv4sbp7GfpDWyXpAAAA\",\"upgrades\":[],\"pingInterval\":1500,\"pingTimeout\":1000,\"maxPayload\":1000000}");
    assertEquals("ZNv4sbp7GfpDWyXpAAAA", h.sid);
    assertEquals(1500, h.pingIntervalMillis);
    assertEquals(1000, h.pingTimeoutMillis);
    assertEquals(1_000_000, h.maxPayload);
  }

  @Test
  void rejectsMalformedOpenPackets() {
    assertThrows(MalformedFrameException.class, () -> EngineIoCodec.parseOpen(""));
    assertThrows(MalformedFrameException.class, () -> EngineIoCodec.parseOpen("{\"sid\":\"a\"}"));
    assertThrows(MalformedFrameException.class, () -> EngineIoCodec.parseOpen("{\"sid\":\"a\",\"pingInterval\":\"x\"}"));
    assertThrows(MalformedFrameException.class, () -> EngineIoCodec.parseOpen("[1]"));
    assertThrows(MalformedFrameException.class,
        () -> EngineIoCodec.parseOpen("{\"sid\":\"a\",\"pingInterval\":1,\"pingTimeout\":1}{}"));
  }
}
