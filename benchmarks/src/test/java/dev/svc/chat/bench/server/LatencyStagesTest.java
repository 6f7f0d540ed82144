package dev.svc.chat.bench.server;

import static dev.svc.chat.bench.support.LoopbackScenario.A;
import static dev.svc.chat.bench.support.LoopbackScenario.A_RELAYED;
import static dev.svc.chat.bench.support.LoopbackScenario.A_SENT;
import static dev.svc.chat.bench.support.LoopbackScenario.B;
import static dev.svc.chat.bench.support.LoopbackScenario.B_RELAYED;
import static dev.svc.chat.bench.support.LoopbackScenario.B_SENT;
import static dev.svc.chat.bench.support.LoopbackScenario.C;
import static dev.svc.chat.bench.support.LoopbackScenario.OFFSET;
import static dev.svc.chat.bench.support.LoopbackScenario.SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.svc.chat.bench.server.LatencyStages.Matched;
import dev.svc.chat.bench.server.LatencyStages.Run;
import dev.svc.chat.bench.server.LatencyStages.Split;
import dev.svc.chat.bench.support.LoopbackScenario;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stages: the stamp → the sender's frame → the server's frame to the receiver → the receiver's event. */
class LatencyStagesTest {
    @TempDir
    Path dir;

    @Test
    void aMessageSplitsAtItsClientFrameAndItsFrameToTheReceiver() throws IOException {
        Path capture = Files.write(dir.resolve("loopback.pcap"), LoopbackScenario.capture(true,
                ByteOrder.LITTLE_ENDIAN));
        long aReceived = 1_400_000;
        long bReceived = 2_450_000;
        Path trace = Files.writeString(dir.resolve("ours-r1-1.txt"), A + " " + aReceived + "\n" + B + " "
                + bReceived + "\n" + C + " 2500000\nnot a trace line\n");
        Run run = new Run(1, 1000, true, true, "r1", trace, SERVER);
        Run otherServer = new Run(1, 1000, true, false, "r1", trace, SERVER + 1);
        Run noTrace = new Run(2, 1000, true, true, "r2", dir.resolve("ours-r2-1.txt"), SERVER);

        LatencyStages.Result result = LatencyStages.match(capture, OFFSET, List.of(run, otherServer, noTrace));

        assertEquals(new Matched(run, 3, List.of(
                        new Split(A_SENT - A, A_RELAYED - A_SENT, aReceived - A_RELAYED),
                        new Split(B_SENT - B, B_RELAYED - B_SENT, bReceived - B_RELAYED))),
                result.runs().get(0), "not the echoes to the sender, nor C, whose relay the capture cut short");
        assertEquals(new Matched(otherServer, 3, List.of()), result.runs().get(1), "another server's messages");
        assertEquals(new Matched(noTrace, 0, List.of()), result.runs().get(2));
        assertEquals(1, result.counts().truncated());
    }
}
