package dev.svc.chat.reference.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.model.Json;
import org.junit.jupiter.api.Test;

/** The decoder follows socket.io-parser: namespace, ack id, payload checks. */
class SocketIoPacketTest {

    private final ObjectMapper mapper = Json.newMapper();

    @Test
    void decodesTheForms() throws Exception {
        SocketIoPacket connect = SocketIoPacket.parse("0{\"token\":\"t\"}", mapper);
        assertEquals(SocketIoPacket.CONNECT, connect.type());
        assertEquals("/", connect.nsp());
        assertEquals("t", connect.data().get("token").asText());

        SocketIoPacket bare = SocketIoPacket.parse("0", mapper);
        assertNull(bare.data());

        SocketIoPacket nsp = SocketIoPacket.parse("0/admin,{\"a\":1}", mapper);
        assertEquals("/admin", nsp.nsp());
        assertEquals("/admin", SocketIoPacket.parse("0/admin", mapper).nsp());

        SocketIoPacket event = SocketIoPacket.parse("2123[\"join-room\",{\"roomId\":\"r\"}]", mapper);
        assertEquals(123L, event.ackId());
        assertEquals("join-room", event.data().get(0).asText());

        SocketIoPacket nspAck = SocketIoPacket.parse("2/x,7[\"e\"]", mapper);
        assertEquals("/x", nspAck.nsp());
        assertEquals(7L, nspAck.ackId());

        assertEquals(SocketIoPacket.DISCONNECT, SocketIoPacket.parse("1", mapper).type());
        assertEquals(SocketIoPacket.ACK, SocketIoPacket.parse("30[{}]", mapper).type());
    }

    @Test
    void refusesWhatTheOfficialParserRefuses() {
        for (String bad : new String[] {"", "7", "x", "2{}", "2[]", "2[1]", "2[\"disconnect\"]",
                "2[\"newListener\"]", "0[]", "1{}", "3{}", "2[\"e\"", "51-[\"e\",{}]", "2" + "9".repeat(20) + "[\"e\"]"}) {
            assertThrows(SocketIoPacket.InvalidPacketException.class, () -> SocketIoPacket.parse(bad, mapper), bad);
        }
    }
}
