package dev.svc.chat.bench.server;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

/**
 * A room of two new users on a server under test, a sender and a receiver (ids made unique per run), with a
 * token for each: what the latency benchmarks send through.
 */
record DirectRoom(String api, String senderId, String senderToken, String receiverId, String receiverToken,
                  String roomId) {

    static DirectRoom open(ServerUnderTest server) throws IOException, InterruptedException {
        Http http = new Http();
        String api = server.baseUrl() + "/v1";
        String prefix = "l" + UUID.randomUUID().toString().substring(0, 8) + "-";
        String sender = prefix + "sender";
        String receiver = prefix + "receiver";
        List<String> tokens = http.tokens(api, List.of(sender, receiver));
        String roomId = http.post(api + "/chat/rooms", ServerUnderTest.API_KEY,
                "{\"memberIds\":[\"" + sender + "\",\"" + receiver + "\"]}").get("id").textValue();
        return new DirectRoom(api, sender, tokens.get(0), receiver, tokens.get(1), roomId);
    }
}
